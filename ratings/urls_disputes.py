"""The dispute pages (mounted at /disputes/): url names ``dispute-pages:…``."""

from django.urls import URLPattern, path

from ratings import pages_disputes as pages

app_name = "dispute-pages"

urlpatterns: list[URLPattern] = [
    path("", pages.dispute_list, name="list"),
    path("new/<uuid:stream>/", pages.dispute_new, name="new"),
    path("<int:dispute_id>/", pages.dispute_detail, name="detail"),
    path("<int:dispute_id>/statement", pages.dispute_statement, name="statement"),
    path("<int:dispute_id>/preview", pages.dispute_preview, name="preview"),
    path("<int:dispute_id>/rule", pages.dispute_rule_confirm, name="rule"),
    path("<int:dispute_id>/progress", pages.dispute_progress, name="progress"),
]
