"""A test-only URLconf: the site's, plus views that refuse and that crash (for the error pages)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.urls import path

from herald.urls import handler500 as site_handler500
from herald.urls import urlpatterns as site_urlpatterns


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied("a test-only refusal")


def crash(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a test-only crash")


urlpatterns = [
    path("test-errors/forbidden/", forbidden),
    path("test-errors/crash/", crash),
    path("api/v1/test-crash", crash),
    *site_urlpatterns,
]
handler500 = site_handler500
