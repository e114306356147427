"""The registry of rule options and presets: the one place a variant is described.

Each :class:`Option` holds its name, the values it takes and its default (the Pyramide app's
choice, 000/002), the letter a deal code writes for each other value, the sentence of the
documents it implements, its description in the API's schema, its rows in the docs, the kit
capability that names it, and whether it is part of the game's :class:`~._shape.Shape`.
From :data:`REGISTRY` are derived:

- ``Rules``' validation, its ``to_json``/``from_json`` and its deal-code letters
  (``letters``/``from_letters``, the segment's pattern and the letters an error lists);
- the named rule sets, ``PRESETS`` (``GET /v1/rules``);
- the API's ``Rules`` model (``service/api/_models.py``), and so the OpenAPI components, and the
  bounds of the layout and state models (the most rows, cards, stock);
- the option tables of ``docs/deal-codes.md`` and ``docs/conformance.md`` (``tests/engine/test_options.py``
  checks them against :func:`letter_table` and :func:`keys_table`);
- the CLI's ``--rules`` help and the messages that list the letters;
- the fuzz oracle's rule sets (:func:`rule_sets`) and the kit's capability of each key.

Adding a value to an option of the shape (a 6-row pyramid) or a preset is data only: a value and
its letter here, or a :class:`Preset`. ``tests/engine/test_options.py::test_a_new_option_value_is_data_only``
does it in a copy of the registry and plays it through the engine, the codes and the API.
Adding an option is a field of ``Rules`` (its behaviour in ``_play``) and its entry here
(``docs/rules.md``, "Adding an option or a preset").

The registry is read through :func:`active`, so that a test may swap it (``use``) before the API
builds its models; the engine never swaps it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Iterator

from ._cards import DECKS
from ._shape import Shape


@dataclass(frozen=True)
class Letter:
    """A value of an option other than its default, as a deal code's rules segment names it, and its
    row in docs/deal-codes.md."""

    value: Any
    letter: str
    #: The table's "rules option" cell (``rows = 10``) and "the variant in the documents" cell.
    code_value: str
    variant: str


@dataclass(frozen=True)
class Option:
    """One option of ``Rules``."""

    name: str
    #: The app's value (000/002).
    default: Any
    #: Every value it takes; a limit (``max_recycles``) takes ``None`` or a number up to ``limit``.
    values: tuple[Any, ...] = ()
    #: The letter of a code's rules segment naming each value other than the default.
    letters: tuple[Letter, ...] = ()
    #: The sentence of the documents the values other than the default implement.
    sentence: str = ""
    #: Its description in the API's schema (``components/schemas/Rules``).
    description: str = ""
    #: A limit's row in docs/deal-codes.md (the letters have theirs).
    code_value: str = ""
    variant: str = ""
    #: Its row in docs/conformance.md's table of keys: the meaning of the value other than the default.
    meaning: str = ""
    #: The kit's capability an implementation declares to take it (``features/capabilities.py``).
    capability: str = ""
    #: Written in a rule set's JSON whatever its value (the options that existed first); the others
    #: only when not their default, so that the JSON of the rule sets before them is unchanged.
    always_written: bool = False
    #: Part of the game's shape (the deck, the triangle, the piles): ``Rules.shape``.
    shape: bool = False
    #: A number written in digits at the end of a code's segment, at most this (``max_recycles``).
    limit: int | None = None
    #: The values the fuzz oracle deals under, for a limit (its other options: every value).
    fuzz_values: tuple[Any, ...] = ()
    #: The solver's searches that model a value of it other than the default (``_solver/entry.py``):
    #: ``fast`` (the pool and the levels: one card a draw onto one waste, the app's 7-row pyramid of
    #: one 52-card deck) and ``general``. None by default: an option added without saying so is
    #: refused by every search (``solver_unsupported``), never silently ignored. An option that
    #: changes nothing a search reads (the undo, the notice) names every search.
    searches: tuple[str, ...] = ()

    @property
    def is_flag(self) -> bool:
        return self.values == (False, True)

    @property
    def is_number(self) -> bool:
        """A JSON number: 2.0 is read as 2."""
        return self.limit is not None or all(isinstance(v, int) and not isinstance(v, bool) for v in self.values)


@dataclass(frozen=True)
class Conflict:
    """Options that do not compose: a rule set with every one of ``options`` off its default is
    ``invalid_rules``, blamed on ``blamed`` (its code names no rule set)."""

    options: tuple[str, ...]
    blamed: str
    reason: str


@dataclass(frozen=True)
class Preset:
    """A named rule set (``GET /v1/rules``): the options it sets, the rest at their default."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()
    #: Where it comes from, in the documents' words.
    source: str = ""


