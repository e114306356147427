"""The presets of another shape (003's variants), each played to a win through the HTTP API (the
solver's problem for the rules it does not search: tests/api/test_api.py)."""

from __future__ import annotations

import pytest

from service.api import create_app
from service.engine import PRESETS, GameState, Move, Rules, seed_code

from tests.helpers import winning_line


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def taps(move: Move, state: dict) -> list[dict]:
    """The taps that play ``move`` in the app: a King, the stock (then, under Apophis, the pile the
    card goes to), or each card of a pair, a card beneath the waste top (the card just drawn pairs
    with it) after the top."""
    if move.type in ("draw", "recycle"):
        pile = [{"type": "tap", "pile": move.pile}] if move.pile else []
        return [{"type": "tap", "pile": "stock"}, *pile]
    beneath = state["waste"][:-1]
    cards = sorted((card.code for card in move.cards), key=lambda code: code in beneath)
    return [{"type": "tap", "card": code} for code in cards]


def play_to_the_end(client, code: str, line: list[Move], how: str) -> tuple[dict, list[dict]]:
    """Every move of ``line`` sent to POST /v1/moves from the deal of ``code``, as moves or as the
    taps that play them: the last state, and every event."""
    state = client.post("/v1/games", json={"code": code}).json["state"]
    events = []
    for move in line:
        for request in taps(move, state) if how == "taps" else [move.to_json()]:
            answer = client.post("/v1/moves", json={"state": state, "move": request})
            assert answer.status_code == 200, answer.json
            state = answer.json["state"]
            events += answer.json["events"]
    return state, events


@pytest.mark.parametrize("how", ["moves", "taps"])
def test_tuts_tomb_is_played_to_a_win_through_the_api(client, how):
    """003: «Tut's Tomb / King Tut: Se roban tres cartas a la vez del mazo en lugar de una»: a deal
    of the preset, a line found by a plain search of the engine's legal moves, then every move of it
    sent to POST /v1/moves (as moves, or as the taps that play them) until the game is won."""
    code = seed_code(PRESETS["tuts-tomb"], 4)
    line = winning_line(GameState.new(code), budget=20_000)
    assert line is not None and any(move.type == "draw" for move in line)
    state, events = play_to_the_end(client, code, line, how)
    assert state["rules"]["draw_count"] == 3
    assert state["status"] == "won" and state["score"] == 280 and state["moves"] == len(line)
    assert any(event["type"] == "drawn" and len(event["cards"]) == 3 for event in events)


@pytest.mark.parametrize("how", ["moves", "taps"])
def test_apophis_is_played_to_a_win_through_the_api(client, how):
    """003: «Apophis: Tres pilas de descarte en fila; las cartas del mazo pueden colocarse en
    cualquiera de las tres pilas, y la carta superior de cualquiera de ellas puede emparejarse»:
    a line found by a plain search, played through the API to a win, drawing onto each pile."""
    code = seed_code(PRESETS["apophis"], 4)
    line = winning_line(GameState.new(code), budget=20_000)
    assert line is not None
    state, events = play_to_the_end(client, code, line, how)
    assert state["rules"]["waste_piles"] == 3 and "piles" in state
    assert state["status"] == "won" and state["score"] == 280 and state["moves"] == len(line)
    assert {event.get("pile") for event in events if event["type"] == "drawn"} == {"waste1", "waste2", "waste3"}


@pytest.mark.parametrize("how", ["moves", "taps"])
def test_pharaoh_is_played_to_a_win_through_the_api(client, how):
    """003: «Pharaoh / Triangle: Reparte un diseño triangular más grande (a menudo 10 filas)»: 55
    cards from two decks, a line found by a plain search, played through the API to a win."""
    code = seed_code(PRESETS["pharaoh"], 0)
    line = winning_line(GameState.new(code), budget=20_000)
    assert line is not None
    state, events = play_to_the_end(client, code, line, how)
    assert state["rules"]["rows"] == 10 and [len(row) for row in state["pyramid"]] == list(range(1, 11))
    assert state["status"] == "won" and state["score"] == 550 and state["moves"] == len(line)
    removed = [card for event in events if event["type"] == "removed" for card in event["cards"]]
    assert any(card.endswith("2") for card in removed) and any(not card.endswith("2") for card in removed)


