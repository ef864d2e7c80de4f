"""Admin: clubs with their members and organisers, players, tournaments with their rounds and registrations, result history.

Results are read-only here: a correction is a new version made through the service the
console uses (``services.result_enter``, a reason asked), from a result's "correct this
table's result" page, never an edit of a stored version. The tables' result streams
(``ResultEvent``) are shown, never written. Rounds and tables are read-only too, and never
deleted: a round is drawn, edited, confirmed and released by the pairing services only (the
console or the API), so the admin can never release a round that was never paired. What the
services own on a tournament (its status and winner, its stages) and on a registration
(check-in, late entry, drop, waitlist, fixed table) is shown read-only; the admin actions
finish or reopen a tournament and check in, drop or re-add players through those services.
"""

from __future__ import annotations

import secrets
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import engine
from herald.admin import ReadOnlyAdmin
from tournaments import games, services
from tournaments.errors import TournamentError
from tournaments.forms import NumberListField
from tournaments.models import (
    Club,
    ClubMembership,
    Player,
    Registration,
    Result,
    ResultConfirmation,
    ResultEvent,
    Round,
    Stage,
    Table,
    TableSeat,
    Tournament,
)
from tournaments.result_forms import ResultForm


class ClubMembershipInline(admin.TabularInline):
    """A club's people: organisers run its tournaments, members may be registered in them."""

    model = ClubMembership
    extra = 0
    fields = ["user", "role", "created_at"]
    readonly_fields = ["created_at"]
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "allow_signup", "created_at"]
    list_filter = ["allow_signup"]
    search_fields = ["name"]
    inlines = [ClubMembershipInline]


@admin.register(ClubMembership)
class ClubMembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role", "created_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]
    autocomplete_fields = ["user", "club"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "user", "club"]
    list_filter = ["club"]
    search_fields = ["display_name", "user__username", "user__email"]
    autocomplete_fields = ["user", "club"]


class StageInline(admin.TabularInline):
    """A tournament's stages, read-only: created with it and by the cut (console or API)."""

    model = Stage
    extra = 0
    fields = ["order", "name", "format", "rounds_planned", "cut_top", "advance"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


#: What the registration services own: changed by the console's buttons, the API or the
#: admin's actions (which call those services), never typed in.
REGISTRATION_SERVICE_FIELDS = [
    "player", "checked_in", "late_entry_round", "dropped_after_round", "waitlisted",
    "fixed_table",
]  # fmt: skip


class RegistrationInline(admin.TabularInline):
    """A tournament's players: the seed may be changed here; check-in, late entry, drop and
    fixed table only through the services (the console, or the registrations' actions)."""

    model = Registration
    extra = 0
    fields = ["player", "seed", "checked_in", "late_entry_round", "dropped_after_round",
              "waitlisted", "fixed_table"]  # fmt: skip
    readonly_fields = REGISTRATION_SERVICE_FIELDS
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # players are registered by registration_create (the console, the API)


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ["number", "attempt", "state", "confirmed_at", "released_at"]
    readonly_fields = fields
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _game_choices() -> list[tuple[str, str]]:
    return [(game.id, game.name) for game in engine.games()]


class TournamentForm(forms.ModelForm):
    """The game is chosen by name from the registered games (its id is what is stored); the
    table sizes and the points by place are typed as numbers ("3, 4, 5"; "4, 3, 2, 1") and
    checked as ``services.tournament_create`` checks them. The status and the winner are not
    here (read-only: they change by finishing or reopening, the admin's actions)."""

    game_id = forms.ChoiceField(label=_("Game"), choices=_game_choices)
    table_allowed = NumberListField(
        label=_("Table sizes allowed"),
        whole=True,
        example="3, 4, 5",
        help_text=_("The sizes a draw may use, separated by commas, e.g. 3, 4, 5."),
    )
    points_by_rank = NumberListField(
        label=_("Points by place"),
        help_text=_(
            "For 1st, 2nd, 3rd..., separated by commas, e.g. 4, 3, 2, 1; tied players share."
        ),
    )

    class Meta:
        model = Tournament
        # The admin shows every field (but those the admin makes read-only); naming them here
        # would hide any field added later.
        fields = "__all__"  # noqa: DJ007

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        stored = self.instance.game_id
        field: Any = self.fields["game_id"]
        if stored and stored not in dict(field.choices):
            # A game the engine no longer registers stays selectable, so the form still saves.
            field.choices = [*field.choices, (stored, stored)]

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] = super().clean() or {}
        if self.errors or not data.get("game_id"):
            return data
        try:
            preferred, allowed, points = services.tournament_tables_and_points(
                game_id=data["game_id"],
                format=data.get("format") or "swiss",
                table_preferred=data.get("table_preferred"),
                table_allowed=data.get("table_allowed"),
                points_by_rank=data.get("points_by_rank"),
            )
        except TournamentError as refusal:
            raise forms.ValidationError(str(refusal)) from None
        data.update(table_preferred=preferred, table_allowed=allowed, points_by_rank=points)
        return data