@dataclass(frozen=True, eq=False)
class Registry:
    """Every option, in the order of ``Rules``' fields, the combinations refused, the presets."""

    options: tuple[Option, ...]
    conflicts: tuple[Conflict, ...] = ()
    presets: tuple[Preset, ...] = ()
    #: The order ``GET /v1/rules`` lists the options in (``VARIANT_LETTERS``), kept as it was
    #: first published so that the answer stays the same; an option not named here comes after.
    listing: tuple[str, ...] = ()

    def option(self, name: str) -> Option:
        return next(option for option in self.options if option.name == name)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(option.name for option in self.options)

    def with_value(self, name: str, letter: Letter, **changes: Any) -> Registry:
        """This registry with one more value of an option, named by ``letter`` in a code."""
        options = tuple(
            replace(o, values=o.values + (letter.value,), letters=o.letters + (letter,), **changes)
            if o.name == name
            else o
            for o in self.options
        )
        return replace(self, options=options)

    def with_preset(self, preset: Preset) -> Registry:
        return replace(self, presets=self.presets + (preset,))

    # (what is derived from it, below: cached apart, so that mutation testing reaches it)

    def shapes(self) -> tuple[Shape, ...]:
        """Every shape the options allow (:func:`shapes`)."""
        return tuple(shapes(self))

    def segment_letters(self) -> Letters:
        """How a deal code's rules segment is written (:func:`segment_letters`)."""
        return letters(self)

    def listed_letters(self) -> dict[str, str]:
        """Each option and how a code's segment writes it, as ``GET /v1/rules`` lists them
        (:func:`listed_letters`)."""
        return option_letters(self)

    def rule_sets(self) -> Iterator[dict[str, Any]]:
        """Every combination of the options' values that composes (:func:`rule_sets`)."""
        return rule_sets(self)


_COVERING = "«una carta nunca se empareja con otra que todavía la cubre»"
#: The solver's searches (``Option.searches``).
SEARCHES = ("fast", "general")
BOTH, GENERAL = SEARCHES, ("general",)

