"""Root URLconf: health, admin, the versioned API and its OpenAPI schema and docs."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from herald import auth_views, views

api_v1 = [
    path("auth/token", auth_views.TokenView.as_view(), name="auth-token"),
    path("auth/logout", auth_views.LogoutView.as_view(), name="auth-logout"),
    path("auth/logout-all", auth_views.LogoutAllView.as_view(), name="auth-logout-all"),
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
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
]
