"""The API's request and response models (pydantic v2).

They are the single source of the JSON Schemas in ``openapi.yaml`` (``components/schemas``):
``python -m service.api.schema --write`` copies them there, and ``tests/api/test_openapi.py`` fails on
any drift. Requests are validated with them; responses are built by the engine's ``to_json`` and
checked against them by the tests and by schemathesis.

The schema only says what is well formed. Whether a well-formed state can occur, or a move is
legal, is the engine's to say (a 422 answer).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Discriminator, Field, Tag, create_model

from ..engine import Option, Registry, Rules as _EngineRules, options_registry

#: A card code as the server writes it: a French card, a Spanish one, then ``2`` for a second copy.
_SPANISH_CARD = "[1-9SCR](?:OR|CO|ES|BA)"
_CARD = f"(?:(?:[A2-9TJQK][CDHS]|{_SPANISH_CARD})2?)"
#: A card code as a request may write it: ``10`` may stand for ``T`` (``10C+3S``), unlike in a log.
_CARD_IN = f"(?:(?:(?:[A2-9TJQK]|10)[CDHS]|{_SPANISH_CARD})2?)"
CardCode = Annotated[
    str,
    Field(
        pattern=f"^{_CARD_IN}$",
        description="A card: rank `A23456789TJQK` then suit `CDHS` (`10` may stand for `T`): `7D`, `TC`; the Spanish "
        "deck's rank `123456789SCR` (1 to 9, sota, caballo, rey) then suit `OR`, `CO`, `ES`, `BA` (oros, copas, "
        "espadas, bastos): `SOR`, `7CO`; a second deck's copy (Pharaoh) ends in `2`: `7D2`.",
        examples=["7S", "TC", "KD"],
    ),
]


def _whole(value: Any) -> Any:
    """JSON has one number type: 2.0 is the integer 2 (and "2", a string, stays refused)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _whole_in(low: int, high: int) -> Any:
    return Annotated[int, Field(ge=low, le=high), BeforeValidator(_whole)]


Count = _whole_in(0, 1_000_000_000)
#: The largest request body the API reads (``_app.MAX_BODY``), sized from the log's limit (10,000
#: actions) so that every game it allows can be sent: a state of 10,000 actions (about 6 bytes an
#: action), and a ``/v1/replay`` of 10,000 moves as objects (``{"type":"draw"}``: 16 bytes).
MAX_BODY = 192 * 1024


def _logged(card: str) -> str:
    """A logged move's text form, its cards written as ``card``: ``TC+3S``, ``KD``, ``draw@2``…"""
    return f"(?:{card}(?:\\+{card})?|draw(?:@[123])?|recycle|undo)"


_LOGGED = _logged(_CARD)
_LOG_PATTERN = f"^(?:{_LOGGED}(?: {_LOGGED})*)?$"
#: A move's text form (``Move.from_text``): ``TC+3S``, ``KD``, ``draw``, ``tap:7C``, ``tap:stock``…;
#: as in a move object, ``10`` may stand for ``T`` (``10C+3S``).
_MOVE_TEXT = f"^(?:{_logged(_CARD_IN)}|tap:(?:stock|waste[123]|{_CARD_IN}))$"
DEFAULT_BUDGET = 100_000
#: The search behind a move's ``outlook`` (rules with ``notify_unwinnable``): at most this many
#: positions (a few hundredths of a second on most deals; ``unknown`` past it).
OUTLOOK_BUDGET = 20_000
Outlook = Literal["winnable", "unwinnable", "unknown"]
#: The shapes the registry's options deal (``service/engine/_options.py``): the bounds below hold the largest.
_SHAPES = options_registry().shapes()
_ROW_COUNTS = options_registry().option("rows").values
#: «Una partida ganada siempre vale 280 puntos»; Pharaoh's 55 cards, 550.
Score = _whole_in(0, 10 * max(shape.slots for shape in _SHAPES))
#: The most cards a game deals: Pharaoh's two decks.
MOST_CARDS = max(len(shape.cards) for shape in _SHAPES)
#: The most a stock holds: Pharaoh's 104 cards less its 55 in the pyramid.
MOST_STOCK = max(len(shape.cards) - shape.slots for shape in _SHAPES)
#: The longest deal code: the most rule letters and Pharaoh's 107 layout letters.
CODE_LENGTH = 160


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


