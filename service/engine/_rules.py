"""The rule set: the Pyramide app's choices, and the documented variants as options that compose.

«Las decisiones de la app y la regla tradicional» (000) lists the app's choices; each option
switches one of them to the variant «la bibliografía también menciona», or changes the game's
shape (003's Tut's Tomb, Apophis, Pharaoh, «Pirámide española»). The options, their values, their
letters in a deal code, the sentences they implement and the presets are data: the registry in
``_options.py`` (docs/deal-codes.md's table is generated from it). This module derives from it
what a rule set does with them: its validation, its JSON, its deal-code segment.

A rule set is named in a deal code by its letters in alphabetical order then the recycle limit
(``DST0`` is the traditional strict game); the app's rules, with no variant, are ``N``.
``to_json`` always writes the first five options and a later one only when it is not its default,
so that the JSON of the rule sets that existed before it is unchanged, byte for byte.
"""

from __future__ import annotations

import re
from typing import Any
from dataclasses import dataclass
from functools import lru_cache

from . import _options
from ._cards import DECKS, Card
from ._errors import InvalidCodeError, PyramideError
from ._shape import Shape, slot_count

#: Each option and how a deal code's rules segment writes it (the registry's, ``_options``): its
#: letter, or for the recycle limit the range of its digits.
VARIANT_LETTERS = _options.option_letters(_options.REGISTRY)
#: How many rows the pyramid has: the app's 7, or Pharaoh's 10 (003).
ROW_COUNTS = _options.REGISTRY.option("rows").values


@dataclass(frozen=True, slots=True)
class Rules:
    """One rule set. The defaults are the Pyramide app's rules (000/002)."""

    #: «Victoria: basta con vaciar la pirámide, sin agotar el mazo»; True: stock and waste too.
    strict_win: bool = False
    #: «Reciclaje ilimitado» is None; a number limits how often the waste goes back to the stock.
    max_recycles: int | None = None
    #: «la carta robada no se empareja con la carta del descarte que cubre» is False; True lets «la
    #: carta que se acaba de robar» (the card just drawn, until another is drawn onto it) pair with
    #: the waste card it covers.
    drawn_pairs_with_waste: bool = False
    #: «una carta nunca se empareja con otra que todavía la cubre» is False; True lets a card pair
    #: with the single card still covering it.
    pair_with_covering: bool = False
    #: «da la vuelta a una carta y la coloca en el descarte» (23-card stock) is True; False deals
    #: the traditional 24-card stock with an empty waste.
    initial_waste: bool = True
    #: «El botón Deshacer permite deshacer las 100 últimas acciones [...]; el contador de
    #: movimientos, en cambio, no disminuye» is False; True is the 004 app's «Puedes deshacer tantas
    #: veces como quieras [...] cada deshacer cuenta como un nuevo movimiento».
    unlimited_undo: bool = False
    #: The 004 app's «El juego te notificará si ya no hay posibilidad de ganar el juego»: each move's
    #: answer says whether a win is still possible (the solver, within a bounded search).
    notify_unwinnable: bool = False
    #: «Robar del mazo: [...] voltee boca arriba la carta superior del mazo» is 1; Tut's Tomb's «Se
    #: roban tres cartas a la vez del mazo en lugar de una» (003) is 3.
    draw_count: int = 1
    #: One waste pile is 1; Apophis's «Tres pilas de descarte en fila; las cartas del mazo pueden
    #: colocarse en cualquiera de las tres pilas, y la carta superior de cualquiera de ellas puede
    #: emparejarse» (003) is 3.
    waste_piles: int = 1
    #: «Una pirámide de 28 cartas [...] de 7 filas» is 7; Pharaoh's «diseño triangular más grande (a
    #: menudo 10 filas)» (003) is 10: 55 cards, dealt from two decks.
    rows: int = 7
    #: «Se juega con una baraja de 52 cartas» is ``"french"``; the «Pirámide española»'s «mazo español
    #: de 48 cartas», pairs summing 12, is ``"spanish"`` (003).
    deck: str = "french"

    def __post_init__(self) -> None:
        registry = _options.active()
        for option in _options.validation_order(registry):
            if not _options.option_allows(option, getattr(self, option.name)):
                raise PyramideError("invalid_rules", field=f"rules.{option.name}", option=option.name)
        for conflict, defaults in _options.conflicts_of(registry):
            if all(getattr(self, name) != default for name, default in defaults):
                raise PyramideError("invalid_rules", field=f"rules.{conflict.blamed}", option=conflict.blamed)

    @property
    def shape(self) -> Shape:
        """The deck, the triangle, the piles: what the layout tables are computed from."""
        return _shape(self.deck, self.rows, self.waste_piles, self.draw_count)

    @property
    def stock_size(self) -> int:
        return stock_size(self)

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card dealt: each card of the deck, once or, under two decks, twice (copy 1 first)."""
        return self.shape.cards

    @property
    def copies(self) -> int:
        return self.shape.copies

    @property
    def slots(self) -> int:
        """How many cards the pyramid holds: 28 in 7 rows, 55 in 10."""
        return slot_count(self.rows)

    @property
    def letters(self) -> str:
        """The rule-set segment of a deal code: ``N``, or variant letters then the recycle limit."""
        return rules_letters(self)

    @classmethod
    def from_letters(cls, segment: str) -> Rules:
        return rules_from_letters(segment)

    @classmethod
    def preset(cls, name: object) -> Rules:
        """A named rule set of :data:`PRESETS`, its name exactly (``"tuts-tomb"``), as the API takes
        it; any other is ``unknown_rules``, whose message lists every name."""
        presets = presets_of(_options.active())
        if isinstance(name, str) and name in presets:
            return presets[name]
        # (a deal code's rules segment is not a name here: the message offers the names alone)
        raise PyramideError("unknown_rules", detail="preset", field="rules", name=str(name)[:32], presets=", ".join(presets))

    @classmethod
    def presets(cls) -> dict[str, Rules]:
        """The named rule sets of the registry in force (:func:`~._options.active`), in its order,
        as ``GET /v1/rules`` lists them: :data:`PRESETS`, unless a test swapped the registry."""
        return presets_of(_options.active())

    @classmethod
    def named(cls, text: str) -> Rules:
        """A preset's name (``traditional``), or a deal code's rules segment (``DST0``)."""
        presets = presets_of(_options.active())
        if text.strip().lower() in presets:
            return presets[text.strip().lower()]
        try:
            return cls.from_letters(text.strip().upper())
        except InvalidCodeError:
            raise _unknown(text) from None

    def to_json(self) -> dict[str, Any]:
        return rules_json(self)

    @classmethod
    def from_json(cls, data: object) -> Rules:
        if not isinstance(data, dict):
            raise PyramideError("invalid_rules", field="rules", option="rules")
        registry = _options.active()
        unknown = set(data) - set(registry.names)
        if unknown:
            raise PyramideError("invalid_rules", field=f"rules.{sorted(unknown)[0]}", option=sorted(unknown)[0])
        numbers = {option.name for option in registry.options if option.is_number}
        values: dict[str, Any] = {name: whole_number(value) if name in numbers else value for name, value in data.items()}
        return cls(**values)


def _unknown(name: object) -> PyramideError:
    registry = _options.active()
    return PyramideError(
        "unknown_rules", field="rules", name=str(name)[:32], presets=", ".join(presets_of(registry)),
        letters=_options.letters(registry).listed,
    )  # fmt: skip


@lru_cache(maxsize=64)
def _shape(deck: str, rows: int, waste_piles: int, draw_count: int) -> Shape:
    return Shape(DECKS[deck], rows, waste_piles, draw_count)


# Plain functions behind the properties above, so that mutation testing reaches them (mutmut does
# not mutate decorated functions).
def stock_size(rules: Rules) -> int:
    """«23 cartas» in the stock with one card turned onto the waste; the traditional 24 without.
    What the pyramid and the waste leave of the deck (or decks) otherwise."""
    return len(rules.cards) - rules.slots - (1 if rules.initial_waste else 0)


def rules_letters(rules: Rules) -> str:
    """Each option that is not the app's, by its letter in alphabetical order, then the limit."""
    segment = _options.letters(_options.active())
    text = "".join(letter for letter, name, value in segment.named if getattr(rules, name) == value)
    if segment.digits is not None and getattr(rules, segment.digits[0]) is not None:
        text += str(getattr(rules, segment.digits[0]))
    return text or "N"


