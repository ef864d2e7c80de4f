"""The admin for streams and events: read-only, with the log in words, the chain's status, a
step-through of the replay, and an action that runs the /verify checks on selected streams."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from events.models import Event, OutboxEntry, Stream, StreamSeat
from events.selectors import (
    check_hash_chain,
    describe_event,
    seat_names,
    stream_audit,
    stream_verify,
)
from events.states import game_of
from herald.admin import ReadOnlyAdmin
from herald.params import BadNumber, whole_number


class SeatInline(admin.TabularInline):
    model = StreamSeat
    fields = ("seat", "user")
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Stream)
class StreamAdmin(ReadOnlyAdmin):
    list_display = ("id", "game", "edition", "status", "version", "created_at")
    list_filter = ("game", "status")
    search_fields = ("id",)
    inlines = (SeatInline,)
    actions = ("verify_selected",)
    fields = (
        "id", "game", "edition", "engine_version", "options", "status", "version", "result",
        "seed_commitment", "head_hash", "context", "created_by", "created_at", "finished_at",
        "hash_chain", "replay_link", "events_in_words",
    )  # fmt: skip
    readonly_fields = fields

    @admin.display(description=_("hash chain"))
    def hash_chain(self, stream: Stream) -> str:
        check = check_hash_chain(stream, list(Event.objects.filter(stream=stream).order_by("seq")))
        return f"{'intact' if check.ok else 'BROKEN'}: {check.detail}"

    @admin.display(description=_("replay"))
    def replay_link(self, stream: Stream) -> str:
        url = reverse("admin:events_stream_replay", args=[stream.pk])
        return format_html(
            '<a href="{}?at=1">{}</a>', url, gettext("step through the replay from event 1")
        )

    @admin.display(description=_("events"))
    def events_in_words(self, stream: Stream) -> str:
        game = game_of(stream)
        names = seat_names(stream.pk)
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td></tr>",
            (
                (
                    e.seq,
                    e.type,
                    "" if e.seat is None else e.seat,
                    describe_event(e, game, names),
                    e.hash[:12],
                )
                for e in Event.objects.filter(stream=stream).order_by("seq")
            ),
        )
        head = format_html(
            "<tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
            gettext("seq"), gettext("type"), gettext("seat"), gettext("in words"), gettext("hash"),
        )  # fmt: skip
        return format_html("<table>{}{}</table>", head, rows)

    @admin.action(
        description=_("Verify selected streams (engine version, hash chain, seed, replay, result)")
    )
    def verify_selected(self, request: HttpRequest, queryset: QuerySet[Stream]) -> None:
        for stream in queryset:
            report = stream_verify(stream)
            failed = [
                f"{name}: {c['detail']}" for name, c in report["checks"].items() if not c["ok"]
            ]
            if failed:
                said = gettext("Stream {stream}: FAILED — {failed}")
                self.message_user(
                    request, said.format(stream=stream.pk, failed="; ".join(failed)), messages.ERROR
                )
            else:
                said = gettext("Stream {stream}: all checks pass").format(stream=stream.pk)
                self.message_user(request, said, messages.SUCCESS)

    def get_urls(self) -> list[URLPattern]:
        replay = path(
            "<uuid:stream_id>/replay/",
            self.admin_site.admin_view(self.replay_view),
            name="events_stream_replay",
        )
        return [replay, *super().get_urls()]

    def replay_view(self, request: HttpRequest, stream_id: Any) -> HttpResponse:
        """The state after event ``at`` (from a replay), that event in words, previous/next."""
        stream = Stream.objects.filter(pk=stream_id).first()
        if stream is None or not self.has_view_permission(request, stream):
            raise Http404(gettext("no such stream"))
        try:
            at = whole_number(request.GET.get("at", "1"), name="at", minimum=1)
        except BadNumber:
            at = 1
        at = min(at, stream.version)
        audit = stream_audit(stream, at=at)
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Replay of {game} {stream}: event {at} of {version}").format(
                game=stream.game, stream=stream.pk, at=at, version=stream.version
            ),
            "stream": stream,
            "audit": audit,
            "state_json": json.dumps(audit["state"], indent=2, ensure_ascii=False),
            "previous": at - 1 if at > 1 else None,
            "next": at + 1 if at < stream.version else None,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "events/replay.html", context)


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("stream", "seq", "type", "seat", "recorded_at")
    list_filter = ("type",)
    search_fields = ("stream__id",)
    readonly_fields = (
        "stream", "seq", "type", "payload", "seat", "recorded_at", "idempotency_key",
        "prev_hash", "hash",
    )  # fmt: skip


@admin.register(OutboxEntry)
class OutboxEntryAdmin(ReadOnlyAdmin):
    list_display = ("id", "topic", "created_at", "dispatched_at", "attempts")
    list_filter = ("topic",)
    readonly_fields = ("topic", "payload", "created_at", "dispatched_at", "attempts", "last_error")
