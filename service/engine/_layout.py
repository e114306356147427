"""The pyramid's geometry and the deal.

«La aplicación coloca 28 cartas en una pirámide de 7 filas: 1 carta en la cima, luego 2, 3 y así
sucesivamente hasta llegar a 7 cartas en la fila inferior. [...] Cada carta está parcialmente
cubierta por dos cartas de la fila de debajo. La aplicación da la vuelta a una carta y la coloca en
el descarte, y pone las 23 cartas restantes en el mazo, boca abajo.»

Slots are numbered 0…27 row by row, left to right; slot (row r, position i), both from 1, is covered
by (r+1, i) and (r+1, i+1). A slot is named ``"r.i"`` in text (``"7.6"`` is the sixth card of the
bottom row).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import _options
from ._cards import Card
from ._errors import InvalidMoveError, PyramideError
from ._rules import Rules
from ._shape import BySlots, positions
from ._shape import row_slots as _rows_slots
from ._shape import slot_of

#: The most rows a pyramid has (Pharaoh, 003): the tables below reach that far.
MAX_ROWS = max(_options.REGISTRY.option("rows").values)

#: (row, position) of each slot, both from 1, in the largest pyramid; a smaller one is its first slots.
POSITION: tuple[tuple[int, int], ...] = positions(MAX_ROWS)
_SLOT_OF = {position: slot for slot, position in enumerate(POSITION)}


def row_slots(slots: int) -> tuple[tuple[int, ...], ...]:
    """The slots of each row of a pyramid of ``slots`` cards, top row first."""
    return _ROW_SLOTS[slots]


_ROW_SLOTS: dict[int, tuple[tuple[int, ...], ...]] = BySlots(_rows_slots)


def slot_name(slot: int) -> str:
    row, pos = POSITION[slot] if slot < len(POSITION) else positions(_largest())[slot]
    return f"{row}.{pos}"


def parse_slot(name: str) -> int:
    row, _, pos = name.partition(".")
    try:
        slot = _SLOT_OF.get((int(row), int(pos)))
        if slot is None and 1 <= int(pos) <= int(row) <= _largest():  # (a triangle larger than Pharaoh's)
            slot = slot_of(int(row), int(pos))
        if slot is None:
            raise KeyError(name)
        return slot
    except (KeyError, ValueError):
        raise ValueError(f"no pyramid slot {name!r}") from None


def _largest() -> int:
    """The most rows a pyramid has under the registry in force."""
    return int(max(_options.active().option("rows").values))


@dataclass(frozen=True, slots=True)
class Layout:
    """A deal: the pyramid's cards (28, or Pharaoh's 55; slot order), the waste (top last), the stock
    (top first)."""

    pyramid: tuple[Card, ...]
    waste: tuple[Card, ...]
    stock: tuple[Card, ...]

    @property
    def deck(self) -> tuple[Card, ...]:
        """The deal as one sequence: pyramid, then waste, then stock from its top."""
        return self.pyramid + self.waste + self.stock

    @classmethod
    def from_deck(cls, deck: tuple[Card, ...] | list[Card], rules: Rules) -> Layout:
        """Deal a sequence of the deck's cards: 28 to the pyramid row by row (55 in Pharaoh's 10
        rows), one to the waste when the rules turn one, the rest to the stock (the first on top)."""
        check_deck(deck, rules, field="layout")
        slots, waste = rules.slots, (1 if rules.initial_waste else 0)
        return cls(tuple(deck[:slots]), tuple(deck[slots : slots + waste]), tuple(deck[slots + waste :]))

    def to_json(self) -> dict[str, Any]:
        rows = [[self.pyramid[slot].code for slot in slots] for slots in row_slots(len(self.pyramid))]
        return {"pyramid": rows, "waste": [c.code for c in self.waste], "stock": [c.code for c in self.stock]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Layout:
        """Rows of the pyramid from the top, the waste (top last), the stock (top first)."""
        try:
            lengths = [len(row) for row in data["pyramid"]]
            if lengths != list(range(1, len(lengths) + 1)) or len(lengths) not in _options.active().option("rows").values:
                raise PyramideError("invalid_layout", detail="pyramid", field="layout.pyramid")
            return cls(
                pyramid=tuple(Card.parse(code) for row in data["pyramid"] for code in row),
                waste=tuple(Card.parse(code) for code in data.get("waste", [])),
                stock=tuple(Card.parse(code) for code in data["stock"]),
            )
        except (KeyError, TypeError, InvalidMoveError):
            raise PyramideError("invalid_layout", detail="shape", field="layout") from None

    def check(self, rules: Rules) -> None:
        """Raise ``invalid_layout`` unless this is a deal of the whole deck (or decks) under ``rules``."""
        if len(self.pyramid) != rules.slots:
            raise PyramideError("invalid_layout", detail="pyramid", field="layout.pyramid")
        if len(self.waste) != (1 if rules.initial_waste else 0):
            raise PyramideError(
                "invalid_layout", detail="waste", field="layout.waste", expected=1 if rules.initial_waste else 0
            )
        check_deck(self.deck, rules, field="layout")


def check_deck(deck: tuple[Card, ...] | list[Card], rules: Rules, *, field: str) -> None:
    """A deal uses each card of the rules' deck (52 cards, the Spanish 48, or two decks) exactly
    once. Of a card's two copies, copy 1 is dealt first (pyramid row by row, waste, stock from its
    top), so that one deal has one code (docs/deal-codes.md)."""
    cards = rules.cards
    seen: set[Card] = set()
    for card in deck:
        if card in seen:
            raise PyramideError("invalid_layout", detail="duplicate", field=field, card=card.code)
        if card.copy == 2 and Card.parse(card.face) not in seen:
            raise PyramideError("invalid_layout", detail="copies", field=field, card=card.code)
        seen.add(card)
    if len(seen) != len(cards) or not seen.issubset(cards):
        stray = next((card for card in deck if card not in cards), None)
        if stray is not None:
            raise PyramideError("invalid_layout", detail="not_in_deck", field=field, card=stray.code)
        missing = next(card for card in cards if card not in seen)
        raise PyramideError("invalid_layout", detail="missing", field=field, card=missing.code)
