"""The game's shape: the deck, the triangle, the piles. Data, not constants.

«Una pirámide de 28 cartas [...] de 7 filas: 1 carta en la cima, luego 2, 3 y así sucesivamente»;
«Cada carta está parcialmente cubierta por dos cartas de la fila de debajo» (000). 003's variants
change the shape, not the rules of a move: Pharaoh's 10 rows from two decks, the Spanish deck's 48
cards summing 12, Apophis's three waste piles, Tut's Tomb's three cards a draw.

A :class:`Shape` is carried by the rules (``Rules.shape``); the layout tables of a triangle of
``rows`` rows (which slots cover which, the slots of each row) are computed from the number of
rows the first time a shape of that size asks, and kept. Slots are numbered row by row from the
top, left to right; slot (row r, position i), both from 1, is covered by (r+1, i) and (r+1, i+1).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from ._cards import Card, Deck


T = TypeVar("T")


def slot_count(rows: int) -> int:
    """How many cards a triangle of ``rows`` rows holds: 28 in 7 rows, 55 in 10."""
    return rows * (rows + 1) // 2


def slot_of(row: int, pos: int) -> int:
    """The slot of (row, position), both from 1, in any triangle that has that row."""
    return slot_count(row - 1) + pos - 1


@lru_cache(maxsize=None)
def positions(rows: int) -> tuple[tuple[int, int], ...]:
    """(row, position) of each slot, both from 1; a smaller triangle is the first slots of a larger."""
    return tuple((row, pos) for row in range(1, rows + 1) for pos in range(1, row + 1))


@lru_cache(maxsize=None)
def covered_by(rows: int) -> tuple[tuple[int, ...], ...]:
    """The slots that cover each slot of a triangle of ``rows`` rows (none for its bottom row)."""
    return tuple(
        () if row == rows else (slot_of(row + 1, pos), slot_of(row + 1, pos + 1)) for row, pos in positions(rows)
    )


@lru_cache(maxsize=None)
def covering_masks(rows: int) -> tuple[int, ...]:
    """For each slot of a triangle of ``rows`` rows, the mask of every slot covering it, directly
    or through others: the cards that must all go before it is free."""
    cover = covered_by(rows)
    masks = []
    for slot in range(len(cover)):
        mask, todo = 0, list(cover[slot])
        while todo:
            other = todo.pop()
            if not mask >> other & 1:
                mask |= 1 << other
                todo.extend(cover[other])
        masks.append(mask)
    return tuple(masks)


@lru_cache(maxsize=None)
def row_slots(rows: int) -> tuple[tuple[int, ...], ...]:
    """The slots of each row of a triangle of ``rows`` rows, top row first."""
    return tuple(tuple(slot_of(row, pos) for pos in range(1, row + 1)) for row in range(1, rows + 1))


def rows_of(slots: int) -> int:
    """The rows of the triangle of ``slots`` cards; ``KeyError`` for a number no triangle holds."""
    rows = 0
    while slot_count(rows) < slots:
        rows += 1
    if slot_count(rows) != slots:
        raise KeyError(slots)
    return rows


class BySlots(dict[int, T]):
    """A table of each triangle, by its number of slots (28, 55, …), made the first time it is asked
    for: ``COVERED_BY_SLOTS[len(pyramid)]`` serves any triangle the rules may deal."""

    def __init__(self, table: Callable[[int], T]) -> None:
        super().__init__()
        self._table = table

    def __missing__(self, slots: int) -> T:
        value = self[slots] = self._table(rows_of(slots))
        return value

    def __contains__(self, slots: object) -> bool:
        """Whether a triangle holds ``slots`` cards (its table is made then)."""
        try:
            self[slots]  # type: ignore[index]  # (any object may be asked about: not one is a KeyError)
        except (KeyError, TypeError):
            return False
        return True


#: ``covered_by`` by a triangle's number of slots: the table of what has a pyramid and not its rules
#: (``_play.is_free``, asked at every free card: a look-up, not a Shape made each time).
COVERED_BY_SLOTS: dict[int, tuple[tuple[int, ...], ...]] = BySlots(covered_by)


@dataclass(frozen=True)
class Shape:
    """The deck (with its pair sum and the card removed alone), the triangle's rows, the waste piles
    and how many cards a draw turns. Two rule sets of one shape deal and lay out alike."""

    deck: Deck
    rows: int = 7
    waste_piles: int = 1
    draw_count: int = 1

    @property
    def slots(self) -> int:
        """How many cards the pyramid holds: 28 in 7 rows, 55 in 10."""
        return slot_count(self.rows)

    @property
    def copies(self) -> int:
        """One deck, or two when the pyramid alone takes as many cards as one deck holds, or more:
        Pharaoh's 55 cards need two 52-card decks (docs/rules.md)."""
        return deck_copies(self)

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card dealt: each card of the deck, once or, under two decks, twice (copy 1 first)."""
        return self.deck.cards(self.copies)

    @property
    def pair_sum(self) -> int:
        """«Si sus valores suman 13, se retiran las dos» (12 for the Spanish deck)."""
        return self.deck.pair_sum

    @property
    def lone_rank(self) -> int:
        """The rank removed alone: the one worth the pair sum by itself (the King, the rey)."""
        return self.deck.pair_sum

    @property
    def covered_by(self) -> tuple[tuple[int, ...], ...]:
        return covered_by(self.rows)

    @property
    def row_slots(self) -> tuple[tuple[int, ...], ...]:
        return row_slots(self.rows)


def deck_copies(shape: Shape) -> int:
    """(A plain function, so that mutation testing reaches it: mutmut skips decorated functions.)"""
    return 1 if shape.slots < len(shape.deck) else 2