#: The options, in the order of ``Rules``' fields (and of a rule set's JSON).
REGISTRY = Registry(
    options=(
        Option(
            "strict_win", False, (False, True), (Letter(True, "S", "`strict_win`", "«victoria estricta»: stock and waste must be cleared too"),),
            sentence="«Victoria estricta: La pirámide, el mazo y la pila de descarte están todos vacíos» (003)",
            description="«Victoria estricta»: stock and waste must be cleared too.",
            meaning="true: the game is won only when stock and waste are emptied too (003)",
            capability="option-strict-win", searches=BOTH, always_written=True,
        ),
        Option(
            "max_recycles", None, (), (),
            sentence="«pasadas limitadas» (000): n recycles, n + 1 passes",
            description="«Pasadas limitadas»: at most this many recycles; null = unlimited (the app).",
            code_value="`max_recycles = n`",
            variant="«pasadas limitadas»: at most n recycles (n + 1 passes); absent = unlimited",
            meaning="null: the waste goes back to the stock without limit (000 #34); a number limits the passes",
            capability="option-max-recycles", searches=BOTH, always_written=True, limit=9999, fuzz_values=(None, 0, 1, 2),
        ),
        Option(
            "drawn_pairs_with_waste", False, (False, True), (Letter(True, "D", "`drawn_pairs_with_waste`", "«mazo contra descarte»: the waste top may pair with the waste card it covers"),),
            sentence="«mazo contra descarte»: «la carta que se acaba de robar» pairs with the waste card it covers",
            description="«Mazo contra descarte»: the card just drawn may pair with the waste card it was drawn onto "
            "(until another card is drawn onto it).",
            meaning="true: the card just drawn may pair with the waste card it covers (000 #35 says no)",
            capability="option-drawn-pairs-with-waste", searches=BOTH, always_written=True,
        ),
        Option(
            "pair_with_covering", False, (False, True), (Letter(True, "C", "`pair_with_covering`", "«carta y carta que la cubre»: a card may pair with the single card still covering it"),),
            sentence=f"«carta y carta que la cubre», where the app says {_COVERING}",
            description="«Carta y carta que la cubre»: a card may pair with the single card still covering it.",
            meaning="true: a card may pair with the one card still covering it (000 #58 says no)",
            capability="option-pair-with-covering", searches=BOTH, always_written=True,
        ),
        Option(
            "initial_waste", True, (False, True), (Letter(False, "T", "`initial_waste = false`", "the traditional deal: 24-card stock, no card turned onto the waste"),),
            sentence="the traditional 24-card stock (003), where the app «da la vuelta a una carta y la coloca en el descarte»",
            description="One card turned onto the waste at the deal (23-card stock); false: 24-card stock.",
            meaning="false: the traditional deal, no waste card and 24 in the stock",
            capability="option-initial-waste", searches=BOTH, always_written=True,
        ),
        Option(
            "unlimited_undo", False, (False, True), (Letter(True, "U", "`unlimited_undo`", "004's «deshacer ilimitados»: undo back to the deal, each undo a move"),),
            sentence="«Puedes deshacer tantas veces como quieras [...] cada deshacer cuenta como un nuevo movimiento» (004)",
            description="The 004 app's unlimited undo, each undo counting as a move; written only when true. "
            "False: the last 100 actions may be undone, and undo is not a move.",
            meaning="true: 004's undo without limit, each undo counted as a move",
            capability="option-unlimited-undo", searches=BOTH,
        ),
        Option(
            "notify_unwinnable", False, (False, True), (Letter(True, "W", "`notify_unwinnable`", "004's «te notificará si ya no hay posibilidad de ganar»: the answers say when no win is left"),),
            sentence="«El juego te notificará si ya no hay posibilidad de ganar el juego» (004)",
            description="The 004 app's notice that no win is left: each new game and move answers an `outlook`, and a "
            "move that leaves the game unwinnable the event and feedback `no_win_left`; written only when true.",
            meaning="true: 004's notice that the game can no longer be won (needs a solver)",
            capability="option-notify-unwinnable", searches=BOTH,
        ),
        Option(
            "draw_count", 1, (1, 3), (Letter(3, "K", "`draw_count = 3`", "003's Tut's Tomb: «Se roban tres cartas a la vez del mazo en lugar de una»"),),
            sentence="Tut's Tomb: «Se roban tres cartas a la vez del mazo en lugar de una» (003)",
            description="How many cards a draw turns onto the waste: 1 (the app), or 3 (Tut's Tomb, 003: «Se roban tres "
            "cartas a la vez»; only the waste top is in play); written only when 3.",
            meaning="3: Tut's Tomb, three cards a draw",
            capability="variant-tuts-tomb", searches=GENERAL, shape=True,
        ),
        Option(
            "waste_piles", 1, (1, 3), (Letter(3, "A", "`waste_piles = 3`", "003's Apophis: three waste piles, the player choosing each card's pile (not with `D`)"),),
            sentence="Apophis: «Tres pilas de descarte en fila» (003)",
            description="How many waste piles: 1 (the app), or 3 (Apophis, 003: «Tres pilas de descarte en fila»; a "
            "draw names its pile, the top of each pile is in play; not with `drawn_pairs_with_waste`); written only when 3.",
            meaning="3: Apophis, three waste piles",
            capability="variant-apophis", searches=GENERAL, shape=True,
        ),
        Option(
            "rows", 7, (7, 10), (Letter(10, "P", "`rows = 10`", "003's Pharaoh: «un diseño triangular más grande (a menudo 10 filas)»: 55 cards, two decks"),),
            sentence="Pharaoh: «Reparte un diseño triangular más grande (a menudo 10 filas)» (003), two decks",
            description="How many rows the pyramid has: 7 (the app's 28 cards), or 10 (Pharaoh, 003: «un diseño triangular "
            "más grande (a menudo 10 filas)»: 55 cards, dealt from two decks); written only when 10.",
            meaning="10: Pharaoh, 10 rows from two decks",
            capability="variant-pharaoh", searches=GENERAL, shape=True,
        ),
        Option(
            "deck", "french", tuple(DECKS), (Letter("spanish", "E", '`deck = "spanish"`', "003's «Pirámide española»: the 48-card Spanish deck, pairs summing 12"),),
            sentence="«Pirámide española»: «mazo español de 48 cartas [...] las parejas suman 12» (003)",
            description="The deck: `french` (the app's 52 cards), or `spanish` (the Spanish pyramid, 003: 48 cards, 1 to 9, "
            "sota, caballo, rey; pairs sum 12, the rey goes alone); written only when `spanish`.",
            meaning='`"spanish"`: the 48-card Spanish deck, pairs summing 12',
            capability="variant-spanish", searches=GENERAL, shape=True,
        ),
    ),
    conflicts=(
        # With three piles the card drawn goes beside the card it would pair with, not onto it:
        # «mazo contra descarte» has nothing left to allow (docs/rules.md).
        Conflict(("waste_piles", "drawn_pairs_with_waste"), "drawn_pairs_with_waste", "the card drawn goes beside, not onto"),
    ),
    listing=(
        "waste_piles", "pair_with_covering", "drawn_pairs_with_waste", "strict_win", "initial_waste", "unlimited_undo",
        "notify_unwinnable", "draw_count", "deck", "rows", "max_recycles",
    ),  # fmt: skip
    presets=(
        Preset("pyramide", source="the Pyramide app's rules (000/002)"),
        Preset("strict", (("strict_win", True),), "«victoria estricta» (003)"),
        Preset(
            "traditional",
            (("strict_win", True), ("max_recycles", 0), ("drawn_pairs_with_waste", True), ("initial_waste", False)),
            "003's traditional strict game: one pass, 24-card stock, stock and waste tops both in play",
        ),
        Preset("relaxed-one-pass", (("max_recycles", 0), ("drawn_pairs_with_waste", True), ("initial_waste", False))),
        Preset("relaxed-three-passes", (("max_recycles", 2), ("drawn_pairs_with_waste", True), ("initial_waste", False))),
        # 004: «En esta versión, puedes restablecer el stock tantas veces como quieras»; a 24-card
        # stock and nothing on the waste at the deal; unlimited undo, each undo a move; the game says
        # when no win is left.
        Preset("unlimited-undo", (("initial_waste", False), ("unlimited_undo", True), ("notify_unwinnable", True)), "004"),
        # 003's Tut's Tomb / King Tut: «Se roban tres cartas a la vez del mazo en lugar de una; se forman
        # parejas de suma 13 a medida que aparecen», on the traditional deal and pairing (a 24-card
        # stock, the card just drawn pairs with the waste card beneath it), relaxed victory, and
        # unlimited passes as in PySolFC's King Tut.
        Preset("tuts-tomb", (("drawn_pairs_with_waste", True), ("initial_waste", False), ("draw_count", 3)), "003"),
        # 003's Apophis: «Tres pilas de descarte en fila; las cartas del mazo pueden colocarse en
        # cualquiera de las tres pilas, y la carta superior de cualquiera de ellas puede emparejarse»,
        # on the traditional 24-card stock, relaxed victory, and three passes as in PySolFC's Apophis.
        Preset("apophis", (("initial_waste", False), ("waste_piles", 3), ("max_recycles", 2)), "003"),
        # 003's Pharaoh / Triangle: «Reparte un diseño triangular más grande (a menudo 10 filas) para una
        # partida más larga y difícil»: 10 rows, 55 cards, two decks; the app's rules otherwise.
        Preset("pharaoh", (("rows", 10),), "003"),
        # 003's «Pirámide española»: «Usa un mazo español de 48 cartas [...]; los valores de las parejas
        # suman 12 en lugar de 13 y los Reyes siguen retirándose solos»; the app's rules otherwise.
        Preset("spanish", (("deck", "spanish"),), "003"),
    ),
)

