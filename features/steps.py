"""The kit's steps: each Gherkin sentence and the operations (:mod:`ops`) it stands for.

``STEPS`` is the one table. pytest-bdd's step definitions are made from it below, and
``features/vectors.py`` uses the same table to write every scenario out as data. A step never
talks to an implementation itself: it hands its operations to the scenario's :class:`ops.Game`,
which goes through the driver.

Moves are written in the kit's text form: ``TC+3S`` (a pair), ``KD`` (a King), ``draw``,
``recycle``, ``undo``, ``tap:7S`` (a tap on a card), ``tap:stock``.
"""

from __future__ import annotations

import inspect
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest
from pytest_bdd import given, parsers, then, when

from .ops import Game

DEALS = json.loads((Path(__file__).parent / "deals.json").read_text(encoding="utf-8"))
Ops = list[dict[str, Any]]


def layout(name: str, rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """A named deal of ``deals.json`` as a layout; under the traditional deal (``initial_waste``
    false) the waste card goes on top of the stock."""
    deal = DEALS[name]
    result = {"pyramid": [row.split() for row in deal["pyramid"]], "waste": deal["waste"].split(), "stock": deal["stock"].split()}
    if (rules or {}).get("initial_waste") is False:
        result = {**result, "stock": result["waste"] + result["stock"], "waste": []}
    return result


def deal(name: str, rules: dict[str, Any] | None = None, error_help: bool = True) -> Ops:
    op: dict[str, Any] = {"op": "deal", "layout": layout(name, rules)}
    if rules:
        op["rules"] = rules
    if not error_help:
        op["error_help"] = False
    return [op]


def renamed(layout: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """``layout`` with each card named in ``names`` written as its new name."""
    return {
        "pyramid": [[names.get(card, card) for card in row] for row in layout["pyramid"]],
        "waste": [names.get(card, card) for card in layout["waste"]],
        "stock": [names.get(card, card) for card in layout["stock"]],
    }


def changed_layout(name: str, change: str, rules: dict[str, Any] | None = None) -> Ops:
    """A deal of ``deals.json`` changed so that it is no longer a deal under ``rules``, then dealt
    (the request may be refused): ``change`` is ``add CARD`` (the card also at the stock's bottom),
    ``drop`` (without the stock's last card), ``swap A B`` (two cards trade places), ``waste`` (the
    waste card put on top of the stock, or kept when ``rules`` deal none), ``row R S`` (row R's
    last card moved to the end of row S), ``write A B`` (card A written B wherever it is)."""
    result = layout(name)
    verb, *words = change.split()
    if verb == "add":
        result["stock"] = result["stock"] + words
    elif verb == "drop":
        result["stock"] = result["stock"][:-1]
    elif verb == "waste" and (rules or {}).get("initial_waste") is False:
        pass  # the waste card stays where the app's rules put it
    elif verb == "waste":
        result = {**result, "stock": result["waste"] + result["stock"], "waste": []}
    elif verb == "write":  # a card written as another (e.g. a second copy written as the first)
        first, second = words
        result = renamed(result, {first: second})
    elif verb == "swap":  # two cards trade places
        first, second = words
        result = renamed(result, {first: second, second: first})
    else:
        row, other = (int(word) - 1 for word in words)
        rows = [list(cards) for cards in result["pyramid"]]
        rows[other].append(rows[row].pop())
        result["pyramid"] = rows
    op: dict[str, Any] = {"op": "deal_try", "layout": result}
    if rules:
        op["rules"] = rules
    return [op]


def rules_table(datatable: list[list[str]]) -> dict[str, Any]:
    return {row[0]: json.loads(row[1]) for row in datatable[1:]}


#: The presets the kit deals under by name, with their options (``GET /v1/rules`` lists the same,
#: which the kit checks: variants.feature and app_004.feature).
PRESET_RULES: dict[str, dict[str, Any]] = {
    "pyramide": {},
    "traditional": {"strict_win": True, "max_recycles": 0, "drawn_pairs_with_waste": True, "initial_waste": False},
    "unlimited-undo": {"initial_waste": False, "unlimited_undo": True, "notify_unwinnable": True},
    "tuts-tomb": {"drawn_pairs_with_waste": True, "initial_waste": False, "draw_count": 3},
    "apophis": {"initial_waste": False, "waste_piles": 3, "max_recycles": 2},
    "pharaoh": {"rows": 10},
    "spanish": {"deck": "spanish"},
}
#: The decks, written out by the kit (not asked of the implementation): the app's 52 cards, the
#: Spanish deck's 48 (1 to 9, sota, caballo, rey; oros, copas, espadas, bastos), and two copies of
#: the 52 for Pharaoh (the second copy's code ends in 2).
FRENCH_DECK = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]
SPANISH_DECK = [rank + suit for suit in ("OR", "CO", "ES", "BA") for rank in "123456789SCR"]
DECKS = {
    "52 cards": FRENCH_DECK,
    "48 cards of the Spanish deck": SPANISH_DECK,
    "104 cards of two decks": FRENCH_DECK + [card + "2" for card in FRENCH_DECK],
    "96 cards of two Spanish decks": SPANISH_DECK + [card + "2" for card in SPANISH_DECK],
}


def on_off(value: str) -> bool:
    if value not in ("on", "off"):
        raise ValueError(f"error help is on or off, not {value!r}")
    return value == "on"


def play(moves: str) -> Ops:
    return [{"op": "play", "moves": moves.split()}]


def try_last(moves: str) -> Ops:
    """Every move but the last is played; the last is tried (it may be refused)."""
    *first, last = moves.split()
    return ([{"op": "play", "moves": first}] if first else []) + [{"op": "try", "move": last}]


def expect(field: str, value: Any) -> Ops:
    return [{"op": "expect", "field": field, "value": value}]


@dataclass(frozen=True)
class Step:
    kinds: str  # "given", "when", "then", or several: "given when"
    pattern: str  # a ``parse`` pattern
    ops: Callable[..., Ops]
    #: the kind of check, when it guards sentences of its own whatever the scenario's rule
    #: (``conftest.GUARDS``): "scoring" (000 #43…), "move-counter" (000 #46…)
    guards: str | None = None


STEPS: list[Step] = [
    # -- setting up: deals and the player's language
    Step("given", "the {name} deal", lambda name: deal(name)),
    Step("given", "the {name} deal with error help {value}", lambda name, value: deal(name, error_help=on_off(value))),
    Step("given", 'the {name} deal with "{option}" set to {value}', lambda name, option, value: deal(name, {option: json.loads(value)})),
    Step("given", "the {name} deal under the rules:", lambda name, datatable: deal(name, rules_table(datatable))),
    Step("given", 'the {name} deal under the preset "{preset}"', lambda name, preset: deal(name, PRESET_RULES[preset])),
    Step(
        "given",
        'the {name} deal under the preset "{preset}" with error help {value}',
        lambda name, preset, value: deal(name, PRESET_RULES[preset], error_help=on_off(value)),
    ),
    Step("given", 'a new game from the code "{code}"', lambda code: [{"op": "deal", "code": code}]),
    Step("given", "a new game under the rules:", lambda datatable: [{"op": "deal", "rules": rules_table(datatable)}]),
    Step("given", "a new game", lambda: [{"op": "deal"}]),
    Step("given", 'the player\'s language is "{language}"', lambda language: [{"op": "language", "language": language}]),
    Step("given when", "I note the game", lambda: [{"op": "note"}]),
    # -- playing
    Step("given", 'the moves "{moves}" have been played', play),
    Step("when", 'I play "{moves}"', play),
    Step("given", '"{move}" has been played {count:d} times', lambda move, count: play(" ".join([move] * count))),
    Step("when", 'I play "{move}" {count:d} times', lambda move, count: play(" ".join([move] * count))),
    Step("when", 'I try "{moves}"', try_last),
    Step("when", 'I deal the code "{code}" again', lambda code: [{"op": "note"}, {"op": "deal", "code": code}]),
    Step("when", 'I deal the code "{code}"', lambda code: [{"op": "deal_try", "code": code}]),
    Step(
        "when",
        'I deal the code "{code}" under the rules:',
        lambda code, datatable: [{"op": "deal_try", "code": code, "rules": rules_table(datatable)}],
    ),
    Step(
        "when",
        'I deal the {name} deal under the preset "{preset}" with "{card}" added to the stock',
        lambda name, preset, card: changed_layout(name, f"add {card}", PRESET_RULES[preset]),
    ),
    Step("when", 'I deal the {name} deal with "{card}" added to the stock', lambda name, card: changed_layout(name, f"add {card}")),
    Step("when", "I deal the {name} deal without the stock's last card", lambda name: changed_layout(name, "drop")),
    Step(
        "when",
        'I deal the {name} deal under the preset "{preset}" with "{first}" written "{second}"',
        lambda name, preset, first, second: changed_layout(name, f"write {first} {second}", PRESET_RULES[preset]),
    ),
    Step(
        "when",
        'I deal the {name} deal under the preset "{preset}" with "{first}" and "{second}" swapped',
        lambda name, preset, first, second: changed_layout(name, f"swap {first} {second}", PRESET_RULES[preset]),
    ),
    Step(
        "when",
        'I deal the {name} deal under the preset "{preset}"',
        lambda name, preset: [{"op": "deal_try", "layout": layout(name, PRESET_RULES[preset]), "rules": PRESET_RULES[preset]}],
    ),
    Step("when", "I deal the {name} deal with its waste card put on the stock", lambda name: changed_layout(name, "waste")),
    Step(
        "when",
        'I deal the {name} deal with its waste card under the preset "{preset}"',
        lambda name, preset: changed_layout(name, "waste", PRESET_RULES[preset]),
    ),
    Step(
        "when",
        "I deal the {name} deal with the last card of row {row:d} moved to row {other:d}",
        lambda name, row, other: changed_layout(name, f"row {row} {other}"),
    ),
    Step("when", "I deal a new game under the rules:", lambda datatable: [{"op": "deal_try", "rules": rules_table(datatable)}]),
    Step(
        "when",
        'I deal a new game with "{option}" set to {value}',
        lambda option, value: [{"op": "deal_try", "rules": {option: json.loads(value)}}],
    ),
    # a preset by its name, as Pyramide's API takes it (``"rules": "traditional"``, docs/api.md)
    Step("when", 'I deal a new game under the preset named "{name}"', lambda name: [{"op": "deal_try", "rules": name}]),
    Step("when", "I start a new game", lambda: [{"op": "new_game"}]),
    Step("when", "I go through the stock as many times as the rules allow", lambda: [{"op": "use_up_passes"}]),
    Step("when", "I deal the game's own code again", lambda: [{"op": "deal_own_code"}]),
    Step("when", 'I send the game back to play "{move}"', lambda move: play(move)),
    Step(
        "when",
        'I send the game back with "{path}" set to {value} to play "{move}"',
        lambda path, value, move: [{"op": "forge", "path": path, "value": json.loads(value), "move": move}],
    ),
    Step(
        "when",
        'I send the game back without "{path}" to play "{move}"',
        lambda path, move: [{"op": "forge_without", "path": path, "move": move}],
    ),
    # -- answers
    Step("then", 'the move is refused with "{code}"', lambda code: [{"op": "refused", "code": code}]),
    # a refusal judged by what every implementation shows (its own code, any wording): refused,
    # and the game as it was
    Step("then", "the move is refused and the game is as it was", lambda: [{"op": "refused_as_it_was"}]),
    Step("then", "the refused move left the game as it was", lambda: [{"op": "refused_as_it_was"}]),
    Step(
        "then",
        'the request is refused with status {status:d} and "{code}"',
        lambda status, code: [{"op": "refused", "code": code, "status": status}],
    ),
    # why a request is refused, beyond its code (capability refusal-reasons)
    Step("then", 'the reason given is "{reason}"', lambda reason: [{"op": "reason", "reason": reason}]),
    Step("then", 'the reason given for "{field}" is "{reason}"', lambda field, reason: [{"op": "reason", "reason": reason, "field": field}]),
    Step("then", 'the refusal names the field "{field}"', lambda field: [{"op": "reason", "field": field}]),
    Step(
        "then",
        'the reason given for the log\'s action at index {index:d} is "{reason}"',
        lambda index, reason: [{"op": "reason", "reason": reason, "field": "state.log", "index": index}],
    ),
    Step(
        "then",
        'the reason given for the log\'s action at index {index:d} is the rule "{rule}"',
        lambda index, rule: [{"op": "reason", "reason": "log_illegal", "field": "state.log", "index": index, "rule": rule}],
    ),
    Step("then", 'the refusal names the log\'s action "{move}"', lambda move: [{"op": "reason", "field": "state.log", "move": move}]),
    Step("then", 'the feedback is "{code}"', lambda code: [{"op": "feedback", "code": code}]),
    Step("then", 'the undone action is "{action}"', lambda action: [{"op": "undone_action", "action": action}]),
    Step("then", 'the game\'s code begins "{prefix}"', lambda prefix: [{"op": "code_prefix", "prefix": prefix}]),
    Step("then", "the game's rules are:", lambda datatable: [{"op": "game_rules", "rules": rules_table(datatable)}]),
    Step("then", 'the foundation is "{cards}"', lambda cards: [{"op": "foundation", "cards": cards.split()}]),
    Step("then", "the foundation is empty", lambda: [{"op": "foundation", "cards": []}]),
    Step("then", 'the last action of the undo history is "{action}"', lambda action: [{"op": "history_last", "action": action}]),
    Step("then", 'the preset "{name}" has the rules:', lambda name, datatable: [{"op": "preset", "name": name, "rules": rules_table(datatable)}]),
    Step("then", "there is no feedback", lambda: [{"op": "feedback", "code": None}]),
    Step("then", "the feedback code is {code}", lambda code: [{"op": "feedback", "code": None if code == "none" else code}]),
    Step("then", 'the message is "{text}"', lambda text: [{"op": "message", "text": text}]),
    Step("then", 'the reply is in "{language}"', lambda language: [{"op": "content_language", "language": language}]),
    Step("then", "nothing changes", lambda: [{"op": "unchanged"}]),
    Step("then", '"{move}" may be played', lambda move: [{"op": "playable", "move": move}]),
    Step("then", 'the last move removed "{cards}"', lambda cards: [{"op": "removed", "cards": cards.split()}]),
    Step("then", "the removal scored {points:d} points", lambda points: [{"op": "points", "points": points}], guards="scoring"),
    Step("then", "the undo took back {points:d} points", lambda points: [{"op": "undone", "points": points}], guards="scoring"),
    Step("then", "the undo took back the points that move scored", lambda: [{"op": "undone_as_scored"}], guards="scoring"),
    Step("then", 'the last move\'s events are "{events}"', lambda events: [{"op": "events", "events": events.split(", ")}]),
    Step("then", 'the events include "{kind}"', lambda kind: [{"op": "event", "type": kind, "present": True}]),
    Step("then", 'the events do not include "{kind}"', lambda kind: [{"op": "event", "type": kind, "present": False}]),
    # -- the game
    Step("then", "the score is {score:d}", lambda score: expect("score", score), guards="scoring"),
    Step("then", "the score went up by {points:d}", lambda points: [{"op": "score_change", "since": "move", "points": points}], guards="scoring"),
    Step("then", "the score went down by {points:d}", lambda points: [{"op": "score_change", "since": "move", "points": -points}], guards="scoring"),
    Step("then", "the score did not change", lambda: [{"op": "score_change", "since": "move", "points": 0}], guards="scoring"),
    Step("then", "the score is what it was when noted", lambda: [{"op": "score_change", "since": "noted", "points": 0}], guards="scoring"),
    Step("then", "the move counter is {moves:d}", lambda moves: expect("moves", moves), guards="move-counter"),
    Step("then", "{count:d} cards are left in the pyramid", lambda count: expect("pyramid_left", count)),
    Step("then", "the stock has {count:d} cards", lambda count: expect("stock_count", count)),
    Step("then", "the waste has {count:d} cards", lambda count: expect("waste_count", count)),
    Step("then", 'the waste top is "{card}"', lambda card: expect("waste_top", card)),
    Step("then", 'the waste, from its top, is "{cards}"', lambda cards: expect("waste", cards.split())),
    Step("then", 'the waste\'s top cards are "{cards}"', lambda cards: expect("waste_top_cards", cards.split())),
    Step("then", "the waste is empty", lambda: expect("waste_count", 0)),
    Step(
        "then",
        'the waste piles, from their tops, are "{one}", "{two}" and "{three}"',
        lambda one, two, three: expect("waste_piles", [[] if pile == "-" else pile.split() for pile in (one, two, three)]),
    ),
    Step("then", 'the stock, from its top, is "{cards}"', lambda cards: expect("stock", cards.split())),
    Step("then", "the stock holds the waste's cards in the same order", lambda: [{"op": "recycled_in_order"}]),
    Step("then", 'the selected card is "{card}"', lambda card: expect("selected", card)),
    Step("then", "no card is selected", lambda: expect("selected", None)),
    Step("then", "the game is {status}", lambda status: expect("status", status)),
    Step("then", "the pyramid rows have 1, 2, 3, 4, 5, 6 and 7 cards", lambda: expect("rows", [1, 2, 3, 4, 5, 6, 7])),
    Step("then", "the {deck} are all there, each once", lambda deck: expect("all_cards", sorted(DECKS[deck]))),
    Step("then", "the pyramid rows have 1 to {rows:d} cards", lambda rows: expect("rows", list(range(1, rows + 1)))),
    Step("then", 'the free pyramid cards are "{cards}"', lambda cards: [{"op": "free_cards", "cards": cards.split()}]),
    Step("then", 'the pyramid cards a move can take are "{cards}"', lambda cards: [{"op": "free_cards_by_moves", "cards": cards.split()}]),
    Step(
        "then",
        'the pyramid, from its top row, is "{rows}"',
        lambda rows: expect("pyramid", [[None if card == "-" else card for card in row.split()] for row in rows.split(" / ")]),
    ),
    Step("then", "the cards are where they were when noted", lambda: [{"op": "as_noted"}]),
    Step("then", "the same cards are dealt", lambda: [{"op": "same_deal", "as_of": "noted"}]),
    Step("then", "the same cards are dealt as at the start", lambda: [{"op": "same_deal", "as_of": "dealt"}]),
    Step("then", "the game's code is the one noted", lambda: [{"op": "code"}]),
    Step("then", 'the game\'s code is "{code}"', lambda code: [{"op": "code", "code": code}]),
    Step(
        "then",
        'the cards dealt, the pyramid row by row, then the waste, then the stock from its top, are "{cards}"',
        lambda cards: [{"op": "dealt_sequence", "cards": cards.split()}],
    ),
    # -- Pyramide's API: legal moves and descriptions
    Step("then", 'the legal moves are "{moves}"', lambda moves: [{"op": "legal_moves", "equal": moves.split()}]),
    Step("then", 'the legal moves include "{move}"', lambda move: [{"op": "legal_moves", "include": move}]),
    Step("then", 'the legal moves do not include "{move}"', lambda move: [{"op": "legal_moves", "exclude": move}]),
    Step("then", "there are no legal moves", lambda: [{"op": "legal_moves", "equal": []}]),
    Step(
        "then",
        'the description in "{language}" begins "{text}"',
        lambda language, text: [{"op": "describe", "language": language, "text": text, "prefix": True}],
    ),
    Step("then", 'the description in "{language}" is:', lambda language, docstring: [{"op": "describe", "language": language, "text": docstring.strip()}]),
    # -- replay (POST /v1/replay, scenarios tagged @api)
    Step("when", 'I replay "{moves}" from the deal', lambda moves: [{"op": "replay", "moves": moves.split()}]),
    Step("when", "I replay the game's log from its deal", lambda: [{"op": "replay"}]),
    Step(
        "when",
        'I replay "{moves}" {times:d} times over from the deal',
        lambda moves, times: [{"op": "replay", "moves": moves.split(), "times": times}],
    ),
    Step("when", 'I send the replayed game back to play "{move}"', lambda move: [{"op": "send_replayed", "move": move}]),
    Step(
        "then",
        'the replay is valid: {played:d} moves, {score:d} points, "{status}"',
        lambda played, score, status: [
            {"op": "replay_verdict", "valid": True, "played": played, "score": score, "status": status}
        ],
    ),
    Step(
        "then",
        'the replay refuses move {number:d} with "{code}" after {score:d} points',
        lambda number, code, score: [
            {"op": "replay_verdict", "valid": False, "played": number - 1, "score": score, "status": "playing", "refused": code}
        ],
    ),
    Step("then", "the replay leads to the game", lambda: [{"op": "replay_is_the_game"}]),
    # -- the solver (scenarios tagged @solver)
    Step("when", "I ask the solver", lambda: [{"op": "solve"}]),
    Step("then", "the deal is winnable", lambda: [{"op": "solution", "result": "winnable", "max_removable": 28}]),
    Step(
        "then",
        "the deal is unwinnable and at most {count:d} pyramid cards can be removed",
        lambda count: [{"op": "solution", "result": "unwinnable", "max_removable": count}],
    ),
    Step("when", "I play the solver's line", lambda: [{"op": "play_line"}]),
    Step("when", "I follow the hints until there is none", lambda: [{"op": "follow_hints"}]),
    Step("then", "the legal moves remove no pyramid card", lambda: [{"op": "no_pyramid_removal"}]),
]


# -- pytest-bdd: one step definition per row of STEPS ------------------------------------------------


@pytest.fixture
def game(kit_driver) -> Game:
    return Game(kit_driver, kit_driver.fixed_rules)


def _define(step: Step) -> None:
    names = list(inspect.signature(step.ops).parameters)

    def run(game: Game, **arguments: Any) -> None:
        from .ops import KitFailure

        for op in step.ops(**arguments):
            try:
                game.run(op)
            except KitFailure as failure:
                if not game.kit_soft:
                    raise
                # a check: recorded with the sentence it guards, and the scenario goes on
                entry = {"step": game.kit_step, "cites": game.kit_citations(step.guards)}
                game.kit_failures.append({**entry, "what": failure.what, "expected": failure.expected, "got": failure.got})
                return

    parameters = [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD) for name in ["game", *names]]
    run.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    run.__name__ = "step_" + "_".join(step.pattern.split()[:6])
    run.kit_step = step  # type: ignore[attr-defined]
    for kind in step.kinds.split():
        {"given": given, "when": when, "then": then}[kind](parsers.parse(step.pattern), stacklevel=2)(run)


for _step in STEPS:
    _define(_step)
