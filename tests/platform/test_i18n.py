"""French and English: the catalogue is complete and compiled, every game's texts (moves in
words, effects, refusals, end reasons) have a French sentence, and the site's pages and the
API answer in French to ``Accept-Language: fr``.

The catalogue is read with the standard library: ``locale/fr/LC_MESSAGES/django.po`` parsed
here, its committed ``django.mo`` loaded with :mod:`gettext`.
"""

from __future__ import annotations

import ast
import gettext as stdlib_gettext
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import django
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

import engine
from engine.bots import RandomBot
from engine.core import BadMove, IllegalMove, InvalidOptions, Seat, Termination, Text
from events.models import Stream
from events.services import stream_open
from herald import demo
from herald.management.commands.makemessages import jinja_as_python
from herald.texts import active_language, per_language, render, speaking
from play import sept_blasons
from ratings import selectors as ratings_selectors
from tournaments.models import Club, Tournament
from tournaments.pages import _ordinal
from tournaments.pairing.checks import check_tables
from tournaments.pairing.types import Entrant, History, TableRule

CATALOGUE = Path(settings.LOCALE_PATHS[0]) / "fr" / "LC_MESSAGES"
NAMES = ["alice", "bruno", "chloé", "damien"]

#: Sentences whose French is the English by design: card, colour and distinction names and
#: codes the rulebooks keep, punctuation-only templates, words French shares.
IDENTICAL = {
    # The lobby's set-up form (play/forms.py) and the open game's model.
    "Options",
    "options",
    "Total",
    "Scores",
    "blason %(colour)s",
    "score %(total)s",
    "{space} ({align})",
    "{seat} ({character})",
    "joker",
    "prestige",
    "distinctions",
    "orange",
    "blason",
    "audit",
    "type",
    "club",
    "clubs",
    "table",
    "tables",
    "Club",
    "Clubs",
    "Date",
    "Format",
    "Console",
    "%(name)s — console",
    "Page %(page)s",
    "Points",
    "Site",
    "Table",
    "Table %(number)s",
    "table %(number)s",  # the console's lists: "Anne — table 3"
    "(table %(number)s)",  # a fixed table beside a name
    "Tables",
    "invitation",
    "invitations",
    "Invitations (QR codes)",
    "%(name)s — invitations",
    "E-mail",
    "Score",
    "score %(score)s",
    "%(colour)s %(points)s × %(tokens)s = %(score)s",  # a house's name and figures
    # Blazon's table: heraldic words French shares, and templates of punctuation only.
    "lion",
    "Augmentations",
    "Distinctions",
    "%(name)s, %(category)s (%(type)s), %(augmentation)s, prestige %(prestige)s",
    "%(symbol)s × %(n)s",
    "%(where)s — %(paid)s",
    "%(space)s (%(align)s)",
    "%(space)s, %(align)s",
}