_ACTIVE = [REGISTRY]


def active() -> Registry:
    """The registry in force: :data:`REGISTRY`, unless a test swapped it (:func:`use`)."""
    return _ACTIVE[0]


def use(registry: Registry) -> Registry:
    """Put ``registry`` in force (tests only: before the API builds its models); the one before."""
    before, _ACTIVE[0] = _ACTIVE[0], registry
    return before


# -- What is derived from it ----------------------------------------------------------------------


@dataclass(frozen=True)
class Letters:
    """How a deal code's rules segment is written under a registry."""

    #: Each letter, alphabetical, with the option and the value it names.
    named: tuple[tuple[str, str, Any], ...]
    #: The digits' option (the recycle limit) and how many digits it may take.
    digits: tuple[str, int] | None
    #: The letters as the messages list them: ``A C D E K P S T U W``.
    listed: str = field(init=False)
    pattern: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "listed", " ".join(letter for letter, _, _ in self.named))
        groups = "".join(f"({letter}?)" for letter, _, _ in self.named)
        number = "" if self.digits is None else f"(0|[1-9][0-9]{{0,{self.digits[1] - 1}}})?"
        object.__setattr__(self, "pattern", f"^(?:N|{groups}{number})$")


def segment_letters(registry: Registry) -> Letters:
    named = sorted((named.letter, option.name, named.value) for option in registry.options for named in option.letters)
    if len({letter for letter, _, _ in named}) != len(named) or any(letter == "N" for letter, _, _ in named):
        raise ValueError("each value's letter must be its own, and not N (the app's rules)")
    limit = next((option for option in registry.options if option.limit is not None), None)
    return Letters(tuple(named), None if limit is None else (limit.name, len(str(limit.limit))))


