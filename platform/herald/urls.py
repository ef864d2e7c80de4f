"""Root URLconf: health, admin, the versioned API and its OpenAPI schema and docs."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from herald import views

api_v1 = [
    path("", include("events.urls")),
    path("", include("tournaments.urls")),
    path("", include("ratings.urls")),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("tournaments/", include("tournaments.urls_pages")),
    path("ratings/", include("ratings.urls_pages")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file (?script): no inline script for CSP.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
]
