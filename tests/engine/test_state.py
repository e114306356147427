"""The state's JSON form: lossless; and the forged-state suite: a state is its deal and its log,
everything else is derived by replaying the log, so no state that no game can reach is accepted.

Each forgery of issue #13 is here, with more of each kind: counters, score and status; cards moved,
duplicated, dropped or paired against the rules; undo histories and logs edited, cut, reordered or
taken from another game; recycles and passes claimed back.
"""

from __future__ import annotations

import copy
import json

import pytest

from service.engine import (
    DOCUMENTS_LAYOUT,
    UNDO_LIMIT,
    GameState,
    InvalidStateError,
    Move,
    Rules,
    legal_moves,
    play,
    solve,
)
from tests.helpers import deal, deal_at, run

DOC = GameState.new(layout=DOCUMENTS_LAYOUT)
PLAYED = run(DOC, "KD", "TC+3S", "draw", "tap:7C")
EASY = deal("KS 6D 7D 5D 8D KH 3D TD 4D 9D KD AD QD 2D JD 4C 9C 5C 8C 6C 7C KC AC QC 2C JC 3C TC")


def test_json_round_trip_is_lossless():
    for state in (DOC, PLAYED, run(DOC, *["draw"] * 23, "recycle", "undo")):
        data = json.loads(json.dumps(state.to_json()))
        assert GameState.from_json(data) == state


def test_the_json_form():
    data = PLAYED.to_json()
    assert data["pyramid"][6] == ["7C", None, "3H", "4H", None, None, "7S"]
    assert data["waste"] == ["7D", "AC"] and data["stock"][0] == "3C"
    assert data["foundation"] == ["KD", "TC", "3S"]
    assert data["history"] == ["KD@7.6", "TC@7.2+3S@7.5", "draw"]
    assert data["log"] == "KD TC+3S draw"
    assert data["selected"] == "7C" and data["score"] == 30 and data["moves"] == 3
    assert data["status"] == "playing" and data["rules"]["max_recycles"] is None


def test_the_log_keeps_every_action_and_every_undo():
    """The undo history forgets (100 actions, and what was undone); the log never does."""
    passes = ["draw"] * 23 + ["recycle"] + (["draw"] * 24 + ["recycle"]) * 3
    game = run(DOC, "KD", "undo", "KD", *passes, *["draw"] * 9)
    assert game.moves == 2 + 99 + 9 and len(game.history) == UNDO_LIMIT
    assert game.log[:4] == ("KD", "undo", "KD", "draw") and len(game.log) == 111
    assert GameState.from_json(game.to_json()) == game


def refused(data: dict) -> InvalidStateError:
    with pytest.raises(InvalidStateError) as info:
        GameState.from_json(json.loads(json.dumps(data)))
    assert info.value.code == "invalid_state"
    return info.value


def rejected(mutate, state: GameState = PLAYED) -> InvalidStateError:
    data = copy.deepcopy(state.to_json())
    mutate(data)
    assert json.dumps(data) != json.dumps(state.to_json()), "a forgery must change something"
    return refused(data)


# -- The forgeries of issue #13 --------------------------------------------------------------------


def test_a_won_game_claimed_with_no_moves_on_an_unwinnable_deal():
    deal_ = GameState.new("PYR1-N-AAAAAAA")
    assert solve(deal_).result == "unwinnable"
    data = deal_.to_json()
    data.update(
        pyramid=[[None] * len(row) for row in data["pyramid"]],
        foundation=[card for row in data["pyramid"] for card in row],
        score=280,
        status="won",
    )
    assert refused(data).field == "state.pyramid"


def test_the_win_claimed_with_a_log_that_is_not_the_games():
    """The solver's winning line of one deal, sent as the log of another."""
    won = GameState.new(layout=EASY)
    line = solve(won).line
    for move in line:
        won = play(won, move).state
    assert won.status == "won"
    data = won.to_json()
    data["code"] = DOC.code
    assert refused(data).detail == "log_illegal"
    data = won.to_json()
    data["log"] = " ".join(data["log"].split()[:-1])  # the last pair left out: the win not reached
    assert refused(data).field == "state.pyramid"


def test_two_stock_cards_paired_with_each_other():
    """QD and AC are both in the stock of the documents' deal; QD+AC sums 13."""
    data = DOC.to_json()
    data["stock"] = [card for card in data["stock"] if card not in ("QD", "AC")]
    data["foundation"] = ["AC", "QD"]
    assert refused(data).field == "state.stock"
    data["log"] = "AC+QD"
    error = refused(data)
    assert (error.detail, error.params["reason"].code) == ("log_illegal", "card_not_free")


