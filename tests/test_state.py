"""The state's JSON form: lossless, and only reachable states accepted, with a precise reason."""

from __future__ import annotations

import copy
import json

import pytest

from service.engine import DOCUMENTS_LAYOUT, GameState, InvalidStateError, Rules
from tests.helpers import run

DOC = GameState.new(layout=DOCUMENTS_LAYOUT)
PLAYED = run(DOC, "KD", "TC+3S", "draw", "tap:7C")


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
    assert data["selected"] == "7C" and data["score"] == 30 and data["moves"] == 3
    assert data["status"] == "playing" and data["rules"]["max_recycles"] is None


def rejected(mutate) -> InvalidStateError:
    data = copy.deepcopy(PLAYED.to_json())
    mutate(data)
    with pytest.raises(InvalidStateError) as info:
        GameState.from_json(data)
    assert info.value.code == "invalid_state"
    return info.value


def test_a_duplicate_card_is_rejected():
    error = rejected(lambda d: d["stock"].append("JD"))
    assert error.detail in ("pile_order", "duplicate_card")


def test_a_card_in_two_places_is_rejected():
    def mutate(d):
        d["foundation"][0] = "7S"

    assert rejected(mutate).detail in ("duplicate_card", "foundation")


def test_a_missing_card_is_rejected():
    error = rejected(lambda d: d["stock"].pop())
    assert error.detail == "missing_card" and error.params["card"] == "9S"


def test_a_card_moved_in_the_pyramid_is_rejected():
    def mutate(d):
        d["pyramid"][6][0], d["pyramid"][6][2] = d["pyramid"][6][2], d["pyramid"][6][0]

    assert rejected(mutate).detail == "not_dealt_here"


def test_a_removed_card_still_covered_is_rejected():
    def mutate(d):
        d["pyramid"][5][0] = None  # QC gone while 7C still covers it
        d["foundation"] += ["QC"]

    assert rejected(mutate).detail in ("removed_while_covered", "foundation")


def test_an_empty_slot_under_a_present_card_is_named():
    state = run(DOC, "KD")
    data = state.to_json()
    data["pyramid"][5][4] = None  # TS
    data["pyramid"][6][4] = None  # 3S
    data["foundation"] += ["TS", "3S"]
    data["score"] = 30
    with pytest.raises(InvalidStateError) as info:
        GameState.from_json(data)
    assert info.value.detail == "history"  # reachable only with the covering-pair variant


def test_a_score_not_matching_the_pyramid_is_rejected():
    error = rejected(lambda d: d.update(score=40))
    assert error.detail == "score" and error.params["expected"] == 30


def test_more_than_100_actions_of_history_are_rejected():
    error = rejected(lambda d: d.update(history=["draw"] * 101))
    assert error.detail == "history_too_long"


def test_a_history_that_cannot_have_led_here_is_rejected():
    assert rejected(lambda d: d.update(history=["TC@7.2+3S@7.5", "KD@7.6", "draw"])).detail == "history"
    assert rejected(lambda d: d.update(history=["KD@7.5", "TC@7.2+3S@7.6", "draw"])).detail == "history"
    assert rejected(lambda d: d.update(history=["recycle"])).detail == "history"
    assert rejected(lambda d: d.update(history=["XX@7.1"])).detail == "history_entry"


def test_a_move_counter_below_the_history_is_rejected():
    assert rejected(lambda d: d.update(moves=2)).detail == "moves"


def test_a_selected_card_that_is_not_free_is_rejected():
    assert rejected(lambda d: d.update(selected="QC")).detail == "selected"


def test_a_wrong_status_is_rejected():
    error = rejected(lambda d: d.update(status="won"))
    assert error.detail == "status" and error.params["expected"] == "playing"


def test_rules_that_are_not_the_codes_are_rejected():
    assert rejected(lambda d: d["rules"].update(strict_win=True)).detail == "rules_mismatch"


def test_recycles_beyond_the_limit_are_rejected():
    game = run(GameState.new(layout=DOCUMENTS_LAYOUT, rules=Rules(max_recycles=1)), *["draw"] * 23, "recycle")
    data = game.to_json()
    data["recycles"] = 2
    with pytest.raises(InvalidStateError) as info:
        GameState.from_json(data)
    assert info.value.detail == "recycles"


@pytest.mark.parametrize(
    "mutate, detail, field",
    [
        (lambda d: d.pop("stock"), "missing_field", "state.stock"),
        (lambda d: d.update(code="PY1-N-AAAAAA"), "code", "state.code"),
        (lambda d: d.update(code="PY1-N-AAAAAAS"), "not_dealt_here", "state.pyramid"),
        (lambda d: d.update(pyramid=[["JD"]]), "pyramid_shape", "state.pyramid"),
        (lambda d: d["waste"].__setitem__(0, "ZZ"), "card", "state.waste[0]"),
        (lambda d: d.update(score=-10), "shape", "state.score"),
        (lambda d: d.update(moves=True), "shape", "state.moves"),
        (lambda d: d.update(rules=[]), "rules", "state.rules"),
        (lambda d: d["rules"].update(max_recycles=-1), "rules", "state.rules.max_recycles"),
    ],
)
def test_malformed_states_say_which_field(mutate, detail, field):
    error = rejected(mutate)
    assert (error.detail, error.field) == (detail, field)


def test_every_rejection_has_a_message_in_each_language():
    error = rejected(lambda d: d.update(score=40))
    assert error.message("es") == "La puntuación debe ser 30: 10 puntos por cada carta retirada de la pirámide"
    assert "30" in error.message("it") and "30" in error.message("fr") and "30" in str(error)


def test_a_game_of_at_most_100_moves_keeps_its_whole_history():
    """Its history was never cut, so it must lead back to the deal: an action left out is refused;
    past 100 moves the first actions may be forgotten, and the same history is accepted."""

    def drop_first(data):
        data["history"] = data["history"][1:]

    assert rejected(drop_first).detail == "history_incomplete"
    data = copy.deepcopy(PLAYED.to_json())
    drop_first(data)
    data["moves"] = 101
    assert GameState.from_json(data).history == PLAYED.history[1:]
