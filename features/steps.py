"""The kit's steps. They speak only HTTP (through ``client``): never Pyramide's engine.

Moves are written in Pyramide's text form: ``TC+3S`` (a pair), ``KD`` (a King), ``draw``,
``recycle``, ``undo``, ``tap:7S`` (a tap on a card), ``tap:stock``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, parsers, then, when

from .client import Reply

DEALS = json.loads((Path(__file__).parent / "deals.json").read_text(encoding="utf-8"))
RANKS, SUITS = "A23456789TJQK", "CDHS"


def move_json(text: str) -> dict[str, Any]:
    if text in ("draw", "recycle", "undo"):
        return {"type": text}
    if text == "tap:stock":
        return {"type": "tap", "pile": "stock"}
    if text.startswith("tap:"):
        return {"type": "tap", "card": text[4:]}
    if "+" in text:
        first, second = text.split("+")
        return {"type": "pair", "cards": [first, second]}
    return {"type": "king", "card": text}


def layout(name: str) -> dict[str, Any]:
    deal = DEALS[name]
    return {"pyramid": [row.split() for row in deal["pyramid"]], "waste": deal["waste"].split(), "stock": deal["stock"].split()}


def option_value(text: str) -> Any:
    return json.loads(text)


class Game:
    """The game in play: the current state, the last reply, the state before the last move."""

    def __init__(self, client) -> None:
        self.client = client
        self.language: str | None = None
        self.state: dict[str, Any] | None = None
        self.before: dict[str, Any] | None = None
        self.reply: Reply | None = None
        self.noted: dict[str, Any] | None = None
        self.solution: dict[str, Any] | None = None
        #: the first deal of the scenario, as dealt
        self.dealt: dict[str, Any] | None = None

    def post(self, path: str, body: dict[str, Any], language: str | None = None) -> Reply:
        self.reply = self.client.request("POST", path, body, language or self.language)
        return self.reply

    def deal(self, body: dict[str, Any]) -> None:
        reply = self.post("/v1/games", body)
        assert reply.status == 201, (reply.status, reply.body)
        self.state = reply.body["state"]
        if self.dealt is None:
            self.dealt = {key: self.state[key] for key in ("pyramid", "waste", "stock")}

    def observe(self) -> dict[str, Any] | None:
        """The game as the implementation reports it now. Pyramide's API is stateless: the state it
        last returned is the game (a refused move returns none, so it cannot have changed it)."""
        return self.state

    def try_move(self, text: str) -> Reply:
        self.before = self.state
        reply = self.post("/v1/moves", {"state": self.state, "move": move_json(text)})
        if reply.status == 200:
            self.state = reply.body["state"]
        return reply

    def play(self, text: str) -> Reply:
        reply = self.try_move(text)
        assert reply.status == 200, (text, reply.status, reply.body)
        return reply

    def pyramid_cards(self) -> list[str]:
        return [card for row in self.state["pyramid"] for card in row if card]


@pytest.fixture
def game(kit_client) -> Game:
    return Game(kit_client)


# -- Given -----------------------------------------------------------------------------------------


@given(parsers.parse("the {name} deal"))
def the_deal(game: Game, name: str) -> None:
    game.deal({"layout": layout(name)})


@given(parsers.parse("the {name} deal with error help {value}"))
def the_deal_with_help(game: Game, name: str, value: str) -> None:
    assert value in ("on", "off"), value
    game.deal({"layout": layout(name), "error_help": value == "on"})


@given(parsers.parse('the {name} deal with "{option}" set to {value}'))
def the_deal_with_option(game: Game, name: str, option: str, value: str) -> None:
    deal_under_rules(game, name, {option: option_value(value)})


@given(parsers.parse("the {name} deal under the rules:"))
def the_deal_under_rules(game: Game, name: str, datatable) -> None:
    deal_under_rules(game, name, {row[0]: option_value(row[1]) for row in datatable[1:]})


def deal_under_rules(game: Game, name: str, rules: dict[str, Any]) -> None:
    deal = layout(name)
    if rules.get("initial_waste") is False:  # the traditional deal: the waste card goes on the stock
        deal["stock"] = deal["waste"] + deal["stock"]
        deal["waste"] = []
    game.deal({"layout": deal, "rules": rules})


@given(parsers.parse('a new game from the code "{code}"'))
def a_game_from_a_code(game: Game, code: str) -> None:
    game.deal({"code": code})


@given("a new game under the rules:")
def a_game_under_rules(game: Game, datatable) -> None:
    game.deal({"rules": {row[0]: option_value(row[1]) for row in datatable[1:]}})


@given(parsers.parse('the player\'s language is "{language}"'))
def the_language(game: Game, language: str) -> None:
    game.language = language


@given(parsers.parse('the moves "{moves}" have been played'))
@when(parsers.parse('I play "{moves}"'))
def play_moves(game: Game, moves: str) -> None:
    for text in moves.split():
        game.play(text)


@given(parsers.parse('"{move}" has been played {count:d} times'))
@when(parsers.parse('I play "{move}" {count:d} times'))
def play_repeatedly(game: Game, move: str, count: int) -> None:
    for _ in range(count):
        game.play(move)


@given("I note the game")
@when("I note the game")
def note(game: Game) -> None:
    game.noted = game.state


# -- When ------------------------------------------------------------------------------------------


@when(parsers.parse('I try "{moves}"'))
def try_move(game: Game, moves: str) -> None:
    """Play every move but the last, then try the last (it may be refused)."""
    *first, last = moves.split()
    for text in first:
        game.play(text)
    game.try_move(last)


@when(parsers.parse('I send the game back to play "{move}"'))
def send_back(game: Game, move: str) -> None:
    game.play(move)


@when(parsers.parse('I send the game back with "{path}" set to {value} to play "{move}"'))
def send_forged(game: Game, path: str, value: str, move: str) -> None:
    """The game with one field changed (``score``, ``pyramid[6][5]``, ``rules.strict_win``)."""
    forged = json.loads(json.dumps(game.state))
    *parents, last = re.findall(r"[^.\[\]]+", path)
    target = forged
    for key in parents:
        target = target[int(key) if key.isdigit() else key]
    target[int(last) if last.isdigit() else last] = json.loads(value)
    assert forged != game.state, "the example changes nothing"
    game.before = game.state
    game.post("/v1/moves", {"state": forged, "move": move_json(move)})


@when(parsers.parse('I deal the code "{code}" again'))
def deal_again(game: Game, code: str) -> None:
    game.noted = game.state
    game.deal({"code": code})


@when(parsers.parse('I deal the code "{code}"'))
def deal_code(game: Game, code: str) -> None:
    reply = game.post("/v1/games", {"code": code})
    if reply.status == 201:
        game.state = reply.body["state"]


@when("I start a new game")
def start_again(game: Game) -> None:
    game.noted = game.state
    game.deal({})


# -- Then: answers ---------------------------------------------------------------------------------


@then(parsers.parse('the move is refused with "{code}"'))
def refused(game: Game, code: str) -> None:
    reply = game.reply
    assert reply.status == 422, (reply.status, reply.body)
    assert reply.content_type == "application/problem+json"
    assert reply.body["code"] == code, reply.body
    assert game.observe() == game.before, "a refused move changed the game"


@then(parsers.parse('the request is refused with status {status:d} and "{code}"'))
def refused_with(game: Game, status: int, code: str) -> None:
    reply = game.reply
    assert (reply.status, reply.body["code"]) == (status, code), reply.body
    assert reply.content_type == "application/problem+json"


@then(parsers.parse('the feedback is "{code}"'))
def feedback(game: Game, code: str) -> None:
    assert game.reply.status == 200 and game.reply.body["feedback"]["code"] == code, game.reply.body


@then("there is no feedback")
def no_feedback(game: Game) -> None:
    assert game.reply.status == 200 and game.reply.body["feedback"] is None, game.reply.body


@then(parsers.parse("the feedback code is {code}"))
def feedback_code(game: Game, code: str) -> None:
    """``none`` or a feedback code, for outlines over an option."""
    if code == "none":
        no_feedback(game)
    else:
        feedback(game, code)


@then(parsers.parse('the message is "{text}"'))
def message(game: Game, text: str) -> None:
    body = game.reply.body
    shown = body["feedback"]["message"] if game.reply.status == 200 else body["detail"]
    assert shown == text


@then(parsers.parse('the reply is in "{language}"'))
def reply_language(game: Game, language: str) -> None:
    assert game.reply.headers["content-language"] == language
    assert "accept-language" in game.reply.headers.get("vary", "").lower()


@then("nothing changes")
def nothing_changes(game: Game) -> None:
    assert game.reply.status == 200 and game.state == game.before
    assert game.reply.body["events"] == []


@then(parsers.parse('the last move removed "{cards}" for {points:d} points'))
def removed(game: Game, cards: str, points: int) -> None:
    events = [event for event in game.reply.body["events"] if event["type"] == "removed"]
    assert len(events) == 1 and sorted(events[0]["cards"]) == sorted(cards.split()), game.reply.body["events"]
    assert events[0]["points"] == points


@then(parsers.parse('the events include "{kind}"'))
def event_included(game: Game, kind: str) -> None:
    assert kind in [event["type"] for event in game.reply.body["events"]]


@then(parsers.parse('the events do not include "{kind}"'))
def event_not_included(game: Game, kind: str) -> None:
    assert kind not in [event["type"] for event in game.reply.body["events"]]


# -- Then: the state -------------------------------------------------------------------------------


@then(parsers.parse("the score is {score:d}"))
def score(game: Game, score: int) -> None:
    assert game.state["score"] == score


@then(parsers.parse("the move counter is {moves:d}"))
def move_counter(game: Game, moves: int) -> None:
    assert game.state["moves"] == moves


@then(parsers.parse("{count:d} cards are left in the pyramid"))
def pyramid_left(game: Game, count: int) -> None:
    assert len(game.pyramid_cards()) == count


@then(parsers.parse("the stock has {count:d} cards"))
def stock_count(game: Game, count: int) -> None:
    assert len(game.state["stock"]) == count


@then(parsers.parse("the waste has {count:d} cards"))
def waste_count(game: Game, count: int) -> None:
    assert len(game.state["waste"]) == count


@then(parsers.parse('the waste top is "{card}"'))
def waste_top(game: Game, card: str) -> None:
    assert game.state["waste"][-1] == card


@then(parsers.parse('the waste, from its top, is "{cards}"'))
def waste_order(game: Game, cards: str) -> None:
    assert game.state["waste"][::-1] == cards.split()


@then(parsers.parse('the waste\'s top cards are "{cards}"'))
def waste_top_cards(game: Game, cards: str) -> None:
    expected = cards.split()
    assert game.state["waste"][::-1][: len(expected)] == expected


@then("the waste is empty")
def waste_empty(game: Game) -> None:
    assert game.state["waste"] == []


@then(parsers.parse('the stock, from its top, is "{cards}"'))
def stock_order(game: Game, cards: str) -> None:
    assert game.state["stock"] == cards.split()


@then("the stock holds the waste's cards in the same order")
def recycled_in_order(game: Game) -> None:
    assert game.state["stock"] == game.before["waste"] and game.state["waste"] == []


@then(parsers.parse('the selected card is "{card}"'))
def selected(game: Game, card: str) -> None:
    assert game.state["selected"] == card


@then("no card is selected")
def nothing_selected(game: Game) -> None:
    assert game.state["selected"] is None


@then(parsers.parse("the game is {status}"))
def status(game: Game, status: str) -> None:
    assert game.state["status"] == status


@then("the pyramid rows have 1, 2, 3, 4, 5, 6 and 7 cards")
def rows(game: Game) -> None:
    assert [len(row) for row in game.state["pyramid"]] == [1, 2, 3, 4, 5, 6, 7]
    assert all(card is not None for row in game.state["pyramid"] for card in row)


@then("the 52 cards are all there, each once")
def fifty_two(game: Game) -> None:
    cards = game.pyramid_cards() + game.state["stock"] + game.state["waste"] + game.state["foundation"]
    assert sorted(cards) == sorted(rank + suit for rank in RANKS for suit in SUITS)


@then(parsers.parse('the free pyramid cards are "{cards}"'))
def free_cards(game: Game, cards: str) -> None:
    """A card is free when a tap on it does not answer ``card_blocked`` (error help on)."""
    free = []
    for card in game.pyramid_cards():
        reply = game.post("/v1/moves", {"state": game.state, "move": move_json(f"tap:{card}")})
        assert reply.status == 200, reply.body
        if (reply.body["feedback"] or {}).get("code") != "card_blocked":
            free.append(card)
    assert sorted(free) == sorted(cards.split())


@then(parsers.parse('the legal moves are "{moves}"'))
def legal_moves_are(game: Game, moves: str) -> None:
    reply = game.post("/v1/legal-moves", {"state": game.state})
    assert reply.status == 200
    assert sorted(json.dumps(_canonical(move), sort_keys=True) for move in reply.body["moves"]) == sorted(
        json.dumps(_canonical(move_json(text)), sort_keys=True) for text in moves.split()
    )


@then(parsers.parse('the legal moves include "{move}"'))
def legal_moves_include(game: Game, move: str) -> None:
    reply = game.post("/v1/legal-moves", {"state": game.state})
    assert _canonical(move_json(move)) in [_canonical(item) for item in reply.body["moves"]]


@then(parsers.parse('the legal moves do not include "{move}"'))
def legal_moves_exclude(game: Game, move: str) -> None:
    reply = game.post("/v1/legal-moves", {"state": game.state})
    assert _canonical(move_json(move)) not in [_canonical(item) for item in reply.body["moves"]]


def _canonical(move: dict[str, Any]) -> dict[str, Any]:
    if move["type"] == "pair":
        return {"type": "pair", "cards": sorted(move["cards"])}
    return move


@then(parsers.parse('the description in "{language}" is:'))
def description(game: Game, language: str, docstring: str) -> None:
    reply = game.post("/v1/describe", {"state": game.state}, language)
    assert reply.status == 200 and reply.headers["content-language"] == language
    assert reply.body["description"] == docstring.strip()


@then("the cards are where they were when noted")
def as_noted(game: Game) -> None:
    for key in ("pyramid", "stock", "waste", "foundation", "score", "recycles"):
        assert game.state[key] == game.noted[key], key


@then("the same cards are dealt")
def same_cards(game: Game) -> None:
    for key in ("pyramid", "stock", "waste", "code"):
        assert game.state[key] == game.noted[key], key


@then("the game's code is the one noted")
def code_as_noted(game: Game) -> None:
    assert game.state["code"] == game.noted["code"]


@then("the same cards are dealt as at the start")
def same_cards_as_dealt(game: Game) -> None:
    """The deal the game's own code gives is the layout the game started from."""
    deal = game.dealt
    assert [[card for card in row] for row in game.state["pyramid"]] == deal["pyramid"]
    assert (game.state["waste"], game.state["stock"]) == (deal["waste"], deal["stock"])