def test_a_card_paired_with_the_card_covering_it_while_the_option_is_off():
    """6C (row 6) is covered by KD and 7S (row 7); with KD gone, 7S alone covers it. 6C+7S is
    legal only under «carta y carta que la cubre», and is refused in a log without it."""
    for rules, accepted in ((Rules(), False), (Rules(pair_with_covering=True), True)):
        game = run(GameState.new(layout=deal_at({15: "6C", 21: "KD", 22: "7S"}, rules), rules=rules), "KD")
        data = game.to_json()
        data["log"] += " 6C+7S"
        if accepted:
            data = run(game, "6C+7S").to_json()
            assert GameState.from_json(data).score == 30
        else:
            error = refused(data)
            assert error.detail == "log_illegal" and error.params["reason"].code == "card_blocked"


def test_a_foundation_order_that_contradicts_what_covers_what():
    data = PLAYED.to_json()
    data["foundation"] = ["TC", "3S", "KD"]
    assert refused(data).field == "state.foundation"


@pytest.mark.parametrize("moves", [0, 1, 2, 4, 1000])
def test_the_move_counter_is_derived(moves):
    assert rejected(lambda d: d.update(moves=moves)).field == "state.moves"


def test_an_extra_pass_claimed_back_under_a_recycle_limit():
    """Under max_recycles 1: recycle once, then claim recycles 0 with an empty history."""
    rules = Rules(max_recycles=1)
    game = run(GameState.new(layout=DOCUMENTS_LAYOUT, rules=rules), *["draw"] * 23, "recycle", *["draw"] * 24)
    assert Move.recycle() not in legal_moves(game)
    assert rejected(lambda d: d.update(recycles=0), game).field == "state.recycles"
    assert rejected(lambda d: d.update(recycles=0, history=[]), game).field == "state.recycles"

    def log_without_the_recycle(d):
        d.update(recycles=0, history=d["history"][:23] + d["history"][24:], log=d["log"].replace("recycle ", ""))

    assert rejected(log_without_the_recycle, game).detail == "log_illegal"  # a 24th draw from an empty stock
    twice = game.to_json()
    twice["log"] += " recycle"
    assert refused(twice).params["reason"].code == "no_recycles_left"


# -- More of each kind -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "what, mutate, field",
    [
        ("a score the cards do not give", lambda d: d.update(score=40), "state.score"),
        ("no score for removed cards", lambda d: d.update(score=0), "state.score"),
        ("a score as text", lambda d: d.update(score="30"), "state.score"),
        ("a score as 30.0", lambda d: d.update(score=30.0), "state.score"),
        ("a move counter as true", lambda d: d.update(moves=True), "state.moves"),
        ("recycles claimed", lambda d: d.update(recycles=1), "state.recycles"),
        ("a won game that is not won", lambda d: d.update(status="won"), "state.status"),
        ("a blocked game that is not blocked", lambda d: d.update(status="blocked"), "state.status"),
        ("a removed card back in its slot", lambda d: d["pyramid"][6].__setitem__(5, "KD"), "state.pyramid"),
        ("a card in another card's slot", lambda d: d["pyramid"][6].__setitem__(0, "3H"), "state.pyramid"),
        ("a card dropped", lambda d: d["pyramid"][6].__setitem__(0, None), "state.pyramid"),
        ("a removed slot still covered", lambda d: d["pyramid"][5].__setitem__(0, None), "state.pyramid"),
        ("the pyramid's shape", lambda d: d.update(pyramid=[["JD"]]), "state.pyramid"),
        ("a duplicate card", lambda d: d["stock"].append("JD"), "state.stock"),
        ("a card missing", lambda d: d["stock"].pop(), "state.stock"),
        ("the stock reordered", lambda d: d["stock"].reverse(), "state.stock"),
        ("a card drawn that was not", lambda d: d["waste"].__setitem__(1, "4C"), "state.waste"),
        ("not a card", lambda d: d["waste"].__setitem__(0, "ZZ"), "state.waste"),
        ("the foundation with a card twice", lambda d: d["foundation"].__setitem__(0, "7S"), "state.foundation"),
        ("the history reordered", lambda d: d.update(history=["TC@7.2+3S@7.5", "KD@7.6", "draw"]), "state.history"),
        ("the history at other places", lambda d: d.update(history=["KD@7.5", "TC@7.2+3S@7.6", "draw"]), "state.history"),
        ("the history cut", lambda d: d.update(history=["TC@7.2+3S@7.5", "draw"]), "state.history"),
        ("the history emptied", lambda d: d.update(history=[]), "state.history"),
        ("a history entry that is not an action", lambda d: d.update(history=["XX@7.1"]), "state.history"),
        ("101 history entries", lambda d: d.update(history=["draw"] * 101), "state.history"),
    ],
)
def test_a_field_that_is_not_what_the_log_gives_is_refused(what, mutate, field):
    error = rejected(mutate)
    assert (error.detail, error.field) == ("not_derived", field), what


