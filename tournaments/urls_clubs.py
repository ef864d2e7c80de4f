"""A club's pages (mounted at /clubs/): self sign-up."""

from django.urls import URLPattern, path

from tournaments import club_pages

urlpatterns: list[URLPattern] = [
    path("<int:pk>/join/", club_pages.club_join, name="club-join"),
]
