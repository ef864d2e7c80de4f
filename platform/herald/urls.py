"""Root URLconf: health, admin, the versioned API and its OpenAPI schema and docs."""

from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from herald import account_views, auth_views, views
from herald.api import api_not_found

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
    path("favicon.ico", views.favicon, name="favicon"),
    path("admin/", admin.site.urls),
    # Log in, log out, password change and reset: Django's auth views (url names login,
    # logout, password_change, password_reset, ...), templates in templates/registration/.
    path("accounts/", include("django.contrib.auth.urls")),
    path(
        "accounts/invite/<str:token>/",
        account_views.invitation_claim_view,
        name="invitation-claim",
    ),
    # The language switcher posts to set_language (url name "set_language").
    path("i18n/", include("django.conf.urls.i18n")),
    path("me/", views.me, name="me"),
    path("api/v1/", include(api_v1)),
    path("tournaments/", include("tournaments.urls_pages")),
    path("ratings/", include("ratings.urls_pages")),
    path("disputes/", include("ratings.urls_disputes")),
    # Clubs: the list, each club's page and its self sign-up (when the club allows it).
    path("clubs/", include("tournaments.urls_clubs")),
    path("games/", include("play.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file (?script): no inline script for CSP.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    # Last: any other /api/ path (a malformed id included) is the API's JSON 404, not the
    # site's HTML page, in DEBUG too. /api/schema and /api/docs keep APPEND_SLASH's redirect.
    re_path(r"^api/(?!(schema|docs)$)", api_not_found, name="api-not-found"),
]

# The site's 404 and 403 pages are templates/404.html and 403.html (Django's handlers); a 500
# under /api/ stays the API's JSON error body.
handler500 = "herald.views.server_error"