letters = lru_cache(maxsize=8)(segment_letters)


def listed_letters(registry: Registry) -> dict[str, str]:
    """Each option and how a code's segment writes it: its letter (its letters, comma-separated,
    for an option with several values besides its default), or the range of its digits."""
    order = {name: index for index, name in enumerate(registry.listing)}
    listed = sorted(registry.options, key=lambda option: order.get(option.name, len(order)))
    return {
        option.name: ", ".join(named.letter for named in option.letters) if option.letters else f"0-{option.limit}"
        for option in listed
    }


# (cached apart from the functions, so that mutation testing reaches them: mutmut does not mutate
# decorated functions; scripts/mutate.py empties the caches before each scenario)
option_letters = lru_cache(maxsize=8)(listed_letters)


def option_allows(option: Option, value: object) -> bool:
    """Whether ``value`` is one of the option's: a bool for a flag; ``None`` or a whole number up to
    the limit for a limit; one of its values otherwise (never a bool: ``True == 1``)."""
    if option.limit is not None:
        return value is None or (isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= option.limit)
    if option.is_flag:
        return isinstance(value, bool)
    return not isinstance(value, bool) and value in option.values


def checking_order(registry: Registry) -> tuple[Option, ...]:
    """The options in the order ``Rules`` checks them: the on/off ones first, then the others (the
    field an error names when several are wrong)."""
    return tuple(sorted(registry.options, key=lambda option: not option.is_flag))


validation_order = lru_cache(maxsize=8)(checking_order)


def conflict_defaults(registry: Registry) -> tuple[tuple[Conflict, tuple[tuple[str, Any], ...]], ...]:
    """Each conflict with its options' defaults."""
    return tuple(
        (conflict, tuple((name, registry.option(name).default) for name in conflict.options))
        for conflict in registry.conflicts
    )


conflicts_of = lru_cache(maxsize=8)(conflict_defaults)


def shapes(registry: Registry) -> Iterator[Shape]:  # pragma: no mutate block (runs at import only: docs/mutation.md)
    """Every shape the options allow (the API's models read their bounds from them at import)."""
    names = [option.name for option in registry.options if option.shape]
    for values in itertools.product(*(registry.option(name).values for name in names)):
        chosen = dict(zip(names, values))
        yield Shape(
            deck=DECKS[chosen.get("deck", "french")],
            rows=chosen.get("rows", 7),
            waste_piles=chosen.get("waste_piles", 1),
            draw_count=chosen.get("draw_count", 1),
        )


def conflicting(registry: Registry, values: dict[str, Any]) -> Conflict | None:
    """The first conflict ``values`` (every option's value) fall into, if any."""
    for conflict in registry.conflicts:
        if all(values[name] != registry.option(name).default for name in conflict.options):
            return conflict
    return None


def rule_sets(registry: Registry) -> Iterator[dict[str, Any]]:
    """Every combination of the options' values (a limit's ``fuzz_values``) that composes, as
    keyword arguments of ``Rules``: the on/off options first, as the fuzz oracle deals them."""
    ordered = sorted(registry.options, key=lambda option: (not option.is_flag, option.limit is not None))
    choices = [option.fuzz_values if option.limit is not None else option.values for option in ordered]
    for values in itertools.product(*choices):
        chosen = dict(zip((option.name for option in ordered), values))
        if conflicting(registry, chosen) is None:
            yield chosen


def _json(value: object) -> str:
    return "null" if value is None else "true" if value is True else "false" if value is False else (
        f'"{value}"' if isinstance(value, str) else str(value)
    )


def letter_table(registry: Registry) -> str:
    """docs/deal-codes.md's table of the rules segment: each letter, then the digits."""
    lines = ["| letter | rules option | the variant in the documents |", "|---|---|---|"]
    for letter, name, value in letters(registry).named:
        named = next(named for named in registry.option(name).letters if named.value == value)
        lines.append(f"| `{letter}` | {named.code_value} | {named.variant} |")
    for option in registry.options:
        if option.limit is not None:
            lines.append(f"| digits | {option.code_value} | {option.variant} |")
    return "\n".join(lines)


def keys_table(registry: Registry) -> str:
    """docs/conformance.md's table of the ``rules`` keys an adapter is sent."""
    lines = ["| key | default | meaning | capability |", "|---|---|---|---|"]
    for option in registry.options:
        lines.append(f"| `{option.name}` | `{_json(option.default)}` | {option.meaning} | `{option.capability}` |")
    return "\n".join(lines)
