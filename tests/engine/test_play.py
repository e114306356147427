"""The rules of play, rule by rule, in the order of the documents (000 es / 002 it)."""

from __future__ import annotations

import random

import pytest

from service.engine import (
    DOCUMENTS_LAYOUT,
    IllegalMoveError,
    InvalidMoveError,
    PRESETS,
    UNDO_LIMIT,
    GameState,
    Move,
    Replay,
    Rules,
    legal_moves,
    play,
    replay,
    seed_code,
)
from tests.helpers import C, deal, deal_at, position, run

DOC = GameState.new(layout=DOCUMENTS_LAYOUT)
BOTTOM_ROW = "7C TC 3H 4H 3S KD 7S".split()


def codes(cards):
    return [card.code for card in cards]


def illegal(state: GameState, move: str) -> str:
    with pytest.raises(IllegalMoveError) as info:
        play(state, Move.from_text(move))
    return info.value.code


# -- La preparación --------------------------------------------------------------------------------


def test_deal_is_28_in_the_pyramid_one_on_the_waste_23_in_the_stock():
    game = GameState.new("PYR1-N-AAAAAAS")
    assert game.pyramid_left == 28 and len(game.waste) == 1 and len(game.stock) == 23
    assert [len(row) for row in game.rows] == [1, 2, 3, 4, 5, 6, 7]
    assert len({*game.pyramid, *game.waste, *game.stock}) == 52


def test_traditional_stock_is_24_cards_with_an_empty_waste():
    game = GameState.new("PYR1-T-AAAAAAS")
    assert game.waste == () and len(game.stock) == 24 and not game.rules.initial_waste


# -- Las cartas libres -----------------------------------------------------------------------------


def test_at_the_start_only_the_bottom_row_and_the_waste_top_are_free():
    playable = {card.code for move in legal_moves(DOC) for card in move.cards}
    assert playable <= set(BOTTOM_ROW) | {"7D"}
    taps = {code: play(DOC, Move.tap(code)) for code in codes(card for card in DOC.pyramid if card)}
    free = {code for code, turn in taps.items() if turn.feedback != "card_blocked"}
    assert free == set(BOTTOM_ROW)


def test_tapping_a_covered_card_does_nothing_and_says_why_with_error_help():
    turn = play(DOC, Move.tap("QC"))
    assert turn.state == DOC and turn.events == () and turn.feedback == "card_blocked"
    assert str(IllegalMoveError("card_blocked")) == "This card is blocked by another one"


def test_tapping_a_covered_card_says_nothing_without_error_help():
    quiet = GameState.new(layout=DOCUMENTS_LAYOUT, error_help=False)
    turn = play(quiet, Move.tap("QC"))
    assert turn.state == quiet and turn.feedback is None


def test_a_pair_move_with_a_covered_card_is_refused():
    assert illegal(DOC, "QC+AS") == "card_blocked"


# -- Las parejas que suman 13 ----------------------------------------------------------------------


@pytest.mark.parametrize("a, b", [("A", "Q"), ("2", "J"), ("3", "T"), ("4", "9"), ("5", "8"), ("6", "7")])
@pytest.mark.parametrize("suits", ["CD", "HS", "SH", "DD"])
def test_the_pairs_that_sum_13_whatever_the_suit(a, b, suits):
    first, second = C(a + suits[0]), C(b + suits[1])
    game = GameState.new(layout=deal_at({21: first.code, 22: second.code}))
    after = run(game, f"{first.code}+{second.code}")
    assert after.score == 20 and set(after.foundation) == {first, second}


@pytest.mark.parametrize("a, b", [("A", "J"), ("2", "Q"), ("6", "6"), ("7", "7"), ("5", "9"), ("A", "K")])
def test_other_sums_are_not_pairs(a, b):
    game = GameState.new(layout=deal_at({21: a + "C", 22: b + "D"}))
    assert illegal(game, f"{a}C+{b}D") == "sum_not_13"