def _option_type(option: Option) -> Any:
    """An option's type in the schema, from the registry: a flag, a limit (null or a whole number),
    or its values (numbers read whole: 3.0 is 3)."""
    if option.is_flag:
        return bool
    if option.limit is not None:
        return Optional[_whole_in(0, option.limit)]
    values = Literal[option.values]  # type: ignore[valid-type]
    return Annotated[values, BeforeValidator(_whole)] if option.is_number else values


def _rules_model(registry: Registry) -> type[BaseModel]:
    """The ``Rules`` model: a field per option of the registry, its default and its description."""
    fields: dict[str, Any] = {
        option.name: (_option_type(option), Field(option.default, description=option.description))
        for option in registry.options
    }
    return create_model(  # type: ignore[call-overload]
        "Rules", __base__=_Strict, __doc__="A rule set. Every option defaults to the Pyramide app's rules.", **fields
    )


#: A rule set (the registry's options: ``service/engine/_options.py``).
Rules = _rules_model(options_registry())


_PRESETS = _EngineRules.presets()
#: A rule set by its name in ``GET /v1/rules``'s ``presets``. The schema lists the names (generated
#: clients get their union); the engine refuses any other as ``unknown_rules``, listing them all.
PresetName = Annotated[
    str,
    Field(
        description="A named rule set, as `GET /v1/rules` lists them: " + ", ".join(f"`{name}`" for name in _PRESETS) + ".",
        examples=["tuts-tomb", "traditional"],
        json_schema_extra={"enum": list(_PRESETS)},
    ),
]


class Layout(_Strict):
    """An explicit deal: 7 pyramid rows (1 to 7 cards; 10 rows under Pharaoh), the waste (top last), the
    stock (top first)."""

    pyramid: Annotated[
        list[Annotated[list[CardCode], Field(min_length=1, max_length=max(_ROW_COUNTS))]],
        Field(min_length=min(_ROW_COUNTS), max_length=max(_ROW_COUNTS)),
    ]
    waste: Annotated[list[CardCode], Field(max_length=1)] = []
    stock: Annotated[list[CardCode], Field(max_length=MOST_STOCK)]


class State(_Strict):
    """A game state, exactly as the API returns it. Send it back unchanged with the next request."""

    rules: Rules
    code: Annotated[str, Field(max_length=CODE_LENGTH, description="The deal code (docs/deal-codes.md).", examples=["PYR1-N-AAAAAAS"])]
    pyramid: Annotated[
        list[Annotated[list[CardCode | None], Field(max_length=max(_ROW_COUNTS))]],
        Field(max_length=max(_ROW_COUNTS), description="7 rows of 1 to 7 slots (10 rows under Pharaoh); null where the card was removed."),
    ]
    stock: Annotated[list[CardCode], Field(max_length=MOST_STOCK, description="Top card first.")]
    waste: Annotated[list[CardCode], Field(max_length=MOST_STOCK, description="Top card last; only it is in play.")]
    foundation: Annotated[list[CardCode], Field(max_length=MOST_CARDS, description="Removed cards, in order.")]
    score: Score
    moves: Count
    recycles: Count
    selected: CardCode | None = Field(description="The card a first tap selected (tap play).")
    error_help: bool
    history: Annotated[
        list[Annotated[str, Field(max_length=32)]],
        Field(max_length=10_000, description="The actions undo takes back, oldest first (the last 100; all of them under `unlimited_undo`): `KD@7.6`, `TC@7.2+3S@7.5`, `5H@W+8S@6.4`, `draw`, `recycle`."),
    ]
    log: Annotated[
        str,
        Field(
            max_length=MAX_BODY,
            pattern=_LOG_PATTERN,
            examples=["KD TC+3S"],
            description="Every action since the deal, undos included, as move texts separated by spaces "
            "(`KD TC+3S draw undo draw`): what the server replays to derive every other field (docs/security.md).",
        ),
    ]
    status: Literal["playing", "won", "blocked"]
    piles: Annotated[
        list[Annotated[list[CardCode], Field(max_length=MOST_STOCK)]],
        Field(
            min_length=2,
            max_length=2,
            description="Only under `waste_piles: 3` (Apophis): its waste piles 2 and 3, top card last (`waste` is pile 1).",
        ),
    ] = None  # type: ignore[assignment]


