"""The game state: one immutable value holding all that is needed to go on playing.

Its JSON form (``docs/api.md`` shows it whole) is lossless: ``GameState.from_json(s.to_json()) == s``.

A state is trusted for nothing but its deal code, its options and its log. The log holds every
action since the deal, undos included; ``from_json`` replays it from the deal and derives all the
rest (the cards' places, score, move counter, recycles, undo history, status). A field that
disagrees with the replay is refused, and so is a log with an illegal move: no state that no game
can reach is ever accepted, by construction (``docs/security.md``).

This module is the one home of that derivation: it plays through ``_play`` (``new`` asks the
status of a deal, ``from_json`` replays a log), and ``_play`` imports nothing of it, so that the
engine's imports have no circle (``tests/engine/test_imports.py``).
"""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from functools import lru_cache
from typing import Any, NamedTuple

from ._cards import Card
from ._codes import layout_code, parse_code, random_code
from ._errors import InvalidMoveError, InvalidStateError, PyramideError
from ._layout import Layout, row_slots
from ._moves import Action, Move
from ._play import is_selectable, replay, status_of
from ._rules import Rules
from ._status import BLOCKED, PLAYING, UNDO_LIMIT, WON  # noqa: F401 (named from here too)
#: The longest log a state may carry: far beyond any game played by hand, and a bound on the
#: work of replaying it (about 10 µs an action).
MAX_LOG = 10_000
#: What the log may record: what changes the cards (a tap is recorded as the pair, King, draw or
#: recycle it played).
LOGGED = ("pair", "king", "draw", "recycle", "undo")
_STATE_KEYS = (
    "rules", "code", "pyramid", "stock", "waste", "foundation", "score", "moves", "recycles",
    "selected", "error_help", "history", "log", "status",
)  # fmt: skip
#: Written, and read, only under rules with more than one waste pile (Apophis).
PILES_KEY = "piles"
#: The fields derived from the deal and the log: sent back, they must be what the replay gives.
DERIVED = ("pyramid", "stock", "waste", "foundation", "score", "moves", "recycles", "history", "status")


