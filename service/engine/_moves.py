"""Moves (what a player asks for) and actions (what the undo history remembers).

A :class:`Move` has a text form that round-trips, like a UCI string in python-chess:

=================  ==========================================
``TC+3S``          pair: remove two cards whose values sum 13
``KD``             king: remove a King alone
``draw``           turn the stock's top card onto the waste
``draw@2``         Apophis: turn it onto waste pile 2 (of 1, 2, 3)
``recycle``        turn the waste back into the stock
``undo``           take back the last action
``tap:7S``         tap a card, as a player taps it in the app
``tap:stock``      tap the stock
``tap:waste2``     Apophis: tap waste pile 2 (to put the stock's card there)
=================  ==========================================

An :class:`Action` is one entry of the undo history: a pair or King with where each card came
from (``TC@7.2+3S@7.5``, ``KD@W``; ``W`` is the waste top, ``W2`` the card it covers), ``draw`` or
``recycle``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from functools import lru_cache

from ._cards import FRENCH, Card
from ._errors import InvalidMoveError
from ._layout import parse_slot, slot_name
from ._shape import Shape

MOVE_TYPES = ("pair", "king", "draw", "recycle", "undo", "tap")
_SIMPLE = ("draw", "recycle", "undo")
#: Apophis's three waste piles, as a draw or a tap names them.
WASTE_PILE_NAMES = ("waste1", "waste2", "waste3")
#: What a tap may name besides a card.
TAP_PILES = ("stock", *WASTE_PILE_NAMES)


@dataclass(frozen=True, slots=True)
class Move:
    type: str
    cards: tuple[Card, ...] = ()
    pile: str | None = None  # "stock" or "waste1"… for a tap on a pile; "waste1"… for a draw onto a pile

    # -- constructors ---------------------------------------------------------------------------
    @classmethod
    def pair(cls, a: Card | str, b: Card | str) -> Move:
        first, second = _card(a, "move.cards[0]"), _card(b, "move.cards[1]")
        if first == second:
            raise InvalidMoveError("same_card", field="move.cards", card=first.code)
        return cls("pair", tuple(sorted((first, second), key=lambda card: card.index)))

    @classmethod
    def king(cls, card: Card | str) -> Move:
        return cls("king", (_card(card, "move.card"),))

    @classmethod
    def draw(cls, pile: str | None = None) -> Move:
        """Turn the stock's top card onto the waste, or onto one of Apophis's piles (``"waste2"``)."""
        if pile is not None and pile not in WASTE_PILE_NAMES:
            raise InvalidMoveError("unknown_pile", field="move.pile")
        return cls("draw", pile=pile)

    @classmethod
    def recycle(cls) -> Move:
        return cls("recycle")

    @classmethod
    def undo(cls) -> Move:
        return cls("undo")

    @classmethod
    def tap(cls, card: Card | str) -> Move:
        return cls("tap", (_card(card, "move.card"),))

    @classmethod
    def tap_stock(cls) -> Move:
        return cls("tap", pile="stock")

    @classmethod
    def tap_pile(cls, pile: str) -> Move:
        """A tap on the stock (``"stock"``) or on one of Apophis's waste piles (``"waste2"``)."""
        if pile not in TAP_PILES:
            raise InvalidMoveError("unknown_pile", field="move.pile")
        return cls("tap", pile=pile)

    # -- text -----------------------------------------------------------------------------------
    def __str__(self) -> str:
        if self.type == "pair":
            return "+".join(card.code for card in self.cards)
        if self.type == "king":
            return self.cards[0].code
        if self.type == "tap":
            return "tap:" + (self.pile or self.cards[0].code)
        if self.type == "draw" and self.pile is not None:
            return "draw@" + self.pile[-1]
        return self.type

    @classmethod
    def from_text(cls, text: str) -> Move:
        if text in _SIMPLE:
            return cls(text)
        if text.startswith("draw@"):
            return cls.draw("waste" + text[5:])
        if text.startswith("tap:"):
            target = text[4:]
            return cls.tap_pile(target) if target in TAP_PILES else cls.tap(target)
        if "+" in text:
            a, _, b = text.partition("+")
            return cls.pair(a, b)
        return cls.king(text)

    def __repr__(self) -> str:
        return f"Move.from_text({str(self)!r})"

    # -- JSON -----------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        if self.type == "pair":
            return {"type": "pair", "cards": [card.code for card in self.cards]}
        if self.type == "king":
            return {"type": "king", "card": self.cards[0].code}
        if self.type == "tap":
            return {"type": "tap", "pile": self.pile} if self.pile else {"type": "tap", "card": self.cards[0].code}
        if self.type == "draw" and self.pile is not None:
            return {"type": "draw", "pile": self.pile}
        return {"type": self.type}

    @classmethod
    def from_json(cls, data: object) -> Move:
        if not isinstance(data, dict) or data.get("type") not in MOVE_TYPES:
            raise InvalidMoveError("unknown_move", field="move.type")
        kind = data["type"]
        if kind == "pair":
            cards = data.get("cards")
            if not isinstance(cards, list) or len(cards) != 2:
                raise InvalidMoveError("pair_needs_two_cards", field="move.cards")
            return cls.pair(cards[0], cards[1])
        if kind == "king":
            return cls.king(data.get("card"))  # type: ignore[arg-type]  # (anything a client sent: _card refuses it)
        if kind == "tap":
            if data.get("pile") in TAP_PILES and "card" not in data:
                return cls.tap_pile(data["pile"])
            if "pile" in data:
                raise InvalidMoveError("unknown_pile", field="move.pile")
            return cls.tap(data.get("card"))  # type: ignore[arg-type]  # (anything a client sent: _card refuses it)
        if kind == "draw" and "pile" in data:
            return cls.draw(data["pile"] if isinstance(data["pile"], str) else "")
        return cls(kind)