@then(parsers.parse('the game\'s code is "{code}"'))
def code(game: Game, code: str) -> None:
    assert game.state["code"] == code


@then(parsers.parse('the cards dealt, the pyramid row by row, then the waste, then the stock from its top, are "{cards}"'))
def dealt_sequence(game: Game, cards: str) -> None:
    assert game.reply.status == 201, game.reply.body
    assert game.pyramid_cards() + game.state["waste"] + game.state["stock"] == cards.split()


@then("there are no legal moves")
def no_legal_moves(game: Game) -> None:
    reply = game.post("/v1/legal-moves", {"state": game.state})
    assert reply.status == 200 and reply.body["moves"] == []


@when("I deal the game's own code again")
def deal_own_code(game: Game) -> None:
    game.noted = game.state
    game.deal({"code": game.state["code"]})


# -- The solver (scenarios tagged @solver) ---------------------------------------------------------


def _move_text(move: dict[str, Any]) -> str:
    if move["type"] == "pair":
        return "+".join(move["cards"])
    if move["type"] == "king":
        return move["card"]
    if move["type"] == "tap":
        return "tap:" + move.get("card", "stock")
    return move["type"]


@when("I ask the solver")
def ask_solver(game: Game) -> None:
    reply = game.post("/v1/solve", {"state": game.state})
    assert reply.status == 200, reply.body
    game.solution = reply.body


@then("the deal is winnable")
def winnable(game: Game) -> None:
    assert game.solution["result"] == "winnable" and game.solution["max_removable"] == 28


@then(parsers.parse("the deal is unwinnable and at most {count:d} pyramid cards can be removed"))
def unwinnable(game: Game, count: int) -> None:
    assert (game.solution["result"], game.solution["max_removable"]) == ("unwinnable", count)


@when("I play the solver's line")
def play_line(game: Game) -> None:
    for move in game.solution["line"]:
        game.play(_move_text(move))


@when("I follow the hints until there is none")
def follow_hints(game: Game) -> None:
    for _ in range(1000):
        reply = game.post("/v1/hint", {"state": game.state})
        assert reply.status == 200, reply.body
        if reply.body["move"] is None:
            return
        game.play(_move_text(reply.body["move"]))
    raise AssertionError("the hints never ended")


@then("the legal moves remove no pyramid card")
def no_pyramid_removal(game: Game) -> None:
    reply = game.post("/v1/legal-moves", {"state": game.state})
    in_pyramid = set(game.pyramid_cards())
    for move in reply.body["moves"]:
        cards = move.get("cards", [move["card"]] if "card" in move else [])
        assert not in_pyramid & set(cards), move
