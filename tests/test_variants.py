"""The presets of another shape (003's variants), each played to a win through the HTTP API (the
solver's problem for the rules it does not search: tests/test_api.py)."""

from __future__ import annotations

import pytest

from service.api import create_app
from service.engine import PRESETS, GameState, Move, seed_code

from .helpers import winning_line


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def taps(move: Move, state: dict) -> list[dict]:
    """The taps that play ``move`` in the app: a King, the stock, or each card of a pair, a card
    beneath the waste top (the card just drawn pairs with it) after the top."""
    if move.type in ("draw", "recycle"):
        return [{"type": "tap", "pile": "stock"}]
    beneath = state["waste"][:-1]
    cards = sorted((card.code for card in move.cards), key=lambda code: code in beneath)
    return [{"type": "tap", "card": code} for code in cards]


@pytest.mark.parametrize("how", ["moves", "taps"])
def test_tuts_tomb_is_played_to_a_win_through_the_api(client, how):
    """003: «Tut's Tomb / King Tut: Se roban tres cartas a la vez del mazo en lugar de una»: a deal
    of the preset, a line found by a plain search of the engine's legal moves, then every move of it
    sent to POST /v1/moves (as moves, or as the taps that play them) until the game is won."""
    code = seed_code(PRESETS["tuts-tomb"], 4)
    line = winning_line(GameState.new(code), budget=20_000)
    assert line is not None and any(move.type == "draw" for move in line)
    state = client.post("/v1/games", json={"code": code}).json["state"]
    assert state["rules"]["draw_count"] == 3 and len(state["stock"]) == 24 and state["waste"] == []
    three_card_draws = 0
    for move in line:
        for request in taps(move, state) if how == "taps" else [move.to_json()]:
            answer = client.post("/v1/moves", json={"state": state, "move": request})
            assert answer.status_code == 200, answer.json
            state = answer.json["state"]
            drawn = [event for event in answer.json["events"] if event["type"] == "drawn"]
            three_card_draws += sum(1 for event in drawn if len(event["cards"]) == 3)
    assert state["status"] == "won" and state["score"] == 280 and state["moves"] == len(line)
    assert three_card_draws > 0


def test_the_outlook_is_unknown_where_the_solver_does_not_search(client):
    rules = {**PRESETS["tuts-tomb"].to_json(), "notify_unwinnable": True}
    game = client.post("/v1/games", json={"rules": rules}).json
    assert game["outlook"] == "unknown"
    answer = client.post("/v1/moves", json={"state": game["state"], "move": {"type": "draw"}}).json
    assert answer["outlook"] == "unknown" and answer["feedback"] is None
