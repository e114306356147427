"""Cards and decks.

«Se juega con una baraja de 52 cartas, sin comodines.»
«El as vale 1, la jota 11, la reina 12 y las demás cartas su número.» A King is worth 13.
«El palo no importa.»

Two decks are data here (:class:`Deck`), not constants: the French deck of the app (000/002), and
the Spanish deck of 003's «Pirámide española» («mazo español de 48 cartas [...]; los valores de las
parejas suman 12 en lugar de 13 y los Reyes siguen retirándose solos»). Pharaoh's triangle needs two
copies of a deck (55 pyramid cards); the second copy of each card is a card of its own.

A card's code is unique across all decks and copies, so that a code alone names one card:

- French: rank ``A23456789TJQK`` then suit ``CDHS`` (clubs, diamonds, hearts, spades): ``7D``. On
  input ``10`` is accepted for ``T`` and the suit symbols ``♣♦♥♠`` for the suit letters.
- Spanish: rank ``123456789SCR`` (1 to 9, sota, caballo, rey) then suit ``OR``, ``CO``, ``ES``,
  ``BA`` (oros, copas, espadas, bastos): ``SOR`` is the sota de oros, ``7CO`` the 7 de copas. Two
  letters for the suit keep every Spanish code apart from every French one (``7C`` is a club).
- The second copy of a card, where a game deals two decks, ends in ``2``: ``7D2``, ``7CO2``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from ._errors import InvalidMoveError

RANKS = "A23456789TJQK"
SUITS = "CDHS"
PAIR_SUM = 13

_SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
#: The mark that ends the code of a card's second copy.
SECOND_COPY = "2"


@dataclass(frozen=True, eq=False)
class Deck:
    """One deck: its ranks (the code of each value from 1), its suits, and the sum a pair makes.
    The card worth the sum on its own (the King, the rey) is removed alone."""

    name: str
    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    #: «Si sus valores suman 13, se retiran las dos» (12 for the Spanish deck).
    pair_sum: int
    #: The catalogue keys of its cards' names: ``card`` (``card.rank.12``, ``card.suit.D``) or
    #: ``card.spanish`` (``card.spanish.rank.10``, ``card.spanish.suit.OR``).
    names: str = "card"
    #: The ranks named by a word in a description (the ace and the figures); the others by number.
    named: tuple[int, ...] = (1, 11, 12, 13)
    #: Each card, copy 1 then copy 2, in canonical order (suit by suit, each from the ace up): the
    #: engine's own decks only (``_deck``), whose cards are the ones a code names.
    copies: tuple[tuple[Card, ...], ...] = field(default=(), init=False, repr=False)

    def __len__(self) -> int:
        return len(self.ranks) * len(self.suits)

    def cards(self, copies: int = 1) -> tuple[Card, ...]:
        """The deck dealt from: ``copies`` copies of each card, copy 1 first."""
        return _dealt(self, copies)


class Card:
    """One playing card; ``value`` is what counts for the pair sum.

    Each card of each deck and copy is one instance: ``Card(7, "D")`` and ``Card.parse("7D")`` are
    the same object, so cards compare by identity (fast) and hash by their index (deterministic).
    """

    __slots__ = ("rank", "suit", "value", "code", "index", "is_king", "deck", "copy", "face")
    rank: int  # 1 (ace) … 13 (King); 1 … 12 (rey) in the Spanish deck
    suit: str  # one of the deck's suits
    value: int
    code: str
    index: int  # order of creation: the French deck's 52 first (clubs A…K, diamonds, hearts, spades)
    is_king: bool  # worth the pair sum alone: removed by itself
    deck: Deck
    copy: int  # 1, or 2 for a second deck's copy
    face: str  # the code without the copy mark: what the card shows

    def __new__(cls, rank: int, suit: str) -> Card:
        """A card of the French deck's first copy: ``Card(7, "D")``."""
        valid = isinstance(rank, int) and 1 <= rank <= 13 and isinstance(suit, str) and suit in SUITS
        card = _BY_CODE.get(RANKS[rank - 1] + suit) if valid else None
        if card is None:
            raise InvalidMoveError("unknown_card", card=f"{rank}{suit}"[:16])
        return card

    @classmethod
    def _make(cls, deck: Deck, rank: int, suit: str, copy: int) -> Card:  # pragma: no mutate block (runs at import only: docs/mutation.md)
        card = object.__new__(cls)
        face = deck.ranks[rank - 1] + suit
        for name, value in (
            ("rank", rank),
            ("suit", suit),
            ("value", rank),
            ("code", face + (SECOND_COPY if copy == 2 else "")),
            ("index", len(_CREATED)),
            ("is_king", rank == deck.pair_sum),
            ("deck", deck),
            ("copy", copy),
            ("face", face),
        ):
            object.__setattr__(card, name, value)
        _CREATED.append(card)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[Callable[[str], Card], tuple[str]]:
        return (Card.parse, (self.code,))

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card named by ``text`` (``"TC"``, ``"10C"``, ``"10♣"``, ``"7D2"``, ``"SOR"``);
        ``unknown_card`` otherwise."""
        card = _BY_CODE.get(text) if isinstance(text, str) else None
        if card is None and isinstance(text, str):
            raw = text.strip().upper()
            if raw[:2] == "10":
                raw = "T" + raw[2:]
            if len(raw) >= 2:
                card = _BY_CODE.get(raw[0] + _SUIT_SYMBOLS.get(raw[1], raw[1]) + raw[2:])
        if card is None:
            raise InvalidMoveError("unknown_card", card=str(text)[:16])
        return card


@lru_cache(maxsize=8)
def _dealt(deck: Deck, copies: int) -> tuple[Card, ...]:
    return tuple(card for cards in deck.copies[:copies] for card in cards)


_BY_CODE: dict[str, Card] = {}
_CREATED: list[Card] = []


def _deck(*args: object, **kwargs: object) -> Deck:  # pragma: no mutate block (runs at import only: docs/mutation.md)
    """One of the engine's decks, with its cards made once (each of its two copies) and named by
    their codes. Only the decks below are made so: a ``Deck`` made elsewhere holds no cards."""
    deck = Deck(*args, **kwargs)  # type: ignore[arg-type]
    copies = tuple(
        tuple(Card._make(deck, rank, suit, copy) for suit in deck.suits for rank in range(1, len(deck.ranks) + 1))
        for copy in (1, 2)
    )
    object.__setattr__(deck, "copies", copies)
    _BY_CODE.update((card.code, card) for cards in copies for card in cards)
    return deck


#: The app's deck (000/002).
FRENCH = _deck("french", tuple(RANKS), tuple(SUITS), PAIR_SUM)
#: 003's «Pirámide española»: 1 to 9, sota (10), caballo (11), rey (12); oros, copas, espadas,
#: bastos; pairs sum 12, the rey goes alone (docs/rules.md says why 48 cards, not 40).
SPANISH = _deck("spanish", tuple("123456789SCR"), ("OR", "CO", "ES", "BA"), 12, names="card.spanish", named=(1, 10, 11, 12))
DECKS: dict[str, Deck] = {deck.name: deck for deck in (FRENCH, SPANISH)}
#: The 52 cards of the app's deck in canonical order (clubs A…K, diamonds A…K, hearts A…K, spades A…K).
DECK: tuple[Card, ...] = FRENCH.cards()
#: Every card of every deck and copy, in index order: what a card code may name.
ALL_CARDS: tuple[Card, ...] = tuple(_CREATED)


def pairs(a: Card, b: Card) -> bool:
    """«Si sus valores suman 13, se retiran las dos» (12 in the Spanish deck)."""
    return a.value + b.value == a.deck.pair_sum