# -- Moves -----------------------------------------------------------------------------------------


class PairMove(_Strict):
    type: Literal["pair"]
    cards: Annotated[list[CardCode], Field(min_length=2, max_length=2)]


class KingMove(_Strict):
    type: Literal["king"]
    card: CardCode


WastePile = Literal["waste1", "waste2", "waste3"]


class DrawMove(_Strict):
    type: Literal["draw"]
    pile: WastePile = Field(None, description="Only under `waste_piles: 3` (Apophis), and then required: the pile the card goes to.")  # type: ignore[assignment]


class RecycleMove(_Strict):
    type: Literal["recycle"]


class UndoMove(_Strict):
    type: Literal["undo"]


class TapCardMove(_Strict):
    type: Literal["tap"]
    card: CardCode


class TapStockMove(_Strict):
    type: Literal["tap"]
    pile: Literal["stock", "waste1", "waste2", "waste3"] = Field(
        description="`stock`, or under Apophis a waste pile: a tap on it puts there the stock's card a tap on the stock turned up."
    )


def _move_tag(value: Any) -> str | None:
    if not isinstance(value, dict):
        return None
    kind = value.get("type")
    if kind == "tap":
        return "tap_stock" if "pile" in value else "tap_card"
    return kind if isinstance(kind, str) else None


Move = Annotated[
    Union[
        Annotated[PairMove, Tag("pair")],
        Annotated[KingMove, Tag("king")],
        Annotated[DrawMove, Tag("draw")],
        Annotated[RecycleMove, Tag("recycle")],
        Annotated[UndoMove, Tag("undo")],
        Annotated[TapCardMove, Tag("tap_card")],
        Annotated[TapStockMove, Tag("tap_stock")],
    ],
    Discriminator(_move_tag),
]


MoveText = Annotated[
    str,
    Field(max_length=16, pattern=_MOVE_TEXT, examples=["TC+3S", "KD", "draw"], description="A move in its text form: `TC+3S`, `KD`, `draw`, `draw@2`, `recycle`, `undo`, `tap:7C`, `tap:stock`, `tap:waste2`."),
]


# -- Requests --------------------------------------------------------------------------------------


class NewGameRequest(_Strict):
    """A new game: from a deal code, or at random under ``rules``, or from an explicit ``layout``."""

    code: Annotated[str, Field(max_length=CODE_LENGTH, examples=["PYR1-N-AAAAAAS"])] | None = Field(None, description="Re-deal this code.")
    rules: Rules | PresetName | None = Field(
        None, description="The rule set, or a preset's name (`\"rules\": \"tuts-tomb\"`); the app's rules when omitted."
    )
    layout: Layout | None = Field(None, description="Deal exactly these cards.")
    error_help: bool = Field(True, description="The app's error help: explain taps on covered cards.")
    winnable: bool = Field(
        False, description="Deal only a deal the solver proves winnable (with `rules`; the code still re-deals it)."
    )


class MoveRequest(_Strict):
    state: State
    move: Move


class StateRequest(_Strict):
    state: State


class HintRequest(_Strict):
    state: State
    budget: _whole_in(1, 250_000) = Field(  # type: ignore[valid-type]
        DEFAULT_BUDGET, description="The most positions the search may visit; past it the answer is `unknown`."
    )


class SolveRequest(HintRequest):
    shortest: bool = Field(
        False,
        description="Then search the winning line with the fewest moves (anytime weighted A*, docs/solver.md), "
        "within what is left of the budget (`minimal: true` when it was proved the fewest; else the shortest "
        "line found on the way).",
    )


class ReplayRequest(_Strict):
    """A game to verify: its deal (a ``code``, or a ``layout`` with ``rules``) and every move played
    from it, as move objects or texts (a state's ``log`` split at its spaces is such a list)."""

    code: Annotated[str, Field(max_length=CODE_LENGTH, examples=["PYR1-N-AAAAAAS"])] | None = Field(None, description="The deal code.")
    rules: Rules | PresetName | None = Field(
        None, description="The rule set of a `layout`, or a preset's name (a code names its own)."
    )
    layout: Layout | None = Field(None, description="The deal's cards, instead of a code.")
    error_help: bool = Field(True, description="The app's error help (changes feedback only, never the result).")
    moves: Annotated[list[Move | MoveText], Field(max_length=10_000)] = Field(
        description="The moves in the order played, taps and undos included."
    )


