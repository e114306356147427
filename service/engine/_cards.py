"""Cards: 52 of them, no jokers.

«Se juega con una baraja de 52 cartas, sin comodines.»
«El as vale 1, la jota 11, la reina 12 y las demás cartas su número.» A King is worth 13.
«El palo no importa.»

A card's canonical code is two characters, rank then suit: ranks ``A23456789TJQK``, suits ``CDHS``
(clubs, diamonds, hearts, spades). On input ``10`` is accepted for ``T`` and the suit symbols
``♣♦♥♠`` for the suit letters.
"""

from __future__ import annotations

from ._errors import InvalidMoveError

RANKS = "A23456789TJQK"
SUITS = "CDHS"
KING = 13
PAIR_SUM = 13

_SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


class Card:
    """One playing card; ``value`` is what counts for the sum of 13.

    There are exactly 52 instances: ``Card(7, "D")`` and ``Card.parse("7D")`` are the same object,
    so cards compare by identity (fast) and hash by their canonical index (deterministic).
    """

    __slots__ = ("rank", "suit", "value", "code", "index", "is_king")
    rank: int  # 1 (ace) … 13 (king)
    suit: str  # one of SUITS
    value: int
    code: str
    index: int  # position in the canonical deck order: clubs A…K, diamonds, hearts, spades
    is_king: bool

    def __new__(cls, rank: int, suit: str) -> Card:
        valid = isinstance(rank, int) and 1 <= rank <= 13 and isinstance(suit, str)
        card = _BY_CODE.get(RANKS[rank - 1] + suit) if valid else None
        if card is None:
            raise InvalidMoveError("unknown_card", card=f"{rank}{suit}"[:16])
        return card

    @classmethod
    def _make(cls, rank: int, suit: str) -> Card:  # pragma: no mutate block (runs at import only: docs/mutation.md)
        card = object.__new__(cls)
        for name, value in (
            ("rank", rank),
            ("suit", suit),
            ("value", rank),
            ("code", RANKS[rank - 1] + suit),
            ("index", SUITS.index(suit) * 13 + rank - 1),
            ("is_king", rank == KING),
        ):
            object.__setattr__(card, name, value)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self):
        return (Card.parse, (self.code,))

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
_BY_CODE: dict[str, Card] = {}
DECK: tuple[Card, ...] = tuple(Card._make(rank, suit) for suit in SUITS for rank in range(1, 14))
_BY_CODE.update((card.code, card) for card in DECK)


def sums_to_13(a: Card, b: Card) -> bool:
    """«Si sus valores suman 13, se retiran las dos.»"""
    return a.value + b.value == PAIR_SUM