class GameFilter(admin.SimpleListFilter):
    """Filter by game, listed by name: an admin reads "Les 7 Blasons", not its id."""

    title = "game"
    parameter_name = "game_id"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        ids = Tournament.objects.order_by().values_list("game_id", flat=True).distinct()
        return sorted(((game_id, games.game_name(game_id)) for game_id in ids), key=lambda x: x[1])

    def queryset(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> QuerySet[Tournament]:
        value = self.value()
        return queryset.filter(game_id=value) if value else queryset


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = ["name", "game", "format", "status", "winner", "club", "created_at"]
    list_filter = ["status", GameFilter, "format"]
    search_fields = ["name"]
    filter_horizontal = ["organisers"]
    readonly_fields = ["status", "winner"]
    inlines = [StageInline, RegistrationInline, RoundInline]
    actions = ["finish", "reopen"]

    @admin.action(
        description=_("Finish the selected tournaments (the winner is named)"),
        permissions=["change"],
    )
    def finish(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            self._act(request, tournament, services.tournament_finish, _("{name} is finished."))

    @admin.action(description=_("Reopen the selected finished tournaments"), permissions=["change"])
    def reopen(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            self._act(
                request,
                tournament,
                lambda tournament: services.tournament_reopen(
                    tournament=tournament, by=request.user
                ),
                _("{name} is running again."),
            )

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change:  # opens for registration, as services.tournament_create makes it
            obj.status = Tournament.Status.REGISTRATION
        super().save_model(request, obj, form, change)

    def _act(self, request: HttpRequest, tournament: Tournament, service: Any, done: Any) -> None:
        """One tournament through ``service``; its refusal, in words, as the admin's message."""
        try:
            service(tournament=tournament)
        except TournamentError as refusal:
            self.message_user(request, f"{tournament.name}: {refusal}", level=messages.ERROR)
        else:
            self.message_user(request, str(done).format(name=tournament.name))

    @admin.display(description=_("game"), ordering="game_id")
    def game(self, obj: Tournament) -> str:
        return games.game_name(obj.game_id)

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        """A new tournament starts from its game's defaults (``services.tournament_defaults``,
        what the API and the console's create form fill in): ``?game_id=blazon`` picks the
        game, the first registered one otherwise."""
        initial: dict[str, Any] = dict(super().get_changeform_initial_data(request))
        known = [game.id for game in engine.games()]
        game_id = str(initial.get("game_id") or "")
        if game_id not in known:
            game_id = known[0]
        defaults = services.tournament_defaults(
            game_id=game_id, format=str(initial.get("format") or "swiss")
        )
        initial.update(
            game_id=game_id,
            edition=defaults.edition,
            options=dict(defaults.options),
            table_preferred=defaults.table_preferred,
            table_allowed=list(defaults.table_allowed),
            points_by_rank=list(defaults.points_by_rank),
            tiebreakers=list(defaults.tiebreakers),
            bye_points=defaults.bye_points,
            dispute_window_minutes=defaults.dispute_window_minutes,
            pairing_seed=secrets.token_hex(8),
            join_token=secrets.token_urlsafe(16),
        )
        return initial

    def get_form(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, **kwargs)
        if obj is None:
            links = format_html_join(
                " · ", '<a href="?game_id={}">{}</a>', ((g.id, g.name) for g in engine.games())
            )
            form.base_fields["game_id"].help_text = format_html(
                "{} {}",
                _("The form starts from the game's defaults; to start from another game's:"),
                links,
            )
        return form


class PairedOnlyAdmin(admin.ModelAdmin):
    """Shown, never added, changed or deleted here: the pairing services are the one way in,
    and a round played is history (so a tournament with rounds is not deleted here either)."""

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class TableSeatInline(admin.TabularInline):
    """A table's seats in order, as the draw (or the organiser's hand on a draft) made them."""

    model = TableSeat
    extra = 0
    fields = ["seat", "registration"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class TableInline(admin.TabularInline):
    """A round's tables, read-only: pairing happens through the services only."""

    model = Table
    extra = 0
    fields = ["number", "is_bye", "on_paper", "stream_id"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    """Registrations: the seed may be changed; check-in, drop and re-add are the actions,
    through the registration services (what the console's buttons call)."""

    list_display = [
        "player", "tournament", "seed", "checked_in", "fixed_table", "dropped_after_round",
        "waitlisted",
    ]  # fmt: skip
    list_filter = ["tournament", "checked_in", "waitlisted"]
    search_fields = ["player__display_name", "tournament__name"]
    fields = ["tournament", "player", "seed", "checked_in", "checked_in_at", "late_entry_round",
              "dropped_after_round", "waitlisted", "fixed_table", "created_at"]  # fmt: skip
    readonly_fields = ["tournament", "checked_in_at", "created_at", *REGISTRATION_SERVICE_FIELDS]
    actions = ["check_in", "undo_check_in", "drop", "readd"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # registration_create (the console, the API, the join link) registers

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a player leaves by a drop: their games still count for the others

    @admin.action(description=_("Check the selected players in"), permissions=["change"])
    def check_in(self, request: HttpRequest, queryset: QuerySet[Registration]) -> None:
        self._each(request, queryset, lambda reg: services.registration_check_in(
            registration=reg, checked_in=True, by=request.user))  # fmt: skip

    @admin.action(description=_("Undo the selected players' check-in"), permissions=["change"])
    def undo_check_in(self, request: HttpRequest, queryset: QuerySet[Registration]) -> None:
        self._each(request, queryset, lambda reg: services.registration_check_in(
            registration=reg, checked_in=False, by=request.user))  # fmt: skip

    @admin.action(
        description=_("Drop the selected players after the last confirmed round"),
        permissions=["change"],
    )
    def drop(self, request: HttpRequest, queryset: QuerySet[Registration]) -> None:
        self._each(request, queryset, lambda reg: services.registration_drop(
            registration=reg, by=request.user))  # fmt: skip

    @admin.action(description=_("Re-add the selected dropped players"), permissions=["change"])
    def readd(self, request: HttpRequest, queryset: QuerySet[Registration]) -> None:
        self._each(request, queryset, lambda reg: services.registration_readd(
            registration=reg, by=request.user))  # fmt: skip

    def _each(self, request: HttpRequest, queryset: QuerySet[Registration], service: Any) -> None:
        """Each registration through ``service``; a refusal is the admin's message, in words."""
        done = 0
        for registration in queryset.select_related("player", "tournament__club"):
            try:
                service(registration)
            except TournamentError as refusal:
                self.message_user(
                    request, f"{registration.player.display_name}: {refusal}", messages.ERROR
                )
            else:
                done += 1
        if done:
            self.message_user(
                request, gettext("Done for {count} of the selected players.").format(count=done)
            )


@admin.register(Round)
class RoundAdmin(PairedOnlyAdmin):
    """Every round as drawn; pair, edit, confirm and release it from the console."""

    list_display = ["tournament", "number", "attempt", "state", "created_at"]
    list_filter = ["state", "tournament"]
    readonly_fields = [f.name for f in Round._meta.fields]
    inlines = [TableInline]


@admin.register(Table)
class TableAdmin(PairedOnlyAdmin):
    list_display = ["__str__", "round", "number", "is_bye", "on_paper", "stream_id"]
    list_filter = ["round__tournament", "on_paper"]
    readonly_fields = [f.name for f in Table._meta.fields]
    inlines = [TableSeatInline]


class ConfirmationInline(admin.TabularInline):
    model = ResultConfirmation
    extra = 0
    can_delete = False
    readonly_fields = ["user", "at"]


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):
    """Every version of every result, as history: nothing is added, changed or deleted here;
    "correct this table's result" makes a new version through the console's service."""

    list_display = ["table", "version", "status", "source", "submitted_by", "submitted_at"]
    list_filter = ["status", "source", "table__round__tournament"]
    readonly_fields = [f.name for f in Result._meta.fields]
    inlines = [ConfirmationInline]
    change_form_template = "admin/tournaments/result/change_form.html"

    def get_urls(self) -> list[URLPattern]:
        # Before the model's own URLs: their "<path:object_id>/" would take ".../correct/" too.
        correct = path(
            "<int:result_id>/correct/",
            self.admin_site.admin_view(self.correct_view),
            name="tournaments_result_correct",
        )
        return [correct, *super().get_urls()]

    def correct_view(self, request: HttpRequest, result_id: int) -> HttpResponse:
        """Correct the table of ``result``: places, scores and the reason, through
        ``services.result_enter`` (which checks that the user runs the tournament)."""
        result = Result.objects.select_related("table__round__tournament").filter(pk=result_id)
        found = result.first()
        if found is None:
            raise Http404(gettext("No result {id}.").format(id=result_id))
        table = found.table
        form = ResultForm(request.POST or None, table=table, reason=True)
        status = 200
        if request.method == "POST":
            status = 400
            if form.is_valid():
                try:
                    services.result_enter(
                        table=table,
                        by=request.user,
                        ranks=form.ranks(),
                        scores=form.scores(),
                        reason=form.cleaned_data.get("reason", ""),
                    )
                except TournamentError as refusal:
                    form.add_error(None, str(refusal))
                    status = refusal.status
                else:
                    self.message_user(
                        request, gettext("The result of {table} is corrected.").format(table=table)
                    )
                    return HttpResponseRedirect(reverse("admin:tournaments_result_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Correct the result of {table}").format(table=table),
            "opts": self.model._meta,
            "result": found,
            "form": form,
            "events": table.result_events.select_related("by").order_by("seq"),
        }
        return TemplateResponse(
            request, "admin/tournaments/result/correct.html", context, status=status
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ResultEvent)
class ResultEventAdmin(ReadOnlyAdmin):
    """The tables' result streams, in order: what was reported, confirmed, disputed, entered,
    corrected or decided, by whom and why. Append-only (the database refuses edits)."""

    list_display = ["table", "seq", "kind", "ranks", "by", "reason", "at"]
    list_filter = ["kind", "table__round__tournament"]