def test_cards_not_summing_13_are_not_removed_and_the_second_stays_selected():
    turn = play(DOC, Move.tap("7C"))
    assert turn.state.selected == C("7C") and turn.feedback is None
    turn = play(turn.state, Move.tap("7S"))
    assert turn.feedback == "sum_not_13"
    assert turn.state.selected == C("7S")
    assert turn.state.pyramid == DOC.pyramid and turn.state.moves == 0
    assert illegal(DOC, "7C+7S") == "sum_not_13"


def test_two_taps_on_cards_summing_13_remove_both():
    state = play(play(DOC, Move.tap("TC")).state, Move.tap("3S")).state
    assert C("TC") not in state.pyramid and C("3S") not in state.pyramid
    assert state.score == 20 and state.moves == 1 and state.selected is None


def test_tapping_the_selected_card_again_deselects_it():
    state = play(play(DOC, Move.tap("7C")).state, Move.tap("7C")).state
    assert state.selected is None


def test_a_king_goes_with_one_tap_from_the_pyramid():
    turn = play(DOC, Move.tap("KD"))
    assert C("KD") in turn.state.foundation and turn.state.score == 10 and turn.state.moves == 1
    assert [event.to_json() for event in turn.events] == [{"type": "removed", "cards": ["KD"], "points": 10}]


def test_a_king_goes_with_one_tap_from_the_waste_for_no_points():
    game = GameState.new(layout=deal(" ".join(codes(DOC.pyramid)).replace("KD", "7D") + " KD"))
    assert game.waste == (C("KD"),)
    turn = play(game, Move.tap("KD"))
    assert turn.state.waste == () and turn.state.score == 0 and turn.state.moves == 1


def test_a_king_is_never_paired_and_only_a_king_goes_alone():
    assert illegal(DOC, "7C") == "not_a_king"
    assert illegal(DOC, "KD+7S") == "sum_not_13"


def test_the_documents_first_two_moves():
    first = play(DOC, Move.from_text("KD"))
    assert first.state.score == 10
    second = play(first.state, Move.from_text("TC+3S"))
    assert second.state.score == 30 and second.state.moves == 2
    assert codes(c for c in second.state.rows[6] if c) == ["7C", "3H", "4H", "7S"]


# -- El mazo y el descarte -------------------------------------------------------------------------


def test_tapping_the_stock_turns_its_top_card_onto_the_waste():
    turn = play(DOC, Move.tap_stock())
    assert turn.state.waste == (C("7D"), C("AC")) and turn.state.stock == DOC.stock[1:]
    assert turn.state.moves == 1 and turn.state.score == 0
    assert [event.to_json() for event in turn.events] == [{"type": "drawn", "cards": ["AC"]}]


def test_the_waste_top_pairs_with_a_free_pyramid_card_for_10_points():
    game = GameState.new(layout=deal_at({27: "9H", 28: "4C"}))
    after = run(game, "4C+9H")
    assert after.score == 10 and after.waste == () and after.moves == 1


def test_only_the_waste_top_is_in_play():
    state = run(DOC, "draw")  # waste 7D AC: 7D is covered
    assert illegal(state, "7D+6H") == "card_not_free"
    with pytest.raises(IllegalMoveError) as info:
        play(state, Move.tap("7D"))
    assert info.value.code == "card_not_free"


def test_stock_cards_are_not_in_play():
    assert illegal(DOC, "AC+QS") == "card_not_free"


def test_the_empty_stock_recycles_the_waste_in_the_same_order_without_limit():
    state = run(DOC, *["draw"] * 23)
    assert state.stock == () and len(state.waste) == 24
    order = state.waste
    for passes in range(1, 5):
        turn = play(state, Move.tap_stock())
        state = turn.state
        assert state.stock == order and state.waste == () and state.recycles == passes
        assert turn.events[0].type == "recycled"
        state = run(state, *["draw"] * 24)
        assert state.waste == order
    assert state.moves == 23 + 4 * 25