@pytest.mark.parametrize("how", ["moves", "taps"])
def test_the_spanish_pyramid_is_played_to_a_win_through_the_api(client, how):
    """003: «Pirámide española: Usa un mazo español de 48 cartas [...]; los valores de las parejas
    suman 12 en lugar de 13 y los Reyes siguen retirándose solos»: played through the API to a win."""
    code = seed_code(PRESETS["spanish"], 1)
    line = winning_line(GameState.new(code), budget=20_000)
    assert line is not None
    state, events = play_to_the_end(client, code, line, how)
    assert state["rules"]["deck"] == "spanish" and len(state["stock"]) + len(state["waste"]) + len(state["foundation"]) == 48
    assert state["status"] == "won" and state["score"] == 280 and state["moves"] == len(line)
    values = {**{str(n): n for n in range(1, 10)}, "S": 10, "C": 11, "R": 12}
    removals = [event["cards"] for event in events if event["type"] == "removed"]
    assert all(sum(values[card[0]] for card in cards) == 12 for cards in removals)
    assert any(len(cards) == 1 for cards in removals)  # a rey, alone


@pytest.mark.parametrize("preset", ["tuts-tomb", "apophis", "pharaoh", "spanish", "unlimited-undo"])
def test_every_preset_gets_winnable_deals_verdicts_and_hints_through_the_api(client, preset):
    """Issue 22: no preset answers ``solver_unsupported`` any more. A winnable-only deal, its
    verdict with a line that ``/v1/replay`` plays to a won game, and a hint that is a legal move."""
    rules = PRESETS[preset].to_json()
    dealt = client.post("/v1/games", json={"rules": rules, "winnable": True})
    assert dealt.status_code == 201, dealt.json
    state = dealt.json["state"]
    answer = client.post("/v1/solve", json={"state": state}).json
    assert answer["result"] == "winnable" and answer["max_removable"] == PRESETS[preset].slots
    replayed = client.post("/v1/replay", json={"code": state["code"], "moves": answer["line"]})
    assert replayed.status_code == 200 and (replayed.json["valid"], replayed.json["status"]) == (True, "won"), replayed.json
    hinted = client.post("/v1/hint", json={"state": state}).json
    assert hinted["result"] == "winnable" and hinted["move"] is not None
    after = client.post("/v1/moves", json={"state": state, "move": hinted["move"]})
    assert after.status_code == 200


def test_the_outlook_under_tuts_tomb_is_the_solvers(client):
    rules = {**PRESETS["tuts-tomb"].to_json(), "notify_unwinnable": True}
    game = client.post("/v1/games", json={"rules": rules, "winnable": True}).json
    assert game["outlook"] == "winnable"
    move = client.post("/v1/hint", json={"state": game["state"]}).json["move"]
    answer = client.post("/v1/moves", json={"state": game["state"], "move": move}).json
    assert answer["outlook"] == "winnable" and answer["feedback"] is None


@pytest.mark.parametrize(
    "stock, waste, pile2, status",
    [
        ("AC 2C", "3C", "4C", "blocked"),  # no King, nothing sums 13 with 8H or with another card
        ("AC 6C", "2C 7D", "", "playing"),  # 6C can be put beside 7D, on pile 2
        ("AC KC", "3C", "4C", "playing"),  # the King will reach a top
        ("AC 2C", "5C 3C", "4C", "playing"),  # 5C, under 3C, will reach a top beside the free 8H
    ],
)
def test_strict_apophis_with_unlimited_recycling_ends_when_no_card_can_ever_go(stock, waste, pile2, status):
    """003's «cuando no queda ningún emparejamiento legal posible» under three piles: the player
    places each card, so every card of the stock and the piles reaches a top, any two of them at
    once; the game is over when none is a King, none pairs with a free pyramid card (here only 8H
    is left) and no two of them pair."""
    from service.engine import Card, status_of

    rules = Rules(strict_win=True, initial_waste=False, waste_piles=3)
    game = GameState.new(seed_code(rules, 0))
    cards = lambda text: tuple(Card.parse(code) for code in text.split())  # noqa: E731
    position = game.evolve(
        pyramid=(Card.parse("8H"),) + (None,) * 27, stock=cards(stock), waste=cards(waste), piles=(cards(pile2), ())
    )
    assert status_of(position) == status
