"""The game state: one immutable value holding all that is needed to go on playing.

Its JSON form (``docs/api.md`` shows it whole) is lossless: ``GameState.from_json(s.to_json()) == s``.
``from_json`` accepts only states some game can reach, and says precisely what is wrong otherwise.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from ._cards import KING, PAIR_SUM, Card, parse_many
from ._codes import layout_code, parse_code, random_code
from ._errors import InvalidMoveError, InvalidStateError, PyramideError
from ._layout import COVERED_BY, ROW_SLOTS, SLOTS, Layout, slot_name
from ._moves import POINTS_PER_PYRAMID_CARD, Action
from ._rules import Rules, whole_number

PLAYING, WON, BLOCKED = "playing", "won", "blocked"
#: «El botón Deshacer permite deshacer las 100 últimas acciones.»
UNDO_LIMIT = 100
_STATE_KEYS = (
    "rules", "code", "pyramid", "stock", "waste", "foundation", "score", "moves", "recycles",
    "selected", "error_help", "history", "status",
)  # fmt: skip


class GameState(NamedTuple):
    """Immutable (a named tuple: copies with changes are cheap, see :meth:`evolve`)."""

    rules: Rules
    #: The deal code: a seed code, or the full-layout code of an explicit deal.
    code: str
    #: 28 slots, row by row; None where the card has been removed.
    pyramid: tuple[Card | None, ...]
    #: Top card first: the next card a draw turns over.
    stock: tuple[Card, ...]
    #: Top card last: the only one in play.
    waste: tuple[Card, ...]
    #: The removed cards, in the order they were removed.
    foundation: tuple[Card, ...] = ()
    score: int = 0
    #: Removals, draws and recycles; undo never lowers it.
    moves: int = 0
    recycles: int = 0
    #: The card a first tap has selected (tap play).
    selected: Card | None = None
    #: The last actions, oldest first, at most UNDO_LIMIT.
    history: tuple[Action, ...] = ()
    #: The app's error-help setting: a tap on a covered card says why nothing happens.
    error_help: bool = True
    status: str = PLAYING

    def evolve(self, **changes: Any) -> GameState:
        """A copy with ``changes`` (``dataclasses.replace`` for this value)."""
        return self._replace(**changes)

    # -- new games ------------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        code: str | None = None,
        *,
        rules: Rules | None = None,
        layout: Layout | None = None,
        error_help: bool = True,
    ) -> GameState:
        """A game dealt from a code, from an explicit layout, or at random under ``rules``."""
        if code is not None and (layout is not None or rules is not None):
            raise PyramideError("conflicting_deal", field="code")
        if layout is not None:
            rules = rules or Rules()
            layout.check(rules)
            code = layout_code(rules, layout)
        elif code is None:
            code = random_code(rules or Rules())
        rules, layout, code = _deal(code)
        state = cls(
            rules=rules,
            code=code,
            pyramid=layout.pyramid,
            stock=layout.stock,
            waste=layout.waste,
            error_help=error_help,
        )
        from ._play import status_of

        return state.evolve(status=status_of(state))

    @property
    def layout(self) -> Layout:
        """The deal this game started from."""
        return _deal(self.code)[1]

    @property
    def pyramid_left(self) -> int:
        return sum(1 for card in self.pyramid if card is not None)

    @property
    def rows(self) -> tuple[tuple[Card | None, ...], ...]:
        return tuple(tuple(self.pyramid[slot] for slot in slots) for slots in ROW_SLOTS)

    # -- JSON -----------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "code": self.code,
            "pyramid": [[card.code if card else None for card in row] for row in self.rows],
            "stock": [card.code for card in self.stock],
            "waste": [card.code for card in self.waste],
            "foundation": [card.code for card in self.foundation],
            "score": self.score,
            "moves": self.moves,
            "recycles": self.recycles,
            "selected": self.selected.code if self.selected else None,
            "error_help": self.error_help,
            "history": [action.text for action in self.history],
            "status": self.status,
        }

    @classmethod
    def from_json(cls, data: object) -> GameState:
        """The state ``data`` describes, after checking that a game can reach it."""
        if not isinstance(data, dict):
            raise InvalidStateError("shape", field="state")
        for key in _STATE_KEYS:
            if key not in data:
                raise InvalidStateError("missing_field", field=f"state.{key}", name=key)
        try:
            rules = Rules.from_json(data["rules"])
        except PyramideError as error:
            raise InvalidStateError("rules", field=error.field and f"state.{error.field}") from None
        rows = data["pyramid"]
        if not isinstance(rows, list) or [len(row) if isinstance(row, list) else -1 for row in rows] != [
            len(slots) for slots in ROW_SLOTS
        ]:
            raise InvalidStateError("pyramid_shape", field="state.pyramid")
        try:
            pyramid = parse_many([code for row in rows for code in row])
        except (KeyError, TypeError):
            pyramid = tuple(
                None if code is None else _card(code, f"state.pyramid[{r}][{i}]")
                for r, row in enumerate(rows)
                for i, code in enumerate(row)
            )
        state = cls(
            rules=rules,
            code=_text(data["code"], "state.code"),
            pyramid=pyramid,
            stock=_cards(data["stock"], "state.stock"),
            waste=_cards(data["waste"], "state.waste"),
            foundation=_cards(data["foundation"], "state.foundation"),
            score=_count(data["score"], "state.score"),
            moves=_count(data["moves"], "state.moves"),
            recycles=_count(data["recycles"], "state.recycles"),
            selected=None if data["selected"] is None else _card(data["selected"], "state.selected"),
            history=_history(data["history"]),
            error_help=_flag(data["error_help"], "state.error_help"),
            status=_text(data["status"], "state.status"),
        )
        state.check()
        return state

    # -- validation -----------------------------------------------------------------------------
    def check(self) -> None:
        """Raise :class:`InvalidStateError` unless some game can reach this state."""
        try:
            code_rules, layout, canonical = _deal(self.code)
        except PyramideError:
            raise InvalidStateError("code", field="state.code") from None
        if canonical != self.code:
            raise InvalidStateError("code", field="state.code")
        if code_rules != self.rules:
            raise InvalidStateError("rules_mismatch", field="state.rules")
        _check_cards(self, layout)
        _check_pyramid(self)
        removed = SLOTS - self.pyramid_left
        if self.score != POINTS_PER_PYRAMID_CARD * removed:
            raise InvalidStateError("score", field="state.score", expected=POINTS_PER_PYRAMID_CARD * removed)
        if len(self.history) > UNDO_LIMIT:
            raise InvalidStateError("history_too_long", field="state.history", limit=UNDO_LIMIT)
        if self.moves < len(self.history):
            raise InvalidStateError("moves", field="state.moves")
        limit = self.rules.max_recycles
        if limit is not None and self.recycles > limit:
            raise InvalidStateError("recycles", field="state.recycles")
        from ._play import check_history, is_selectable, status_of

        check_history(self)
        if self.selected is not None and not is_selectable(self, self.selected):
            raise InvalidStateError("selected", field="state.selected", card=self.selected.code)
        expected = status_of(self)
        if self.status != expected:
            raise InvalidStateError("status", field="state.status", expected=expected)


@lru_cache(maxsize=4096)
def _deal(code: str) -> tuple[Rules, Layout, str]:
    return parse_code(code)


def _check_cards(state: GameState, layout: Layout) -> None:
    """Cards never move but from stock to waste and back, and to the foundation; so each pyramid
    slot holds the card dealt there or nothing, the waste then the stock keep the dealt order of
    those piles, less what was removed, and the foundation holds exactly all the rest."""
    for slot, (card, dealt_here) in enumerate(zip(state.pyramid, layout.pyramid)):
        if card is not None and card is not dealt_here:
            raise InvalidStateError("not_dealt_here", field="state.pyramid", card=card.code, slot=slot_name(slot))
    dealt = iter(layout.waste + layout.stock)
    for card in state.waste + state.stock:
        for other in dealt:
            if other is card:
                break
        else:
            raise InvalidStateError("pile_order", field="state.stock", card=card.code)
    in_play = {card for card in state.pyramid if card is not None}
    in_play.update(state.waste, state.stock)
    seen: set[Card] = set()
    for card in state.foundation:
        if card in in_play or card in seen:
            raise InvalidStateError("duplicate_card", field="state.foundation", card=card.code)
        seen.add(card)
    if len(seen) + len(in_play) != 52:
        missing = next(c for c in layout.deck if c not in seen and c not in in_play)
        raise InvalidStateError("missing_card", field="state.foundation", card=missing.code)
    i, cards = 0, state.foundation
    while i < len(cards):  # the foundation is a sequence of Kings and pairs summing 13
        if cards[i].rank == KING:
            i += 1
        elif i + 1 < len(cards) and cards[i].value + cards[i + 1].value == PAIR_SUM:
            i += 2
        else:
            raise InvalidStateError("foundation", field="state.foundation", card=cards[i].code)


def _check_pyramid(state: GameState) -> None:
    """A removed card was free: nothing can still cover an empty slot."""
    pyramid = state.pyramid
    for slot, card in enumerate(pyramid):
        if card is None:
            for cover in COVERED_BY[slot]:
                if pyramid[cover] is not None:
                    raise InvalidStateError(
                        "removed_while_covered",
                        field="state.pyramid",
                        slot=slot_name(slot),
                        card=pyramid[cover].code,
                    )


def _card(value: object, field: str) -> Card:
    try:
        return Card.parse(value)  # type: ignore[arg-type]
    except InvalidMoveError:
        raise InvalidStateError("card", field=field, card=str(value)[:16]) from None


def _cards(values: object, field: str) -> tuple[Card, ...]:
    if not isinstance(values, list):
        raise InvalidStateError("shape", field=field)
    if None not in values:
        try:
            return parse_many(values)  # type: ignore[return-value]
        except (KeyError, TypeError):
            pass
    return tuple(_card(value, f"{field}[{i}]") for i, value in enumerate(values))


def _count(value: object, field: str) -> int:
    value = whole_number(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidStateError("shape", field=field)
    return value


def _flag(value: object, field: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidStateError("shape", field=field)
    return value


def _text(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise InvalidStateError("shape", field=field)
    return value


def _history(values: object) -> tuple[Action, ...]:
    if not isinstance(values, list):
        raise InvalidStateError("shape", field="state.history")
    if len(values) > UNDO_LIMIT:
        raise InvalidStateError("history_too_long", field="state.history", limit=UNDO_LIMIT)
    actions = []
    for i, value in enumerate(values):
        try:
            actions.append(Action.from_text(value))
        except ValueError:
            raise InvalidStateError("history_entry", field=f"state.history[{i}]", entry=str(value)[:40]) from None
    return tuple(actions)