def test_drawing_from_an_empty_stock_and_recycling_a_full_one_are_refused():
    assert illegal(DOC, "recycle") == "stock_not_empty"
    empty = run(DOC, *["draw"] * 23)
    assert illegal(empty, "draw") == "stock_empty"


def test_the_drawn_card_does_not_pair_with_the_waste_card_it_covers():
    game = GameState.new(layout=deal(" ".join(codes(DOC.pyramid)) + " 5D 8C"))
    state = run(game, "draw")  # waste 5D 8C
    assert illegal(state, "5D+8C") == "card_not_free"


def test_a_card_never_pairs_with_a_card_still_covering_it():
    state = run(DOC, "KD")  # TS (6.5) is now covered by 3S alone
    assert illegal(state, "TS+3S") == "card_blocked"
    selected = play(state, Move.tap("3S")).state
    assert play(selected, Move.tap("TS")).feedback == "card_blocked"


# -- El final de la partida ------------------------------------------------------------------------

UPPER = deal("7C 7D 7H 6C 6D 6H")  # rows 1–3: three 7s covered by three 6s


def test_the_game_is_won_as_soon_as_the_pyramid_is_empty_even_with_cards_left():
    state = position(DOCUMENTS_LAYOUT, keep={0}, waste="2D", stock="QD AH")
    turn = play(state, Move.from_text("JD+2D"))
    assert turn.state.status == "won" and turn.state.stock == (C("QD"), C("AH"))
    assert turn.events[-1].type == "won" and turn.state.score == 280
    assert illegal(turn.state, "draw") == "game_over"
    assert illegal(turn.state, "undo") == "game_over"
    assert legal_moves(turn.state) == []


def test_blocked_only_when_stock_and_waste_are_empty_and_nothing_can_be_removed():
    blocked = position(UPPER, keep={0, 1, 2, 3, 4, 5})
    assert blocked.status == "blocked"
    assert position(UPPER, keep={0, 1, 2, 3, 4, 5}, stock="AH QH").status == "playing"
    assert position(UPPER, keep={0, 1, 2, 3, 4, 5}, waste="AH QH").status == "playing"
    assert illegal(blocked, "draw") == "game_over"


def test_the_game_goes_on_while_a_card_is_left_to_draw_or_recycle_though_nothing_can_be_removed():
    stuck = position(UPPER, keep={0, 1, 2, 3, 4, 5}, waste="AH QH")
    for _ in range(5):
        stuck = run(stuck, "recycle", "draw", "draw")
        assert stuck.status == "playing"


def test_the_move_that_blocks_the_game_says_so():
    state = position(UPPER, keep={0, 1, 2, 3, 4, 5}, waste="KS")
    turn = play(state, Move.tap("KS"))
    assert turn.state.status == "blocked" and turn.feedback == "blocked"
    assert [event.type for event in turn.events] == ["removed", "blocked"]
    assert str(IllegalMoveError("blocked")) == "No more moves possible"


# -- La puntuación ---------------------------------------------------------------------------------


def test_points_pyramid_pair_20_waste_pair_10_pyramid_king_10_waste_king_0_draw_and_recycle_free():
    assert run(GameState.new(layout=deal_at({21: "TC", 22: "3S"})), "TC+3S").score == 20
    assert run(GameState.new(layout=deal_at({27: "9H", 28: "4C"})), "4C+9H").score == 10
    assert run(GameState.new(layout=deal_at({27: "KD"})), "KD").score == 10
    assert run(GameState.new(layout=deal_at({28: "KH"})), "KH").score == 0
    assert run(DOC, "draw").score == 0
    state = position(DOCUMENTS_LAYOUT, keep={0}, waste="2D")
    assert run(state, "JD+2D").score - state.score == 10
    assert run(DOC, *["draw"] * 23, "recycle").score == 0


# -- Deshacer --------------------------------------------------------------------------------------


