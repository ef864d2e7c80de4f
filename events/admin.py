"""The admin for streams and events: read-only, with the log in words (a page at a time), the
players by name, seats counted from 1, the result as a table, the chain's status, a
step-through of the replay, an action that runs the /verify checks on selected streams, the
game record's download and, for superusers, the import of a record from another Herald."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from events.logs import (
    event_lines,
    result_lines,
    seat_line,
    stream_events_page,
    stream_seat_lines,
    with_move_numbers,
)
from events.models import Event, EventType, OutboxEntry, Stream, StreamSeat
from events.records import RecordRefused, record_import
from events.selectors import check_hash_chain, stream_audit, stream_verify
from herald.admin import ReadOnlyAdmin
from herald.params import BadNumber, whole_number


class SeatInline(admin.TabularInline):
    """The players, seats counted from 1 as people count them (the store keeps 0, 1, 2...)."""

    model = StreamSeat
    verbose_name = _("player")
    verbose_name_plural = _("players")
    fields = ("seat_number", "user", "player_name")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # The players are part of the stream's page: whoever may view the stream sees them
        # (the arbiters' group has no permission on seats of its own).
        return bool(request.user.has_perm("events.view_stream"))

    @admin.display(description=_("seat"))
    def seat_number(self, seat: StreamSeat) -> int:
        return seat.seat + 1

    @admin.display(description=_("name"))
    def player_name(self, seat: StreamSeat) -> str:
        line = seat_line(stream_seat_lines([seat.stream_id]).get(seat.stream_id, []), seat.seat)
        return line.name if line else ""


class RecordUploadForm(forms.Form):
    record = forms.FileField(
        label=_("Game record"), help_text=_("A .json file downloaded from another Herald.")
    )


#: Largest record file the upload reads (a long Blazon game is well under 2 MB).
MAX_RECORD_BYTES = 20 * 1024 * 1024


@admin.register(Stream)
class StreamAdmin(ReadOnlyAdmin):
    list_display = ("id", "game", "players_named", "status", "version", "created_at")
    list_filter = ("game", "status")
    search_fields = ("id",)
    inlines = (SeatInline,)
    actions = ("verify_selected",)
    change_form_template = "events/admin/stream_change_form.html"
    change_list_template = "events/admin/stream_change_list.html"
    fields = (
        "id", "game", "edition", "engine_version", "options", "status", "version",
        "result_table", "seed_commitment", "head_hash", "context", "created_by", "created_at",
        "finished_at", "hash_chain", "replay_link", "record_link",
    )  # fmt: skip
    readonly_fields = fields

    class Media:
        css = {"all": ("events/admin.css",)}

    @admin.display(description=_("hash chain"))
    def hash_chain(self, stream: Stream) -> str:
        check = check_hash_chain(stream, list(Event.objects.filter(stream=stream).order_by("seq")))
        state = gettext("intact") if check.ok else gettext("BROKEN")
        return f"{state}: {check.detail}"

    @admin.display(description=_("result"))
    def result_table(self, stream: Stream) -> str:
        rows = result_lines(stream)
        if not rows:
            return gettext("none yet: the game goes on") if not stream.is_finished else "—"
        head = format_html(
            '<tr><th class="num">{}</th><th>{}</th><th class="num">{}</th><th class="num">{}</th></tr>',
            gettext("rank"), gettext("player"), gettext("seat"), gettext("score"),
        )  # fmt: skip
        body = format_html_join(
            "",
            '<tr><td class="num">{}</td><td>{}</td><td class="num">{}</td><td class="num">{}</td></tr>',
            ((row.rank, row.seat.who, row.seat.number, _score(row.score)) for row in rows),
        )
        return format_html(
            '<div class="herald-scroll"><table class="herald-result">{}{}</table></div>', head, body
        )

    @admin.display(description=_("replay"))
    def replay_link(self, stream: Stream) -> str:
        """The site's replay viewer (the table drawn at each move, every hand for an arbiter),
        then the raw state event by event for whoever needs the JSON."""
        viewer = reverse("play:replay", args=[stream.pk])
        raw = reverse("admin:events_stream_replay", args=[stream.pk])
        return format_html(
            '<a href="{}?move=1">{}</a> · <a href="{}?at=1">{}</a>',
            viewer,
            gettext("step through the game in the replay viewer"),
            raw,
            gettext("the raw state, event by event (JSON)"),
        )

    @admin.display(description=_("game record"))
    def record_link(self, stream: Stream) -> str:
        url = reverse("stream-record", args=[stream.pk])
        words = (
            gettext("download the complete record (a .json file anyone can verify)")
            if stream.is_finished
            else gettext("download the record so far (no seed until the game ends)")
        )
        return format_html('<a href="{}" download>{}</a>', url, words)

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """The stream's page, its log below the players one page at a time (``?events=n``)."""
        stream = self.get_object(request, unquote(object_id))
        context = dict(extra_context or {})
        if stream is not None:
            page = stream_events_page(stream, page=request.GET.get("events"))
            context.update(
                events_page=page,
                events_list_url=reverse("admin:events_event_changelist")
                + f"?stream__id__exact={stream.pk}",
            )
        return super().change_view(request, object_id, form_url, context)

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
        own = [
            path(
                "<uuid:stream_id>/replay/",
                self.admin_site.admin_view(self.replay_view),
                name="events_stream_replay",
            ),
            path(
                "import/",
                self.admin_site.admin_view(self.import_view),
                name="events_stream_import",
            ),
        ]
        return [*own, *super().get_urls()]

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """The list, its page's players named in one lookup (not a query per row)."""
        context = {**(extra_context or {}), "can_import": request.user.is_superuser}
        response = super().changelist_view(request, context)
        changelist = getattr(response, "context_data", {}).get("cl")
        if changelist is not None:
            rows = list(changelist.result_list)  # evaluated once: the template reuses it
            seats = stream_seat_lines(row.pk for row in rows)
            for row in rows:
                row.seat_lines = seats.get(row.pk, [])
        return response

    @admin.display(description=_("players"))
    def players_named(self, stream: Stream) -> str:
        lines = getattr(stream, "seat_lines", None)
        if lines is None:
            lines = stream_seat_lines([stream.pk]).get(stream.pk, [])
        return ", ".join(line.name for line in lines)

    def import_view(self, request: HttpRequest) -> HttpResponse:
        """Upload a game record from another Herald (superusers: moving servers is theirs)."""
        if not request.user.is_superuser:
            raise Http404(gettext("only superusers import game records"))
        form = RecordUploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            stream = self._import_upload(request, form)
            if stream is not None:
                return HttpResponseRedirect(reverse("admin:events_stream_change", args=[stream.pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Import a game record"),
            "form": form,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "events/admin/import_record.html", context)

    def _import_upload(self, request: HttpRequest, form: RecordUploadForm) -> Stream | None:
        upload = form.cleaned_data["record"]
        if upload.size > MAX_RECORD_BYTES:
            form.add_error("record", gettext("This file is too large to be a game record."))
            return None
        try:
            data = json.loads(upload.read().decode("utf-8"))
            outcome = record_import(data=data, by=request.user)
        except (UnicodeDecodeError, json.JSONDecodeError):
            form.add_error("record", gettext("This file is not JSON: it is not a game record."))
            return None
        except RecordRefused as exc:
            form.add_error("record", exc.detail)
            return None
        said = gettext("Imported and verified: {count} events.").format(
            count=outcome.stream.version
        )
        if outcome.created:
            said += " " + gettext("Created as inactive accounts: {names}.").format(
                names=", ".join(outcome.created)
            )
        self.message_user(request, said, messages.SUCCESS)
        return outcome.stream

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
        seats = stream_seat_lines([stream.pk]).get(stream.pk, [])
        to_act = [seat_line(seats, seat) for seat in audit["to_act"]]
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Replay of {game} {stream}: event {at} of {version}").format(
                game=stream.game, stream=stream.pk, at=at, version=stream.version
            ),
            "stream": stream,
            "audit": audit,
            "to_act": [line.label for line in to_act if line is not None],
            "state_json": json.dumps(audit["state"], indent=2, ensure_ascii=False),
            "previous": at - 1 if at > 1 else None,
            "next": at + 1 if at < stream.version else None,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "events/replay.html", context)


