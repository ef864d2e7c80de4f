"""The blazon in French: a shield's rows as French heraldry writes them.

The English blazon (:func:`engine.blazon.shield.blazon_line`) reads each row's card names left
to right and moves an arrangement's number to the front. French blazon has its own order, which
this module follows for the words of the edition's ``blazon-fr.toml``:

- the field first, the partition before its tinctures, each tincture with "de", the last one
  joined by "et": "Parti d'or et de gueules", "Tiercé en pairle d'azur, d'or et de gueules";
- a piece (ordinary) or a meuble (charge) with "à" and its article ("au chevron", "à la bande",
  "à l'aigle"), its line after it and agreeing with it ("à la bande ondée"), then its
  tincture: "à la bande ondée d'argent";
- a numbered arrangement puts the number before the charges, which take the plural, and its
  own words after their tincture, agreeing: "à trois roses d'argent posées deux et une";
- an arrangement that strews its charges comes first: "semé de fleurs de lys d'or";
- the cadency mark last: "brisé d'un lambel".

"de" and "le/la" elide before a vowel or a (mute) h: "d'or", "d'hermine", "à l'aigle".
The rows are joined by ", " into one sentence; it takes a capital when it starts with the field
("D'azur, à trois roses…"), as the English keeps the field's capitals. A card the grammar has
no place for (a card placed against its symbol with the abatement token, a row still being
built) follows its row's phrase in its own words.
"""

from __future__ import annotations

from engine.blazon.cards import TINCTURE_TYPES, FrenchName

#: A card of a row: its type (cards.csv) and its French name.
Entry = tuple[str, FrenchName]

NUMBERS = {2: "deux", 3: "trois", 4: "quatre", 5: "cinq", 6: "six", 7: "sept", 8: "huit",
           9: "neuf", 10: "dix"}  # fmt: skip
_ELIDING = frozenset("aàâeéèêëiîïoôuùûüyh")


def elides(words: str) -> bool:
    """Whether "de" and "le/la" elide before ``words`` (a vowel or a mute h).

    >>> elides("or"), elides("hermine"), elides("gueules")
    (True, True, False)
    """
    return words[:1].lower() in _ELIDING


def of(words: str) -> str:
    """``words`` after "de", elided when they call for it.

    >>> of("azur"), of("gueules")
    ("d'azur", 'de gueules')
    """
    return ("d'" if elides(words) else "de ") + words


def to_the(noun: FrenchName) -> str:
    """A piece or a meuble after "à" and its article.

    >>> to_the(FrenchName("chevron", "m")), to_the(FrenchName("bande", "f"))
    ('au chevron', 'à la bande')
    >>> to_the(FrenchName("aigle", "f"))
    "à l'aigle"
    """
    if elides(noun.name):
        return f"à l'{noun.name}"
    return ("au " if noun.gender == "m" else "à la ") + noun.name


def one(noun: FrenchName) -> str:
    """A noun with its indefinite article: "un lambel", "une merlette"."""
    return ("une " if noun.gender == "f" else "un ") + noun.name


def listed(parts: list[str]) -> str:
    """Parts joined by ", " and the last by " et ".

    >>> listed(["d'azur", "d'or", "de gueules"])
    "d'azur, d'or et de gueules"
    """
    if len(parts) < 2:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " et " + parts[-1]


def agreeing(words: str, feminine: str, noun: FrenchName) -> str:
    """An adjective's words after ``noun``: the feminine ones after a feminine noun."""
    return feminine if noun.gender == "f" and feminine else words


def field_words(row: list[Entry]) -> str:
    """The field (row 1): its partition, then its tinctures ("Parti d'or et de gueules")."""
    tinctures = listed([of(name.name) for kind, name in row if kind in TINCTURE_TYPES])
    division = next((i for i, (kind, _) in enumerate(row) if kind == "division"), None)
    head = " ".join(
        part for part in (row[division][1].name if division is not None else "", tinctures) if part
    )
    rest = [
        own_words(entry)
        for i, entry in enumerate(row)
        if i != division and entry[0] not in TINCTURE_TYPES
    ]
    return ", ".join(part for part in (head, *rest) if part)