@pytest.mark.parametrize(
    "what, log, detail, reason",
    [
        ("the log emptied, the position kept", "", "not_derived", None),
        ("an action left out", "KD draw", "not_derived", None),
        ("the actions reordered", "TC+3S KD draw", "not_derived", None),
        ("an undo added", "KD TC+3S draw undo", "not_derived", None),
        ("an undo with nothing to undo", "undo KD TC+3S draw", "log_illegal", "nothing_to_undo"),
        ("a covered card played", "KD TC+3S AC+QC draw", "log_illegal", "card_not_free"),
        ("a pair that does not sum 13", "KD TC+3S 3H+7S draw", "log_illegal", "sum_not_13"),
        ("a King that is not a King", "QS draw", "log_illegal", "not_a_king"),
        ("a recycle with a full stock", "KD TC+3S recycle", "log_illegal", "stock_not_empty"),
        ("a tap in the log", "KD TC+3S tap:stock", "log_entry", None),
        ("a pair in non-canonical order", "KD 3S+TC draw", "log_entry", None),
        ("a ten written 10", "KD 10C+3S draw", "log_entry", None),
        ("a history text in the log", "KD@7.6 TC+3S draw", "log_entry", None),
        ("not an action", "KD TC+3S drow", "log_entry", None),
    ],
)
def test_a_log_that_is_not_this_games_is_refused(what, log, detail, reason):
    error = rejected(lambda d: d.update(log=log))
    assert error.detail == detail, what
    if reason:
        assert error.params["reason"].code == reason, what


def test_a_log_that_is_not_text_or_too_long_is_refused():
    assert rejected(lambda d: d.update(log=["KD"])).detail == "shape"
    error = rejected(lambda d: d.update(log=" ".join(["draw", "undo"] * 5001)))
    assert (error.detail, error.params["limit"]) == ("log_too_long", 10_000)


def test_the_log_may_be_long_when_the_game_is():
    game = run(DOC, *["draw"] * 23, "recycle", *(["draw"] * 24 + ["recycle"]) * 99)
    assert len(game.log) == 2499 and game.recycles == 100
    assert GameState.from_json(game.to_json()) == game


def test_a_selected_card_that_is_not_free_is_rejected():
    assert rejected(lambda d: d.update(selected="QC")).detail == "selected"
    assert rejected(lambda d: d.update(selected="7D")).detail == "selected"  # under the waste top
    assert rejected(lambda d: d.update(selected="ZZ")).detail == "card"


def test_rules_that_are_not_the_codes_are_rejected():
    assert rejected(lambda d: d["rules"].update(strict_win=True)).detail == "rules_mismatch"
    assert rejected(lambda d: d["rules"].update(max_recycles=0)).detail == "rules_mismatch"


@pytest.mark.parametrize(
    "mutate, detail, field",
    [
        (lambda d: d.pop("stock"), "missing_field", "state.stock"),
        (lambda d: d.pop("log"), "missing_field", "state.log"),
        (lambda d: d.update(code="PYR1-N-AAAAAA"), "code", "state.code"),
        (lambda d: d.update(code="PYR1-N-AAAAAAS"), "log_illegal", "state.log"),
        (lambda d: d.update(code="PY1-N-AAAAAAJ"), "code", "state.code"),  # an app code: no deal here
        (lambda d: d.update(code="PY1-" + d["code"].split("-", 1)[1]), "code", "state.code"),  # not canonical
        (lambda d: d.update(error_help=1), "shape", "state.error_help"),
        (lambda d: d.update(rules=[]), "rules", "state.rules"),
        (lambda d: d["rules"].update(max_recycles=-1), "rules", "state.rules.max_recycles"),
    ],
)
def test_malformed_states_say_which_field(mutate, detail, field):
    error = rejected(mutate)
    assert (error.detail, error.field) == (detail, field)


def test_the_documents_code_names_the_same_deal_as_their_layout():
    """PY1-N-AAAAAAS deals the documents' layout: a state of that deal under either of its two codes
    is a state a game reaches, and keeps the code it carries."""
    data = PLAYED.to_json()
    data["code"] = "PY1-N-AAAAAAS"
    state = GameState.from_json(data)
    assert state.code == "PY1-N-AAAAAAS" and state.to_json() == data
    assert state == run(GameState.new("PY1-N-AAAAAAS"), "KD", "TC+3S", "draw", "tap:7C")


def test_every_rejection_has_a_message_in_each_language():
    error = rejected(lambda d: d.update(score=40))
    assert error.message("es") == "«score» no es lo que resulta de jugar el registro de la partida (30)"
    assert "30" in error.message("it") and "30" in error.message("fr") and "30" in str(error)
    error = rejected(lambda d: d.update(log="KD TC+3S AC+QC draw"))
    assert error.message("es") == (
        "La acción del registro en la posición 2, «AC+QC», no se puede jugar ahí: "
        + error.params["reason"].message("es")
    )
    assert error.params["reason"].message("it") in error.message("it")