def _score(score: Any) -> str:
    """A score as people read it: 12, 12.5 (no trailing .0)."""
    if isinstance(score, float) and score.is_integer():
        return str(int(score))
    return "—" if score is None else str(score)


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    """Every event; a stream's own are its page's "all events" link (``?stream__id__exact=``),
    50 a page, with the move number, the player (seat from 1) and the event in words."""

    list_display = ("seq", "move_number", "type", "player", "in_words", "game", "recorded_at")
    list_display_links = ("seq",)
    list_filter = ("type",)
    list_per_page = 50
    search_fields = ("stream__id",)
    ordering = ("stream_id", "seq")

    class Media:
        css = {"all": ("events/admin.css",)}

    readonly_fields = (
        "stream", "seq", "move_number", "type", "player", "in_words", "payload", "recorded_at",
        "idempotency_key", "prev_hash", "hash",
    )  # fmt: skip

    def get_list_display(self, request: HttpRequest) -> Any:
        # One stream's events (its page's link) need not name their stream on every row.
        if "stream__id__exact" in request.GET:
            return tuple(name for name in self.list_display if name != "game")
        return self.list_display

    @admin.display(description=_("game"))
    def game(self, event: Event) -> str:
        return f"{event.stream.game} {str(event.stream_id)[:8]}"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Event]:
        return with_move_numbers(super().get_queryset(request).select_related("stream"))

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        # A stream's page links to its events: ?stream__id__exact=<uuid>.
        return lookup in ("stream__id__exact", "stream") or super().lookup_allowed(
            lookup, value, request
        )

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """The list, its page's events described once per stream (not a query per row); one
        stream's events (``?stream__id__exact=``) are titled with their game."""
        context = dict(extra_context or {})
        stream = _filtered_stream(request)
        if stream is not None:
            context["title"] = gettext("Events of the {game} game {stream}").format(
                game=stream.game, stream=stream.pk
            )
        response = super().changelist_view(request, context)
        changelist = getattr(response, "context_data", {}).get("cl")
        if changelist is not None:
            rows = list(changelist.result_list)  # evaluated once: the template reuses it
            for row, line in zip(rows, event_lines(rows), strict=True):
                row.line = line
        return response

    @admin.display(description=_("move"))
    def move_number(self, event: Event) -> int | str:
        return event.move_number if event.type == EventType.MOVE_MADE else ""

    @admin.display(description=_("player"))
    def player(self, event: Event) -> str:
        line = self._line(event).seat
        return line.label if line else ""

    @admin.display(description=_("in words"))
    def in_words(self, event: Event) -> str:
        return self._line(event).text

    def _line(self, event: Event) -> Any:
        """The event's log line: set for the list's rows by :meth:`changelist_view`, looked up
        alone on an event's own page."""
        line = getattr(event, "line", None)
        return line if line is not None else event_lines([event])[0]


def _filtered_stream(request: HttpRequest) -> Stream | None:
    """The stream whose events the list shows (``?stream__id__exact=<uuid>``), if any."""
    try:
        return Stream.objects.filter(pk=request.GET.get("stream__id__exact")).first()
    except (ValueError, ValidationError):  # not a UUID: the list says so itself
        return None


@admin.register(OutboxEntry)
class OutboxEntryAdmin(ReadOnlyAdmin):
    list_display = ("id", "topic", "created_at", "dispatched_at", "attempts")
    list_filter = ("topic",)
    readonly_fields = ("topic", "payload", "created_at", "dispatched_at", "attempts", "last_error")
