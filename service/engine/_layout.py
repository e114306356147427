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

from ._cards import DECK, Card
from ._errors import InvalidMoveError, PyramideError
from ._rules import Rules

ROWS = 7
SLOTS = ROWS * (ROWS + 1) // 2  # 28

#: (row, position) of each slot, both from 1.
POSITION: tuple[tuple[int, int], ...] = tuple(
    (row, pos) for row in range(1, ROWS + 1) for pos in range(1, row + 1)
)
_SLOT_OF = {position: slot for slot, position in enumerate(POSITION)}


def slot_at(row: int, pos: int) -> int:
    return _SLOT_OF[(row, pos)]


#: The slots that cover each slot (none for the bottom row).
COVERED_BY: tuple[tuple[int, ...], ...] = tuple(
    () if row == ROWS else (slot_at(row + 1, pos), slot_at(row + 1, pos + 1)) for row, pos in POSITION
)
#: The slots each slot covers (the inverse of COVERED_BY).
COVERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(other for other in range(SLOTS) if slot in COVERED_BY[other]) for slot in range(SLOTS)
)
#: The slots of each row, top row first.
ROW_SLOTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(slot_at(row, pos) for pos in range(1, row + 1)) for row in range(1, ROWS + 1)
)


def slot_name(slot: int) -> str:
    row, pos = POSITION[slot]
    return f"{row}.{pos}"


def parse_slot(name: str) -> int:
    row, _, pos = name.partition(".")
    try:
        return _SLOT_OF[(int(row), int(pos))]
    except (KeyError, ValueError):
        raise ValueError(f"no pyramid slot {name!r}") from None


@dataclass(frozen=True, slots=True)
class Layout:
    """A deal: the 28 pyramid cards (slot order), the waste (top last), the stock (top first)."""

    pyramid: tuple[Card, ...]
    waste: tuple[Card, ...]
    stock: tuple[Card, ...]

    @property
    def deck(self) -> tuple[Card, ...]:
        """The deal as one sequence: pyramid, then waste, then stock from its top."""
        return self.pyramid + self.waste + self.stock

    @classmethod
    def from_deck(cls, deck: tuple[Card, ...] | list[Card], rules: Rules) -> Layout:
        """Deal a sequence of the 52 cards: 28 to the pyramid row by row, one to the waste when
        the rules turn one, the rest to the stock (the first of them on top)."""
        check_deck(deck, field="layout")
        waste = 1 if rules.initial_waste else 0
        return cls(tuple(deck[:SLOTS]), tuple(deck[SLOTS : SLOTS + waste]), tuple(deck[SLOTS + waste :]))

    def to_json(self) -> dict:
        rows = [[self.pyramid[slot].code for slot in slots] for slots in ROW_SLOTS]
        return {"pyramid": rows, "waste": [c.code for c in self.waste], "stock": [c.code for c in self.stock]}

    @classmethod
    def from_json(cls, data: dict) -> Layout:
        """Rows of the pyramid from the top, the waste (top last), the stock (top first)."""
        try:
            if [len(row) for row in data["pyramid"]] != [len(slots) for slots in ROW_SLOTS]:
                raise PyramideError("invalid_layout", detail="pyramid", field="layout.pyramid")
            return cls(
                pyramid=tuple(Card.parse(code) for row in data["pyramid"] for code in row),
                waste=tuple(Card.parse(code) for code in data.get("waste", [])),
                stock=tuple(Card.parse(code) for code in data["stock"]),
            )
        except (KeyError, TypeError, InvalidMoveError):
            raise PyramideError("invalid_layout", detail="shape", field="layout") from None

    def check(self, rules: Rules) -> None:
        """Raise ``invalid_layout`` unless this is a deal of all 52 cards under ``rules``."""
        if len(self.pyramid) != SLOTS:
            raise PyramideError("invalid_layout", detail="pyramid", field="layout.pyramid")
        if len(self.waste) != (1 if rules.initial_waste else 0):
            raise PyramideError(
                "invalid_layout", detail="waste", field="layout.waste", expected=1 if rules.initial_waste else 0
            )
        check_deck(self.deck, field="layout")


def check_deck(deck: tuple[Card, ...] | list[Card], *, field: str) -> None:
    """A deal uses each of the 52 cards exactly once."""
    seen: set[Card] = set()
    for card in deck:
        if card in seen:
            raise PyramideError("invalid_layout", detail="duplicate", field=field, card=card.code)
        seen.add(card)
    if len(seen) != len(DECK):
        missing = next(card for card in DECK if card not in seen)
        raise PyramideError("invalid_layout", detail="missing", field=field, card=missing.code)