@pytest.mark.parametrize(
    "what, mutate, detail, field",
    [
        ("a key the server never writes", lambda d: d.update(extra=1), "shape", "state.extra"),
        ("a tab in the log", lambda d: d.update(log=d["log"].replace(" ", "\t", 1)), "log_entry", "state.log"),
        ("two spaces in the log", lambda d: d.update(log=d["log"].replace(" ", "  ", 1)), "log_entry", "state.log"),
        ("a space after the log", lambda d: d.update(log=d["log"] + " "), "log_entry", "state.log"),
        ("the selected card in lower case", lambda d: d.update(selected="7c"), "card", "state.selected"),
        ("the selected card with a suit symbol", lambda d: d.update(selected="7♣"), "card", "state.selected"),
    ],
)
def test_only_the_spelling_the_server_writes_is_read(what, mutate, detail, field):
    """One state, one JSON: other spellings of the same state are refused too (tests/engine/test_fuzz.py
    found them accepted)."""
    error = rejected(mutate)
    assert (error.detail, error.field) == (detail, field), what


def test_a_log_replayed_from_a_remembered_prefix_gives_the_same_state_and_the_same_refusal():
    """from_json replays from the longest prefix of the log it replayed lately (speed only)."""
    from service.engine._state import _REPLAYS

    moves = ["KD", "TC+3S", "draw", "draw", "undo", "draw", "tap:7C"]
    games = [DOC]
    for text in moves:
        games.append(run(games[-1], text))
    sent = [json.loads(json.dumps(game.to_json())) for game in games]
    _REPLAYS.cache_clear()
    fresh = [GameState.from_json(data) for data in reversed(sent)]  # each from the deal
    for data, expected in zip(sent, reversed(fresh)):  # each from the one before
        assert GameState.from_json(data) == expected
    _REPLAYS.cache_clear()
    GameState.from_json(sent[3])
    bad = {**sent[-1], "log": sent[3]["log"] + " AC+QC draw"}
    error = refused(bad)  # the index counts from the deal, not from the prefix
    _REPLAYS.cache_clear()
    again = refused(bad)
    assert (error.detail, error.params["index"], error.params["move"]) == ("log_illegal", 3, "AC+QC")
    assert (again.params["index"], again.params["reason"].code) == (3, error.params["reason"].code)
    GameState.from_json(sent[3])
    spelled = refused({**sent[-1], "log": sent[3]["log"] + " 3S+TC"})  # read after the prefix too
    assert (spelled.detail, spelled.params["index"]) == ("log_entry", 3)


def test_the_replay_cache_keeps_only_states_that_passed_every_check_and_is_bounded_in_bytes(monkeypatch):
    """A state refused for a derived field, or for its ``selected`` card, after a replay that
    succeeded, leaves nothing in the cache; and however many states are checked, the bytes it
    counts stay under its limit (issue 23: 4,096 entries of up to 124 KB each were allowed)."""
    from service.engine import _state

    cache = _state._ReplayCache(200_000)
    monkeypatch.setattr(_state, "_REPLAYS", cache)
    game = DOC
    for text in ["KD", "TC+3S", "draw", "draw"]:
        game = run(game, text)
    sent = json.loads(json.dumps(game.to_json()))
    refused({**sent, "score": sent["score"] + 1})
    refused({**sent, "selected": "KS"})
    assert cache.bytes == 0 and not cache._states
    GameState.from_json(sent)
    assert list(cache._states) == [(sent["code"], sent["log"])]
    assert cache.bytes == _state._ReplayCache.cost(sent["log"], game)
    for _ in range(150):
        game = play(game, Move.draw() if game.stock else Move.recycle()).state
        GameState.from_json(json.loads(json.dumps(game.to_json())))
        assert cache.bytes <= cache.limit
    assert 20 < len(cache._states) < 150 and cache.bytes == sum(cost for _, cost in cache._states.values())


def test_nothing_is_selected_in_a_finished_game():
    """Issue 23: an honest won log with ``selected`` set was accepted, though a tap after the end
    is refused (``game_over``): a card selected in a finished game is a state no game reaches."""
    won = DOC
    for move in solve(DOC).line:
        won = play(won, move).state
    assert won.status == "won"
    sent = json.loads(json.dumps(won.to_json()))
    GameState.from_json(sent)  # (the honest state itself is accepted)
    for card in (won.foundation[-1].code, "8S", "KS"):
        error = refused({**sent, "selected": card})
        assert (error.detail, error.field, error.params["status"]) == ("selected_over", "state.selected", "won"), card