class GameState(NamedTuple):
    """Immutable (a named tuple: copies with changes are cheap, see :meth:`evolve`)."""

    rules: Rules
    #: The deal code: a seed code, the full-layout code of an explicit deal, or ``PY1-N-AAAAAAS``
    #: (the documents' deal, dealt from the app's code they show: ``docs/deal-codes.md``).
    code: str
    #: 28 slots (55 under Pharaoh's 10 rows), row by row; None where the card has been removed.
    pyramid: tuple[Card | None, ...]
    #: Top card first: the next card a draw turns over.
    stock: tuple[Card, ...]
    #: Top card last: the only one in play.
    waste: tuple[Card, ...]
    #: The removed cards, in the order they were removed.
    foundation: tuple[Card, ...] = ()
    score: int = 0
    #: Removals, draws and recycles; undo never lowers it (and counts as one under unlimited_undo).
    moves: int = 0
    recycles: int = 0
    #: The card a first tap has selected (tap play).
    selected: Card | None = None
    #: The actions that undo takes back, oldest first: the last UNDO_LIMIT (all under unlimited_undo).
    history: tuple[Action, ...] = ()
    #: The app's error-help setting: a tap on a covered card says why nothing happens.
    error_help: bool = True
    status: str = PLAYING
    #: Every action since the deal, undos included, as move texts (``TC+3S``, ``KD``, ``draw``,
    #: ``recycle``, ``undo``): what the rest is derived from.
    log: tuple[str, ...] = ()
    #: Apophis's waste piles 2 and 3 (``waste`` is its pile 1), each top card last; none otherwise.
    piles: tuple[tuple[Card, ...], ...] = ()

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
            piles=((),) * (rules.waste_piles - 1),
        )
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
        return tuple(tuple(self.pyramid[slot] for slot in slots) for slots in row_slots(len(self.pyramid)))

    # -- JSON -----------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        data = {
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
            "log": " ".join(self.log),
            "status": self.status,
        }
        if self.piles:
            data[PILES_KEY] = [[card.code for card in pile] for pile in self.piles]
        return data

    @classmethod
    def from_json(cls, data: object) -> GameState:
        """The state ``data`` describes, derived by replaying its log from its deal."""
        if not isinstance(data, dict):
            raise InvalidStateError("shape", field="state")
        unknown = sorted(set(data) - set(_STATE_KEYS) - {PILES_KEY})
        if unknown:
            raise InvalidStateError("shape", field=f"state.{unknown[0][:32]}")
        for key in _STATE_KEYS:
            if key not in data:
                raise InvalidStateError("missing_field", field=f"state.{key}", name=key)
        try:
            rules = Rules.from_json(data["rules"])
        except PyramideError as error:
            raise InvalidStateError("rules", field=error.field and f"state.{error.field}") from None
        code = _text(data["code"], "state.code")
        try:
            code_rules, _, canonical = _deal(code)
        except PyramideError:
            raise InvalidStateError("code", field="state.code") from None
        if canonical != code:
            raise InvalidStateError("code", field="state.code")
        if code_rules != rules:
            raise InvalidStateError("rules_mismatch", field="state.rules")
        if (PILES_KEY in data) != (rules.waste_piles > 1):  # written only under Apophis
            raise InvalidStateError("missing_field" if rules.waste_piles > 1 else "shape", field=f"state.{PILES_KEY}", name=PILES_KEY)
        if not isinstance(data["error_help"], bool):
            raise InvalidStateError("shape", field="state.error_help")
        if not isinstance(data["log"], str):
            raise InvalidStateError("shape", field="state.log")
        done, start = _REPLAYS.longest_prefix(code, data["log"])  # (a remembered log was read whole)
        rest = _log(data["log"], done)
        result = replay(start or cls.new(code), rest)
        if result.refused is not None:
            played = done + result.played
            raise InvalidStateError("log_illegal", field="state.log", index=played, move=str(rest[result.played]), reason=result.refused)
        state = result.state.evolve(error_help=data["error_help"])
        derived = state.to_json()
        for key in DERIVED + ((PILES_KEY,) if state.piles else ()):
            if not _same(data[key], derived[key]):
                raise InvalidStateError("not_derived", field=f"state.{key}", name=key, expected=_short(derived[key]))
        if data["selected"] is not None:
            selected = _card(data["selected"], "state.selected")
            if selected.code != data["selected"]:  # the one spelling the server writes
                raise InvalidStateError("card", field="state.selected", card=str(data["selected"])[:16])
            if state.status != PLAYING:
                raise InvalidStateError("selected_over", field="state.selected", card=selected.code, status=state.status)
            if not is_selectable(state, selected):
                raise InvalidStateError("selected", field="state.selected", card=selected.code)
            state = state.evolve(selected=selected)
        _REPLAYS.remember(code, data["log"], result.state)  # (only a state that passed every check)
        return state

    # -- validation -----------------------------------------------------------------------------
    def check(self) -> None:
        """Raise :class:`InvalidStateError` unless this is the state its deal and log lead to."""
        if GameState.from_json(self.to_json()) != self:
            raise InvalidStateError("not_derived", field="state", name="state", expected="…")