@dataclass
class Entry:
    """One message of the .po file."""

    msgid: str
    context: str | None = None
    plural: str | None = None
    msgstr: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    references: list[str] = field(default_factory=list)


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po file (the header left out)."""
    entries: list[Entry] = []
    for block in path.read_text(encoding="utf-8").strip().split("\n\n"):
        entry, key, parts = Entry(""), "", {}
        for line in block.splitlines():
            if line.startswith("#,"):
                entry.flags |= {flag.strip() for flag in line[2:].split(",")}
            elif line.startswith("#:"):
                entry.references += line[2:].split()
            elif line.startswith("#"):
                continue
            elif line.startswith('"'):
                parts[key].append(ast.literal_eval(line))
            else:
                key, _, value = line.partition(" ")
                parts[key] = [ast.literal_eval(value)]
        joined = {k: "".join(v) for k, v in parts.items()}
        entry.msgid = joined.get("msgid", "")
        entry.context = joined.get("msgctxt")
        entry.plural = joined.get("msgid_plural")
        entry.msgstr = [v for k, v in sorted(joined.items()) if k.startswith("msgstr")]
        if entry.msgid:
            entries.append(entry)
    return entries


ENTRIES = read_po(CATALOGUE / "django.po")
BY_MSGID = {entry.msgid: entry for entry in ENTRIES}


def _placeholders(sentence: str) -> list[str]:
    braces = re.findall(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)(?:[:!][^}]*)?\}", sentence)
    percents = re.findall(r"%\(([A-Za-z_]+)\)s", sentence)
    return sorted(braces + percents)


# -- the catalogue ---------------------------------------------------------------------------


def test_the_catalogue_is_complete_with_no_fuzzy_entry() -> None:
    assert len(ENTRIES) > 300  # the engines' texts and the apps' sentences are in it
    untranslated = [e.msgid for e in ENTRIES if not all(e.msgstr) or not e.msgstr]
    assert untranslated == []
    assert [e.msgid for e in ENTRIES if "fuzzy" in e.flags] == []


def test_every_sentence_of_the_jinja_drawings_is_in_the_catalogue() -> None:
    """The Jinja2 drawings (play/jinja2/) are read for ``make messages`` by herald's own
    makemessages (Django's reads only its own templates): each of their calls is found, with
    its plural and context, and has its French. A sentence misspelt in a template, or added
    without ``make messages``, would be drawn in English."""
    root = Path(django.apps.apps.get_app_config("play").path) / "jinja2"
    entries = {(e.context, e.msgid): e for e in ENTRIES}
    found = []
    for path in sorted(root.rglob("*.jinja")):
        calls = jinja_as_python(str(path))
        found += [(path.name, call) for call in ast.parse(calls).body]
    assert len(found) > 40
    for name, statement in found:
        call = statement.value  # type: ignore[attr-defined]
        texts = [arg.value for arg in call.args if isinstance(arg, ast.Constant)]
        context = texts.pop(0) if call.func.id in ("pgettext", "npgettext") else None
        entry = entries.get((context, texts[0]))
        assert entry is not None, (name, texts)
        assert entry.plural == (texts[1] if len(texts) > 1 else None), (name, texts)
        assert all(entry.msgstr), (name, texts)


def test_every_translation_keeps_the_placeholders_of_its_msgid() -> None:
    broken = [
        e.msgid
        for e in ENTRIES
        for s in e.msgstr
        if _placeholders(s) != _placeholders(e.msgid)
        and not (e.plural and _placeholders(s) == _placeholders(e.plural))
    ]
    assert broken == []


def test_only_the_identical_by_design_are_the_english_words() -> None:
    same = {e.msgid for e in ENTRIES if e.plural is None and e.msgstr == [e.msgid]}
    assert same <= IDENTICAL, same - IDENTICAL


def test_the_committed_mo_is_the_compiled_po() -> None:
    """A fresh clone serves French with no gettext tools: the .mo must hold every entry."""
    with (CATALOGUE / "django.mo").open("rb") as compiled:
        mo = stdlib_gettext.GNUTranslations(compiled)
    for entry in ENTRIES:
        if entry.context is not None:
            assert mo.pgettext(entry.context, entry.msgid) == entry.msgstr[0], entry.msgid
        elif entry.plural is None:
            assert mo.gettext(entry.msgid) == entry.msgstr[0], entry.msgid
        else:
            assert mo.ngettext(entry.msgid, entry.plural, 1) == entry.msgstr[0]
            assert mo.ngettext(entry.msgid, entry.plural, 5) == entry.msgstr[1]


#: Our words that differ from Django's own French for the same msgid on purpose (ours win
#: everywhere, the admin included, since LOCALE_PATHS comes first): the site's verbs.
OVERRIDES_DJANGO = {"Log in", "Log out", "Page not found"}


def test_the_catalogue_does_not_change_the_admins_words_by_accident() -> None:
    """A msgid shared with Django (say "Change") would change the admin's French too: a word
    with another meaning here needs a context (``{% translate "Change" context "…" %}``)."""
    root = Path(django.__file__).parent
    theirs = []
    for mo_path in [
        root / "conf" / "locale" / "fr" / "LC_MESSAGES" / "django.mo",
        root / "contrib" / "admin" / "locale" / "fr" / "LC_MESSAGES" / "django.mo",
        root / "contrib" / "auth" / "locale" / "fr" / "LC_MESSAGES" / "django.mo",
    ]:
        with mo_path.open("rb") as compiled:
            theirs.append(stdlib_gettext.GNUTranslations(compiled))
    clashes = sorted(
        e.msgid
        for e in ENTRIES
        if e.context is None and e.plural is None and e.msgid not in OVERRIDES_DJANGO
        for mo in theirs
        if mo.gettext(e.msgid) not in (e.msgid, e.msgstr[0])
    )
    assert clashes == []


# -- the games' texts ------------------------------------------------------------------------


def _msgids(text: Text) -> Iterator[str]:
    """``text``'s msgid and those of the texts nested in its parameters."""
    yield text.msgid
    stack = list(text.params.values())
    while stack:
        value = stack.pop()
        if isinstance(value, Text):
            yield value.msgid
            stack.extend(value.params.values())
        elif isinstance(value, tuple):
            stack.extend(value)


def _refusals(game: Any, state: Any, players: int, earlier: list[Any]) -> Iterator[Text]:
    """Refusals reachable from ``state``: a legal move made by a seat not to act, moves of
    earlier positions played now, malformed moves."""
    acting = game.to_act(state)
    moves = game.legal_moves(state, acting[0]) if acting else []
    idle = [s for s in range(players) if s not in acting]
    for move in moves[:1]:
        for seat in idle[:1]:
            try:
                game.apply(state, seat, move)
            except IllegalMove as exc:
                yield exc.text
    for seat, move in earlier[-12:]:
        try:
            game.apply(state, seat, move)
        except IllegalMove as exc:
            yield exc.text


def _game_texts(game_id: str, seed: str, players: int, options: dict[str, Any]) -> list[Text]:
    """Every text a bot game shows people: moves in words, effects, refusals, the end."""
    game = engine.get(game_id)
    state = game.new_game(players=players, seed=seed, options=options)
    bot = RandomBot(seed)
    texts: list[Text] = [e.message for e in state.effects if e.message is not None]
    earlier: list[Any] = []
    for _step in range(3000):
        acting = game.to_act(state)
        if not acting:
            break
        seat = acting[0]
        moves = game.legal_moves(state, seat)
        texts += [game.describe_text(move, seat) for move in moves[:40]]
        if len(earlier) % 5 == 0:
            texts += list(_refusals(game, state, players, earlier))
        move = bot.choose(game, state, seat, moves)
        state = game.apply(state, seat, move)
        earlier.append((seat, move))
        texts += [e.message for e in state.effects if e.message is not None]
    result = game.result(state)
    assert result is not None, f"{game_id} did not end"
    if result.termination is not None:
        texts.append(result.termination.text)
    for seat, move in earlier[-3:]:
        try:
            game.apply(state, seat, move)
        except IllegalMove as exc:
            texts.append(exc.text)
    for bad in ({"type": "nothing-of-the-sort"}, {"no": "type"}, "a move"):
        try:
            game.decode_move(bad)
        except BadMove as exc:
            texts.append(exc.text)
    for setup in ({"players": 99}, {"players": players, "options": {"nope": 1}}):
        try:
            game.new_game(seed=seed, **setup)
        except InvalidOptions as exc:
            texts.append(exc.text)
    return texts


GAME_PLAYS = [
    ("blazon", "i18n-bz", 3, {}),
    ("blazon", "i18n-bz-abate", 2, {"abatement": True}),
    ("les-7-blasons", "i18n-7b", 4, {}),
    ("les-7-blasons", "i18n-7b-var", 3, {"variants": [1, 2, 3, 4]}),
    ("13-couronnes", "i18n-13c", 3, {}),
    ("13-couronnes", "i18n-13c-hidden", 4, {"hidden_crowns": True, "max_turns": 40}),
]


@pytest.mark.parametrize(("game_id", "seed", "players", "options"), GAME_PLAYS)
def test_every_text_of_a_bot_game_has_a_french_sentence(
    game_id: str, seed: str, players: int, options: dict[str, Any]
) -> None:
    texts = _game_texts(game_id, seed, players, options)
    seen = {msgid for text in texts for msgid in _msgids(text)}
    assert len(seen) > 25, seen  # the game really said many different things
    missing = sorted(m for m in seen if m not in BY_MSGID)
    assert missing == [], f"run `make messages`: not in the catalogue: {missing}"
    same = sorted(m for m in seen if BY_MSGID[m].msgstr == [m] and m not in IDENTICAL)
    assert same == []
    with translation.override("fr"):
        for text in texts:
            french = render(text, NAMES[:players])
            assert "{" not in french, french
            if BY_MSGID[text.msgid].msgstr != [text.msgid]:
                assert french != render_english(text, players), french


def render_english(text: Text, players: int) -> str:
    """``text`` as an English viewer reads it (names for seats)."""
    with translation.override("en"):
        return render(text, NAMES[:players])


def test_seats_are_named_by_the_players_or_counted_from_one() -> None:
    sentence = Text("{seat} has no guard to place", {"seat": Seat(1)})
    with translation.override("fr"):
        assert render(sentence, NAMES) == "bruno n'a pas de garde à placer"
        assert render(sentence) == "la place 2 n'a pas de garde à placer"
    with translation.override("en"):
        assert render(sentence) == "seat 2 has no guard to place"
    assert str(sentence) == "seat 1 has no guard to place"  # the engine's own words, 0-based


def test_words_made_once_per_language_follow_the_active_language() -> None:
    """A per_language table made in one language is never served in another: the drawings
    of a French and an English seat, made one after the other in one process, each get theirs."""
    made: list[str | None] = []

    @per_language
    def space(row: int) -> str:
        made.append(translation.get_language())
        return gettext("the cadency space") if row == 0 else gettext("steals")

    for _ in range(2):
        with translation.override("fr"):
            assert space(0) == "la case de brisure"
            assert space(1) == "vole"
        with translation.override("en"):
            assert space(0) == "the cadency space"
    assert made == ["fr", "fr", "en"]  # once per arguments and language
    with translation.override("fr"):
        assert sept_blasons.power_words()["steal"] == "vole"
        assert render(Text("{seat} has no guard to place", {"seat": Seat(0)})) == (
            "la place 1 n'a pas de garde à placer"
        )
    with translation.override("en"):
        assert sept_blasons.power_words()["steal"] == "steals"


def test_a_drawings_language_is_held_for_it_and_let_go_after() -> None:
    """Inside ``speaking`` the words made once per language are looked up by the language held
    (not Django's ``get_language``): a nested drawing in another language gets its own words,
    and the outer one its own again after it, as ``translation.override`` does."""

    @per_language
    def steals() -> str:
        return gettext("steals")

    with translation.override("en"):
        assert active_language() == "en"
        with speaking("fr"):
            assert (active_language(), translation.get_language()) == ("fr", "fr")
            assert steals() == "vole"
            with speaking("en-gb"):
                assert active_language() == translation.get_language() == "en-gb"
                assert steals() == "steals"
            assert active_language() == "fr"
            assert steals() == "vole"
        assert active_language() == translation.get_language() == "en"
        assert steals() == "steals"


def test_every_end_reason_has_a_french_sentence() -> None:
    with translation.override("fr"):
        for termination in Termination:
            assert render(termination.text) != termination.text.msgid


# -- the site and the API --------------------------------------------------------------------


def _template_sentences() -> list[str]:
    """Sentences of the templates (no placeholder) whose French differs from the English."""
    return [
        e.msgid
        for e in ENTRIES
        if e.plural is None
        and any(".html" in ref for ref in e.references)
        and len(e.msgid) >= 8
        and not _placeholders(e.msgid)
        and e.msgstr != [e.msgid]
    ]


@pytest.fixture
def demo_data(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The demo on a small scale (one round per game), as tests/platform/test_pages.py."""
    small = {game.id: demo.DemoPlan(players=8, rounds=1) for game in engine.games()}
    small["13-couronnes"] = demo.DemoPlan(players=8, rounds=1, options={"max_turns": 5})
    monkeypatch.setattr(demo, "PLANS", small)
    return demo.demo_populate(say=lambda _: None)


def _has_template(name: str) -> bool:
    try:
        get_template(name)
    except TemplateDoesNotExist:
        return False
    return True


def _site_urls() -> list[str]:
    """Every kind of page of the demo: indexes, clubs, sheets, leaderboards, histories."""
    urls = ["/", "/tournaments/", "/ratings/", "/clubs/"]
    if _has_template("registration/login.html"):
        urls.append("/accounts/login/")
    urls += [f"/clubs/{club.pk}/" for club in Club.objects.all()[:1]]
    for tournament in Tournament.objects.all():
        base = f"/tournaments/{tournament.pk}"
        urls += [f"{base}/", f"{base}/standings/"]
        if tournament.rounds.filter(number=1).exclude(released_at=None).exists():
            urls += [f"{base}/pairings/1/", f"{base}/pairings/1/by-name/"]
    for pool in ratings_selectors.pool_list():
        urls.append(f"/ratings/{pool.pk}/")
        best = ratings_selectors.leaderboard(pool=pool, limit=1)[0]
        urls.append(f"/ratings/{pool.pk}/players/{best.player_id}/")
    return urls


def test_an_english_sentence_left_in_a_french_page_is_found() -> None:
    """The check of the pages can fail: it finds a sentence nobody marked for translation."""
    page = "<main><h2>Classement</h2><p>No rated player from this club yet.</p>{}</main>"
    assert _english_left(page.format(""), page.format("")) == [
        "No rated player from this club yet."
    ]
    assert _english_left(page.format("<p>Herald Demo Club</p>"), page.format("")) == [
        "No rated player from this club yet."
    ]


@pytest.mark.django_db
@pytest.mark.usefixtures("demo_data")
def test_the_site_pages_in_french_show_no_english_sentence_of_the_catalogue() -> None:
    sentences = _template_sentences()
    users = get_user_model().objects
    staff, player = users.get(username=demo.ADMIN), users.get(username=demo.PLAYER)
    stream = Stream.objects.filter(seats__user=player).first()
    assert stream is not None
    signed_in = {
        "/admin/": staff,
        "/me/": player,
        "/accounts/password_change/": player,
        f"/games/{stream.pk}/": player,
    }
    shown_in_english = 0
    for url in [*_site_urls(), "/accounts/password_reset/", *signed_in]:
        client = Client()
        if url in signed_in:
            client.force_login(signed_in[url])
        french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr")
        assert french.status_code == 200, url
        assert french["Content-Language"] == "fr", url
        html = french.content.decode()
        left = [s for s in sentences if _in_html(s, html)]
        assert left == [], f"{url} shows English in French: {left}"
        english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        shown_in_english += sum(1 for s in sentences if _in_html(s, english))
        assert _english_left(html, english) == [], f"{url}: English left untranslated"
    assert shown_in_english > 0  # the check above looks for sentences the pages do show


#: Words that give away an English sentence left in a French page (no French word is one).
ENGLISH_WORDS = frozenset(
    [
        "the",
        "and",
        "of",
        "to",
        "is",
        "are",
        "for",
        "with",
        "your",
        "you",
        "this",
        "that",
        "from",
        "by",
        "no",
        "not",
        "has",
        "have",
        "be",
        "was",
        "yet",
        "one",
        "all",
        "any",
        "its",
        "it",
        "an",
        "or",
    ]
)


class _Text(HTMLParser):
    """The visible text nodes of a page (scripts, styles and the head left out)."""

    def __init__(self) -> None:
        super().__init__()
        self.nodes: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag in ("script", "style", "head", "code", "pre"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "head", "code", "pre") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text and not self._skip:
            self.nodes.append(text)


def _english_left(french: str, english: str) -> list[str]:
    """Text nodes of the French page that are the English page's own and read as English."""
    parsed = {}
    for name, html in (("fr", french), ("en", english)):
        parser = _Text()
        parser.feed(html)
        parsed[name] = parser.nodes
    same = set(parsed["fr"]) & set(parsed["en"])
    return sorted(
        node
        for node in same
        if len(node.split()) >= 3
        and len(ENGLISH_WORDS & set(re.findall(r"[a-z]+", node.lower()))) >= 2
    )


def _in_html(sentence: str, html: str) -> bool:
    escaped = sentence.replace("&", "&amp;").replace("'", "&#x27;").replace('"', "&quot;")
    return sentence in html or escaped in html


@pytest.mark.django_db
@pytest.mark.usefixtures("demo_data")
def test_the_admin_index_is_french() -> None:
    client = Client()
    client.force_login(get_user_model().objects.get(username=demo.ADMIN))
    html = client.get("/admin/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Site d’administration" in html or "Administration" in html
    assert "Game streams" not in html
    assert "Flux de parties" in html
    assert "Tournois" in html


@pytest.mark.django_db
def test_the_api_answers_in_the_request_language() -> None:
    client = Client()
    french = client.get("/api/v1/nothing-here", HTTP_ACCEPT_LANGUAGE="fr").json()
    assert french["error"] == "not_found"
    assert french["detail"].startswith("Il n'y a pas de point d'accès de l'API")
    english = client.get("/api/v1/nothing-here", HTTP_ACCEPT_LANGUAGE="en").json()
    assert english["detail"].startswith("There is no API endpoint")


@pytest.mark.django_db
def test_a_refused_move_is_explained_in_french_with_the_players_names() -> None:
    users = [
        get_user_model().objects.create_user(username=name, password="x" * 20) for name in NAMES[:3]
    ]
    stream = stream_open(game_id="13-couronnes", seats=users, options=None, edition=None,
                         created_by=users[0], public=False)  # fmt: skip
    client = Client()
    client.force_login(users[1])  # seat 1: the game begins with seat 0
    move = {"type": "redo-draw"}
    answer = client.post(
        f"/api/v1/streams/{stream.pk}/moves",
        {"move": move, "expected_version": stream.version},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert answer.status_code in (403, 422), answer.content
    detail = answer.json()["detail"]
    assert "alice" in detail
    assert "bruno" in detail
    assert "seat" not in detail


def test_a_draw_warning_is_shown_in_the_organisers_language() -> None:
    draw = check_tables([[7, 7]], [], [Entrant(7)], History(), TableRule(preferred=2, allowed=(2,)))
    (twice,) = (w for w in draw if w.code == "seated_twice")
    assert twice.render({7: "alice"}) == "alice is seated twice"
    with translation.override("fr"):
        assert twice.render({7: "alice"}, translate=gettext) == "alice est placé deux fois"


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", ["1st", "2nd", "3rd", "4th", "11th", "12th", "21st", "22nd", "101st", "111th"]),
        ("fr", ["1er", "2e", "3e", "4e", "11e", "12e", "21e", "22e", "101e", "111e"]),
    ],
)
def test_ordinals_follow_each_languages_rule(language: str, expected: list[str]) -> None:
    """French says "1er" for the first only ("21e"), English "21st": one suffix each."""
    with translation.override(language):
        assert [_ordinal(n) for n in (1, 2, 3, 4, 11, 12, 21, 22, 101, 111)] == expected