# -- Responses -------------------------------------------------------------------------------------


class GameResponse(_Strict):
    state: State
    outlook: Outlook | None = Field(
        None, description="Only under `notify_unwinnable`: whether a win is still possible (the solver's verdict within a small budget)."
    )


class Event(_Strict):
    """What a move did: ``removed`` (cards, points), ``drawn``, ``recycled`` (the cards turned back),
    ``undone`` (the action, points taken back, negative), ``selected``, ``deselected``, ``won``, ``blocked``, ``no_win_left`` (004: no win is left)."""

    type: Literal["removed", "drawn", "recycled", "undone", "selected", "deselected", "won", "blocked", "no_win_left"]
    cards: list[CardCode] = []
    points: int = 0
    action: str | None = None


class Feedback(_Strict):
    """The message the app would show: ``card_blocked``, ``sum_not_13``, ``blocked``, …"""

    code: str
    message: str


class MoveResponse(_Strict):
    state: State
    events: list[Event]
    feedback: Feedback | None
    outlook: Outlook | None = Field(
        None, description="Only under `notify_unwinnable`: whether a win is still possible (the solver's verdict within a small budget)."
    )


class LegalMovesResponse(_Strict):
    moves: list[Move]


class DescribeResponse(_Strict):
    description: str
    language: str


class RuleOption(_Strict):
    name: str
    letter: str
    description: str


class RulesResponse(_Strict):
    default: Rules
    presets: dict[str, Rules]
    preset_codes: dict[str, str]
    options: list[RuleOption]
    code_format: str


class SolveResponse(_Strict):
    """``result``: winnable, unwinnable, or unknown when the budget ran out (never a wrong yes or no).
    ``line``: a winning line from the state (``minimal`` false: not known to be the shortest).
    ``max_removable``: the most pyramid cards any line removes in all (28 when winnable)."""

    result: Literal["winnable", "unwinnable", "unknown"]
    line: list[Move] | None
    minimal: bool
    max_removable: int | None
    nodes: int


class HintResponse(_Strict):
    """The next move of a winning line; if none, the first move of a line removing the most pyramid
    cards; null when no move removes anything more (or the budget ran out)."""

    move: Move | None
    result: Literal["winnable", "unwinnable", "unknown"]
    max_removable: int | None


class Refusal(_Strict):
    """The first move the rules refuse: its index in ``moves``, and why."""

    index: int
    move: Move
    code: str
    message: str


class ReplayResponse(_Strict):
    """``valid``: every move was legal. ``state`` is where the moves led (up to the refused one),
    with its ``score`` and ``status`` derived by the server, never taken from the client."""

    valid: bool
    played: int
    score: int
    status: Literal["playing", "won", "blocked"]
    state: State
    refused: Refusal | None


class Health(_Strict):
    status: Literal["ok"]
    version: str


class Problem(_Strict):
    """An RFC 9457 problem, with a stable machine ``code`` and the offending ``field``."""

    type: str
    title: str
    status: int
    detail: str
    code: str
    field: str | None = None
    reason: str | None = Field(
        default=None,
        description="For `invalid_state` (and `invalid_code`): what exactly is wrong, a stable machine code "
        "(`log_illegal`, `log_entry`, `log_too_long`, `not_derived`, `selected`, `selected_over`, `code`, "
        "`rules_mismatch`, `shape`, `missing_field`, `card`, …); `field` names the part of the state.",
    )
    index: int | None = Field(default=None, description="For a log refusal: the index in the log (from 0) of the action refused.")
    move: str | None = Field(default=None, description="For a log refusal: that action, as the log writes it (or the entry as sent).")
    rule: str | None = Field(
        default=None, description="For `log_illegal`: the code of the rule the action breaks (`card_blocked`, `not_thirteen`, …)."
    )


SCHEMAS: tuple[type[BaseModel], ...] = (
    NewGameRequest,
    MoveRequest,
    StateRequest,
    HintRequest,
    SolveRequest,
    ReplayRequest,
    GameResponse,
    MoveResponse,
    LegalMovesResponse,
    DescribeResponse,
    RulesResponse,
    SolveResponse,
    HintResponse,
    ReplayResponse,
    Health,
    Problem,
)