def row_words(row: list[Entry]) -> str:
    """A row below the field: its charge or piece with what qualifies it, then the rest."""
    tincture = listed([of(name.name) for kind, name in row if kind in TINCTURE_TYPES])
    used = {i for i, (kind, _) in enumerate(row) if kind in TINCTURE_TYPES}
    main = next((i for i, (kind, _) in enumerate(row) if kind in ("charge", "ordinary")), None)
    if main is None:
        rest = [own_words(entry) for i, entry in enumerate(row) if i not in used]
        return ", ".join([*rest, tincture] if tincture else rest)
    used.add(main)
    kind, noun = row[main]
    partner = next(
        (i for i, (k, _) in enumerate(row) if k == ("arrangement" if kind == "charge" else "line")),
        None,
    )
    if partner is not None:
        used.add(partner)
    with_partner = row[partner][1] if partner is not None else None
    if kind == "charge":
        head = charge_words(noun, with_partner, tincture)
    else:
        head = piece_words(noun, with_partner, tincture)
    return ", ".join([head, *(own_words(entry) for i, entry in enumerate(row) if i not in used)])


def charge_words(charge: FrenchName, arrangement: FrenchName | None, tincture: str) -> str:
    """A meuble, its tincture and its arrangement.

    >>> rose = FrenchName("rose", "f", "roses")
    >>> charge_words(rose, None, "d'argent")
    "à la rose d'argent"
    >>> charge_words(rose, FrenchName("deux et un", count=3, after="posés deux et un",
    ...              feminine="posées deux et une"), "d'argent")
    "à trois roses d'argent posées deux et une"
    >>> charge_words(rose, FrenchName("semé", before="semé"), "d'or")
    "semé de roses d'or"
    """
    if arrangement is None:
        return _spaced(to_the(charge), tincture)
    if arrangement.before:
        return f"{arrangement.before} {of(_spaced(charge.plural, tincture))}"
    words = agreeing(arrangement.after or arrangement.name, arrangement.feminine, charge)
    if arrangement.count:
        number = NUMBERS.get(arrangement.count, str(arrangement.count))
        return _spaced(f"à {number} {charge.plural}", tincture, words)
    return _spaced(to_the(charge), tincture, words)


def piece_words(piece: FrenchName, line: FrenchName | None, tincture: str) -> str:
    """A piece, its line agreeing with it, its tincture.

    >>> piece_words(FrenchName("bande", "f"), FrenchName("ondé", feminine="ondée"), "d'argent")
    "à la bande ondée d'argent"
    """
    shape = agreeing(line.name, line.feminine, piece) if line is not None else ""
    return _spaced(to_the(piece), shape, tincture)


def own_words(entry: Entry) -> str:
    """A card outside its row's grammar, in its own words."""
    kind, name = entry
    if kind in TINCTURE_TYPES:
        return of(name.name)
    if kind in ("charge", "ordinary"):
        return to_the(name)
    if kind == "cadency":
        return one(name)
    return name.name


def cadency_words(mark: Entry) -> str:
    """The cadency mark, last: "brisé d'un lambel". Any meuble or piece breaks the arms the
    same way ("brisé d'une croix alésée"); a card that is no noun (placed there with the
    abatement token) is in its own words."""
    kind, name = mark
    if kind in ("cadency", "charge", "ordinary"):
        return f"brisé {of(one(name))}"
    return own_words(mark)


def blazon(rows: list[tuple[int, list[Entry]]], marks: list[Entry]) -> str:
    """The French blazon of a shield: its rows holding cards (row 1 is the field), top to
    bottom, each row's cards left to right, then its cadency marks. "" for an empty shield."""
    lines = [field_words(cards) if row == 1 else row_words(cards) for row, cards in rows if cards]
    lines += [cadency_words(mark) for mark in marks]
    text = ", ".join(line for line in lines if line)
    if rows and rows[0][0] == 1 and rows[0][1]:
        return text[:1].upper() + text[1:]
    return text


def _spaced(*parts: str) -> str:
    return " ".join(part for part in parts if part)