def test_undo_puts_the_cards_back_subtracts_the_points_and_keeps_the_counter():
    state = run(DOC, "KD", "TC+3S", "draw")
    undone = run(state, "undo")
    assert undone.waste == DOC.waste and undone.stock == DOC.stock and undone.moves == 3
    undone = run(undone, "undo")
    assert undone.score == 10 and C("TC") in undone.pyramid and undone.moves == 3
    undone = run(undone, "undo")
    assert undone.pyramid == DOC.pyramid and undone.score == 0 and undone.moves == 3
    assert illegal(undone, "undo") == "nothing_to_undo"


def test_undo_of_a_recycle():
    state = run(DOC, *["draw"] * 23, "recycle")
    undone = run(state, "undo")
    assert undone.stock == () and len(undone.waste) == 24 and undone.recycles == 0


def test_undo_reaches_back_100_actions_and_no_further():
    state = run(DOC, *["draw"] * 23, "recycle", *["draw"] * 24, "recycle", *["draw"] * 24, "recycle", *["draw"] * 24)
    assert state.moves == 98
    state = run(state, "recycle", "draw", "draw", "draw")
    assert state.moves == 102 and len(state.history) == 100
    state = run(state, *["undo"] * 100)
    assert state.moves == 102 and state.history == ()
    assert illegal(state, "undo") == "nothing_to_undo"
    assert len(state.waste) == 3  # the two oldest draws are beyond the undo limit


UNLIMITED = {
    "unlimited-undo": PRESETS["unlimited-undo"],
    "with-drawn-pairs": Rules(unlimited_undo=True, drawn_pairs_with_waste=True, initial_waste=False),
    "three-piles": Rules(unlimited_undo=True, waste_piles=3, initial_waste=False),
}


def _walk(rules: Rules) -> tuple[GameState, list[Move], list[GameState]]:
    """A game of random moves and runs of undos, the undo history growing past 3 × UNDO_LIMIT and
    undone back past the window ``replay`` keeps, several times: its start, moves and states."""
    rng = random.Random(23)
    start = GameState.new(seed_code(rules, 2323))
    state, moves, states = start, [], [start]
    for phase in (450, -380, 200, -260, 320, -500):
        for _ in range(abs(phase)):
            options = [move for move in legal_moves(state) if (move.type == "undo") == (phase < 0)]
            if not options:
                break
            moves.append(rng.choice(options))
            state = play(state, moves[-1]).state
            states.append(state)
    return start, moves, states


@pytest.mark.parametrize("rules", UNLIMITED.values(), ids=UNLIMITED)
def test_a_replay_under_unlimited_undo_gives_what_playing_each_move_gives(rules):
    """``replay`` plays on a state holding only the undo history's newest actions (copied whole
    at every move, the history made replays under unlimited undo quadratic): where it leads, its
    whole history included, its refusals, and a replay from a state part-way (a remembered prefix)
    are what playing the moves one by one gives, across undos that reach back past that window."""
    start, moves, states = _walk(rules)
    assert len(moves) > 1_500 and max(len(state.history) for state in states) > 3 * UNDO_LIMIT
    assert states[-1].history == () and any(move.type == "pair" or move.type == "king" for move in moves)
    assert replay(start, moves) == Replay(states[-1], len(moves))
    for cut in (350, 700, 1_000):
        assert replay(states[cut], moves[cut:]) == Replay(states[-1], len(moves) - cut)
        after = next(i for i in range(cut, len(moves)) if states[i].stock)  # a recycle refused there
        refused = replay(start, [*moves[:after], Move.recycle()])
        assert (refused.state, refused.played, refused.refused.code) == (states[after], after, "stock_not_empty")


def test_a_replay_under_unlimited_undo_plays_on_a_bounded_history(monkeypatch):
    """What keeps that replay linear (``python -m tests.bench replay`` prints its µs per action):
    ``play`` never gets a history longer than 3 × UNDO_LIMIT, however long the one replayed."""
    from service.engine import _play

    start, moves, states = _walk(UNLIMITED["unlimited-undo"])
    seen = []
    monkeypatch.setattr(_play, "play", lambda state, move: seen.append(len(state.history)) or play(state, move))
    assert _play.replay(start, moves).state == states[-1]
    assert len(seen) == len(moves) and max(seen) == 3 * UNDO_LIMIT
    assert min(seen[i] for i in range(len(moves)) if len(states[i].history) >= UNDO_LIMIT) >= UNDO_LIMIT


