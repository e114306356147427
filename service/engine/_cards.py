"""Cards: 52 of them, no jokers.

«Se juega con una baraja de 52 cartas, sin comodines.»
«El as vale 1, la jota 11, la reina 12 y las demás cartas su número.» A King is worth 13.
«El palo no importa.»

A card's canonical code is two characters, rank then suit: ranks ``A23456789TJQK``, suits ``CDHS``
(clubs, diamonds, hearts, spades). On input ``10`` is accepted for ``T`` and the suit symbols
``♣♦♥♠`` for the suit letters.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._errors import InvalidMoveError

RANKS = "A23456789TJQK"
SUITS = "CDHS"
KING = 13
PAIR_SUM = 13

_SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. ``value`` is what counts for the sum of 13."""

    rank: int  # 1 (ace) … 13 (king)
    suit: str  # one of SUITS

    @property
    def value(self) -> int:
        return self.rank

    @property
    def code(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    @property
    def index(self) -> int:
        """Position in the canonical deck order: clubs A…K, diamonds, hearts, spades."""
        return SUITS.index(self.suit) * 13 + self.rank - 1

    @property
    def is_king(self) -> bool:
        return self.rank == KING

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card named by ``text`` (``"TC"``, ``"10C"``, ``"10♣"``); ``unknown_card`` otherwise."""
        card = _BY_CODE.get(text) if isinstance(text, str) else None
        if card is None and isinstance(text, str):
            raw = text.strip().upper()
            if raw[:2] == "10":
                raw = "T" + raw[2:]
            if len(raw) == 2:
                card = _BY_CODE.get(raw[0] + _SUIT_SYMBOLS.get(raw[1], raw[1]))
        if card is None:
            raise InvalidMoveError("unknown_card", card=str(text)[:16])
        return card


#: The 52 cards in canonical order (clubs A…K, diamonds A…K, hearts A…K, spades A…K).
DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
_BY_CODE = {card.code: card for card in DECK}


def sums_to_13(a: Card, b: Card) -> bool:
    """«Si sus valores suman 13, se retiran las dos.»"""
    return a.value + b.value == PAIR_SUM