def _card(value: Card | str, field: str) -> Card:
    if isinstance(value, Card):
        return value
    try:
        return Card.parse(value)
    except InvalidMoveError as error:
        error.field = field
        raise


# Where a removed card came from: a pyramid slot 0…27, or the waste (Apophis: its pile 1), or the
# top of Apophis's waste pile 2 or 3.
WASTE_TOP = -1
WASTE_SECOND = -2
PILE_TOPS = (-3, -4)
_ORIGIN_TEXT = {WASTE_TOP: "W", WASTE_SECOND: "W2", PILE_TOPS[0]: "P2", PILE_TOPS[1]: "P3"}
_ORIGIN_OF_TEXT = {text: origin for origin, text in _ORIGIN_TEXT.items()}


def origin_text(origin: int) -> str:
    return _ORIGIN_TEXT.get(origin) or slot_name(origin)


@dataclass(frozen=True, slots=True)
class Action:
    """One entry of the undo history."""

    type: str  # "remove", "draw" or "recycle"
    removed: tuple[tuple[Card, int], ...] = ()  # (card, origin) for a removal
    drawn: int = 1  # how many cards a draw turned (up to three in Tut's Tomb)
    pile: int | None = None  # the waste pile a draw turned them onto, 1 to 3 (Apophis)
    sizes: tuple[int, ...] = ()  # how many cards each waste pile gave back to a recycle (Apophis)
    text: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        text = self.type
        if self.type == "draw":
            text += (f":{self.drawn}" if self.drawn != 1 else "") + (f"@{self.pile}" if self.pile else "")
        elif self.type == "recycle" and self.sizes:
            text += ":" + "/".join(str(size) for size in self.sizes)
        elif self.type == "remove":
            text = "+".join(f"{card.code}@{origin_text(origin)}" for card, origin in self.removed)
        object.__setattr__(self, "text", text)

    @property
    def points(self) -> int:
        return removal_points(self.removed)

    def move(self) -> Move:
        """The move that plays this action again: what the game's log records."""
        if self.type == "draw" and self.pile:
            return Move.draw(f"waste{self.pile}")
        if self.type != "remove":
            return Move(self.type)
        cards = [card for card, _ in self.removed]
        return Move.king(cards[0]) if len(cards) == 1 else Move.pair(*cards)

    def __repr__(self) -> str:
        return f"Action.from_text({str(self)!r})"

    def __str__(self) -> str:
        return self.text

    @classmethod
    def from_text(cls, text: object) -> Action:
        """Raises ValueError (with no detail) on anything but an action's text."""
        if not isinstance(text, str):
            raise ValueError("not an action")
        return _parse_action(text)

    @classmethod
    def _parse(cls, text: str) -> Action:
        if text in ("draw", "recycle"):
            return cls(text)
        draw = re.fullmatch(r"draw(?::([23]))?(?:@([123]))?", text)
        if draw:
            return cls("draw", drawn=int(draw[1] or 1), pile=int(draw[2]) if draw[2] else None)
        recycle = re.fullmatch(r"recycle:(\d+)/(\d+)/(\d+)", text)
        if recycle:
            return cls("recycle", sizes=tuple(int(size) for size in recycle.groups()))
        removed = []
        for part in text.split("+"):
            code, at, place = part.partition("@")
            if not at:
                raise ValueError("no origin")
            origin = _ORIGIN_OF_TEXT.get(place)
            if origin is None:
                origin = parse_slot(place)
            removed.append((Card.parse(code), origin))
        if not 1 <= len(removed) <= 2 or len({origin for _, origin in removed}) != len(removed):
            raise ValueError("bad removal")
        return cls("remove", tuple(removed))


_parse_action = lru_cache(maxsize=4096)(Action._parse)


def removal_points(removed: tuple[tuple[Card, int], ...]) -> int:
    """«Cada carta retirada de la pirámide da 10 puntos»; «una carta tomada del descarte no da puntos».
    «Robar y reciclar no cuestan puntos» (a draw or a recycle removes nothing). A plain function,
    not the property's body, so that mutation testing reaches the scoring rule."""
    return POINTS_PER_PYRAMID_CARD * sum(1 for _, origin in removed if origin >= 0)

POINTS_PER_PYRAMID_CARD = 10
assert Shape(FRENCH).slots * POINTS_PER_PYRAMID_CARD == 280  # the app's: «una partida ganada siempre vale 280 puntos»