def test_undo_is_allowed_when_blocked():
    state = position(UPPER, keep={0, 1, 2, 3, 4, 5}, waste="KS")
    blocked = run(state, "KS")
    assert run(blocked, "undo").status == "playing"


# -- Variants --------------------------------------------------------------------------------------


def test_strict_win_needs_the_stock_and_waste_cleared_too():
    strict = Rules(strict_win=True)
    state = position(DOCUMENTS_LAYOUT, keep={0}, waste="2D", stock="QD AH", rules=strict)
    after = run(state, "JD+2D")
    # AH and QD can never be in play together: with unlimited recycling the game is over, lost
    assert after.status == "blocked" and after.pyramid_left == 0
    assert legal_moves(after) == [Move.undo()]
    limited = position(DOCUMENTS_LAYOUT, keep={0}, waste="2D", stock="QD AH", rules=Rules(strict_win=True, max_recycles=1))
    after = run(limited, "JD+2D")
    assert run(after, "draw", "draw", "recycle").status == "playing"  # one pass left, then blocked
    assert run(after, "draw", "draw", "recycle", "draw", "draw").status == "blocked"
    both = Rules(strict_win=True, drawn_pairs_with_waste=True)
    state = position(DOCUMENTS_LAYOUT, keep={0}, waste="2D", stock="QD AH", rules=both)
    assert run(state, "JD+2D", "draw", "draw", "AH+QD").status == "won"


def test_limited_recycles():
    one = GameState.new(layout=DOCUMENTS_LAYOUT, rules=Rules(max_recycles=1))
    state = run(one, *["draw"] * 23, "recycle", *["draw"] * 24)
    assert illegal(state, "recycle") == "no_recycles_left"
    assert play(state, Move.tap_stock()).feedback == "no_recycles_left"
    none = GameState.new(layout=DOCUMENTS_LAYOUT, rules=Rules(max_recycles=0))
    assert illegal(run(none, *["draw"] * 23), "recycle") == "no_recycles_left"


def test_with_no_recycles_left_and_nothing_to_remove_the_game_is_blocked():
    rules = Rules(max_recycles=0)
    state = position(UPPER, keep={0, 1, 2, 3, 4, 5}, stock="AH QH", rules=rules)
    state = run(state, "draw")
    assert state.status == "playing"
    assert run(state, "draw").status == "blocked"


def test_variant_drawn_card_pairs_with_the_waste_card_it_covers():
    rules = Rules(drawn_pairs_with_waste=True)
    game = GameState.new(layout=deal(" ".join(codes(DOC.pyramid)) + " 5D 8C"), rules=rules)
    state = run(game, "draw")
    assert Move.pair(C("5D"), C("8C")) in legal_moves(state)
    after = run(state, "5D+8C")
    assert after.waste == () and after.score == 0
    assert GameState.from_json(after.to_json()) == after  # its history checks out
    assert run(after, "undo").waste == (C("5D"), C("8C"))
    tapped = play(play(state, Move.tap("8C")).state, Move.tap("5D")).state
    assert tapped.waste == ()