def rules_from_letters(segment: str) -> Rules:
    """The rule set a code's segment names: ``N``, or letters (each naming one option's value, at
    most one per option) then digits; ``invalid_code`` otherwise, listing the letters."""
    letters = _options.letters(_options.active())
    match = _segment(letters.pattern).match(segment)
    if match is None or not segment:
        raise InvalidCodeError("rules", segment=segment[:16], letters=letters.listed)
    if segment == "N":
        return Rules()
    chosen: dict[str, object] = {}
    for (_, name, value), present in zip(letters.named, match.groups()):
        if present:
            if name in chosen:  # two values of one option: no rule set
                raise InvalidCodeError("rules", segment=segment[:16], letters=letters.listed)
            chosen[name] = value
    if letters.digits is not None and match.groups()[-1] is not None:
        chosen[letters.digits[0]] = int(match.groups()[-1])
    try:
        return Rules(**chosen)  # type: ignore[arg-type]
    except PyramideError:  # letters that do not compose (AD): no rule set
        raise InvalidCodeError("rules", segment=segment[:16], letters=letters.listed) from None


@lru_cache(maxsize=8)
def _segment(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def rules_json(rules: Rules) -> dict[str, Any]:
    """The options written always, then each later one only when it is not its default."""
    return {
        option.name: getattr(rules, option.name)
        for option in _options.active().options
        if option.always_written or getattr(rules, option.name) != option.default
    }


def whole_number(value: object) -> object:
    """JSON has one number type: 2.0 read from JSON is the integer 2."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def named_rule_sets(registry: _options.Registry) -> dict[str, Rules]:
    """The named rule sets of a registry, in its order."""
    return {preset.name: Rules(**dict(preset.options)) for preset in registry.presets}


presets_of = lru_cache(maxsize=8)(named_rule_sets)  # (apart, so that mutation testing reaches it)


#: The rule sets with a name, as ``GET /v1/rules`` lists them (the registry's presets).
PRESETS: dict[str, Rules] = presets_of(_options.REGISTRY)