class _ReplayCache:
    """The states the logs lead to, lately replayed in this process: (code, log) → state. A game's
    next request brings back the log of its last answer with one move more, so it is replayed
    from the longest prefix found here, not from the deal. Pure speed: the state a log leads to
    is the same however it is reached (``tests/engine/test_state.py`` compares the two). Only states
    that passed every check are remembered, and the cache is bounded in bytes, not entries: an
    entry costs its log's text, the state's tuples of log entries and undo history (8 bytes an
    entry: their texts and draws are shared) and ``ENTRY`` bytes for the rest; the least recently
    used go first."""

    #: How many moves may be stripped off a log to find its prefix.
    DEPTH = 16
    #: The bytes of a state besides its log (its cards, history, counters: measured, 1.5 to 3 KiB).
    ENTRY = 3072

    def __init__(self, limit: int) -> None:
        #: The most bytes kept (``PYRAMIDE_REPLAY_CACHE_MB``; 0 keeps none: every log replayed whole).
        self.limit = limit
        self.bytes = 0
        self._states: OrderedDict[tuple[str, str], tuple[GameState, int]] = OrderedDict()
        self._lock = threading.Lock()

    @classmethod
    def cost(cls, log: str, state: GameState) -> int:
        return len(log) + 8 * (len(state.log) + len(state.history)) + 56 + cls.ENTRY

    def longest_prefix(self, code: str, log: str) -> tuple[int, GameState | None]:
        """How many moves of ``log`` a remembered state has played, and that state."""
        prefix = log
        with self._lock:
            for _ in range(self.DEPTH + 1):
                found = self._states.get((code, prefix))
                if found is not None:
                    self._states.move_to_end((code, prefix))
                    return (prefix.count(" ") + 1 if prefix else 0), found[0]
                if not prefix:
                    break
                cut = prefix.rfind(" ")
                prefix = prefix[:cut] if cut >= 0 else ""
        return 0, None

    def remember(self, code: str, log: str, state: GameState) -> None:
        cost = self.cost(log, state)
        if cost > self.limit // 8:  # (none fills an eighth of it alone)
            return
        with self._lock:
            old = self._states.pop((code, log), None)
            if old is not None:
                self.bytes -= old[1]
            self._states[(code, log)] = (state, cost)
            self.bytes += cost
            while self.bytes > self.limit:
                self.bytes -= self._states.popitem(last=False)[1][1]

    def cache_clear(self) -> None:
        with self._lock:
            self._states.clear()
            self.bytes = 0


#: 16 MiB a process by default: about 1,500 states of 1,000-action logs, 5,000 of 40 actions.
_REPLAYS = _ReplayCache(int(float(os.environ.get("PYRAMIDE_REPLAY_CACHE_MB", "16")) * 2**20))


@lru_cache(maxsize=4096)
def _deal(code: str) -> tuple[Rules, Layout, str]:
    return parse_code(code)


def _card(value: object, field: str) -> Card:
    try:
        return Card.parse(value)  # type: ignore[arg-type]
    except InvalidMoveError:
        raise InvalidStateError("card", field=field, card=str(value)[:16]) from None


def _text(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise InvalidStateError("shape", field=field)
    return value


def parse_log(text: str) -> tuple[Move, ...]:
    """The moves of a state's log (``"KD TC+3S draw"``), as ``GameState.from_json`` reads them:
    ``log_too_long`` past :data:`MAX_LOG` actions, ``log_entry`` (with its index) for an entry not
    in canonical form."""
    return _log(text)


def _log(value: str, start: int = 0) -> tuple[Move, ...]:
    """The moves of a log from the one at ``start`` on (those before were read already)."""
    texts = value.split(" ") if value else []  # one space between moves, as the server writes it
    if len(texts) > MAX_LOG:
        raise InvalidStateError("log_too_long", field="state.log", limit=MAX_LOG)
    return tuple(_logged(texts[i], i) for i in range(start, len(texts)))


def _logged(text: str, index: int) -> Move:
    move = _logged_move(text)
    if move is None:
        raise InvalidStateError("log_entry", field="state.log", index=index, entry=text[:16])
    return move


@lru_cache(maxsize=1024)
def _logged_move(text: str) -> Move | None:
    """The move ``text`` writes, if it is a logged move in the one form the server writes."""
    try:
        move = Move.from_text(text)
    except InvalidMoveError:
        return None
    return move if move.type in LOGGED and str(move) == text else None


def _short(value: object) -> str:
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def _same(sent: object, derived: object) -> bool:
    """JSON equality, where ``true`` is not ``1`` and ``2.0`` is not ``2``. A derived field is a
    number, a string, or a list of strings, nulls and such lists: no number inside a list, so
    that equal types and ``==`` say it (a ``1`` where a card is written is not equal to it)."""
    return type(sent) is type(derived) and sent == derived