def test_variant_only_the_card_just_drawn_pairs_with_the_card_it_covers():
    """«la carta que se acaba de robar»: a pair within the pyramid leaves it the card just drawn;
    a card drawn onto it and removed does not give it back that standing."""
    rules = Rules(drawn_pairs_with_waste=True)
    game = GameState.new(layout=deal(" ".join(codes(DOC.pyramid)) + " 5D 8C 6D"), rules=rules)
    drawn = run(game, "draw")
    assert Move.pair(C("5D"), C("8C")) in legal_moves(run(drawn, "KD"))  # a King of the pyramid
    lapsed = run(run(drawn, "draw"), "6D+7C")
    assert lapsed.waste[-2:] == (C("5D"), C("8C")) and Move.pair(C("5D"), C("8C")) not in legal_moves(lapsed)
    assert illegal(lapsed, "5D+8C") == "card_not_free"
    with pytest.raises(IllegalMoveError):
        play(play(lapsed, Move.tap("8C")).state, Move.tap("5D"))
    back = run(run(lapsed, "undo"), "undo")
    assert back.waste == drawn.waste and Move.pair(C("5D"), C("8C")) in legal_moves(back)


def test_variant_a_card_pairs_with_its_only_covering_card():
    rules = Rules(pair_with_covering=True)
    state = run(GameState.new(layout=DOCUMENTS_LAYOUT, rules=rules), "KD")
    assert Move.pair(C("TS"), C("3S")) in legal_moves(state)
    after = run(state, "TS+3S")
    assert after.score == 30
    assert play(play(state, Move.tap("3S")).state, Move.tap("TS")).state == after
    # both coverers present: still blocked
    assert illegal(GameState.new(layout=DOCUMENTS_LAYOUT, rules=rules), "TS+3S") == "card_blocked"


# -- Malformed moves -------------------------------------------------------------------------------


@pytest.mark.parametrize("text, code", [("XX", "unknown_card"), ("7C+7C", "same_card"), ("1C+QS", "unknown_card")])
def test_malformed_moves(text, code):
    with pytest.raises(InvalidMoveError) as info:
        Move.from_text(text)
    assert info.value.code == code


@pytest.mark.parametrize("text", ["TC+3S", "KD", "draw", "recycle", "undo", "tap:7S", "tap:stock"])
def test_move_text_round_trip(text):
    move = Move.from_text(text)
    assert str(move) == text and Move.from_json(move.to_json()) == move


def test_card_aliases():
    assert Move.from_text("10C+3S") == Move.from_text("3S+TC") == Move.from_text("10♣+3♠")


def test_the_triangles_tables_for_7_and_10_rows():
    """Slot (r, i) is covered by (r+1, i) and (r+1, i+1); the bottom row by nothing. Written apart
    from the engine's tables, which are built at import (docs/mutation.md)."""
    from service.engine._layout import row_slots
    from service.engine._shape import COVERED_BY_SLOTS

    for rows in (7, 10):
        slots = rows * (rows + 1) // 2
        index = {}
        for row in range(1, rows + 1):
            for pos in range(1, row + 1):
                index[row, pos] = len(index)
        assert [len(row) for row in row_slots(slots)] == list(range(1, rows + 1))
        assert [slot for row in row_slots(slots) for slot in row] == list(range(slots))
        for (row, pos), slot in index.items():
            below = () if row == rows else (index[row + 1, pos], index[row + 1, pos + 1])
            assert COVERED_BY_SLOTS[slots][slot] == below


def test_a_finished_game_has_nothing_in_hand():
    """The card selected when the game ends (blocked by the last draw, or won by a King tapped while
    a waste card was in hand) is put down: a state with a card selected in a finished game is one
    the API refuses (``selected_over``), so the engine never issues it."""
    layout = GameState.new(code="PY1-N-AAAAAAS").layout  # the documents' deal: 7S at slot 27, KD at 26
    # the 8C drawn onto 5C does not pair with it (only the waste top counts), nor with 7S
    blocked = position(layout, keep={27}, stock="8C", waste="6H 5C", rules=Rules(max_recycles=0))
    state = run(blocked, "tap:7S")
    assert state.selected == C("7S")
    turn = play(state, Move.from_text("tap:stock"))
    assert turn.state.status == "blocked" and turn.state.selected is None
    won = position(layout, keep={26}, waste="6H 7S")
    state = run(won, "tap:7S")
    assert state.selected == C("7S")
    turn = play(state, Move.from_text("tap:KD"))
    assert turn.state.status == "won" and turn.state.selected is None
