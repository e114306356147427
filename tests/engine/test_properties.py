"""Properties over random games (hypothesis): random deals, random rule sets, random moves."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine import (
    DECK,
    UNDO_LIMIT,
    GameState,
    IllegalMoveError,
    Move,
    Rules,
    legal_moves,
    play,
    seed_code,
)

rules_strategy = st.builds(
    Rules,
    strict_win=st.booleans(),
    max_recycles=st.none() | st.integers(0, 3),
    drawn_pairs_with_waste=st.booleans(),
    pair_with_covering=st.booleans(),
    initial_waste=st.booleans(),
    draw_count=st.sampled_from([1, 3]),
    rows=st.sampled_from([7, 10]),
    deck=st.sampled_from(["french", "spanish"]),
)
games = st.builds(lambda rules, seed: GameState.new(seed_code(rules, seed)), rules_strategy, st.integers(0, 26**7 - 1))


def check_invariants(state: GameState) -> None:
    piles = [card for pile in state.piles for card in pile]  # Apophis's waste piles 2 and 3
    places = [card for card in state.pyramid if card] + list(state.stock + state.waste + state.foundation) + piles
    deck = state.rules.cards  # the 52 cards, the Spanish 48, or two decks
    assert sorted(places, key=lambda card: card.index) == sorted(deck, key=lambda card: card.index)  # each once
    assert state.score == 10 * (len(state.pyramid) - state.pyramid_left)
    state.check()  # a reachable state by the engine's own validation
    assert GameState.from_json(state.to_json()) == state


def without_counter(state: GameState) -> GameState:
    return state.evolve(moves=0, selected=None, log=())


@settings(max_examples=60, deadline=None)
@given(games, st.lists(st.integers(0, 10_000), min_size=1, max_size=120), st.data())
def test_random_play_keeps_every_invariant(game, choices, data):
    state = game
    for choice in choices:
        moves = legal_moves(state)
        if not moves:
            assert state.status != "playing"
            break
        move = moves[choice % len(moves)]
        if choice % 7 == 0:  # now and then a tap on any card, or on the stock
            target = data.draw(st.sampled_from(DECK))
            move = Move.tap(target) if choice % 2 else Move.tap_stock()
        try:
            turn = play(state, move)
        except IllegalMoveError as error:
            assert move.type in ("tap", "undo") and error.code in ("card_not_free", "game_over")
            continue
        after = turn.state
        check_invariants(after)
        assert after.moves >= state.moves
        removed = [event for event in turn.events if event.type == "removed"]
        if removed:
            assert after.score - state.score == removed[0].points
        if after.moves == state.moves + 1 and len(state.history) < UNDO_LIMIT and after.status != "won":
            undone = play(after, Move.undo()).state  # undo is an exact inverse but for the counter
            assert without_counter(undone) == without_counter(state)
            assert undone.moves == after.moves and undone.log == after.log + ("undo",)
        state = after


@settings(max_examples=40, deadline=None)
@given(games, st.lists(st.integers(0, 10_000), max_size=60), st.lists(st.tuples(st.sampled_from(DECK), st.sampled_from(DECK)), min_size=1, max_size=20))
def test_a_removal_is_accepted_exactly_when_it_is_listed_as_legal(game, choices, attempts):
    state = game
    for choice in choices:
        moves = legal_moves(state)
        if not moves or state.status != "playing":
            break
        state = play(state, moves[choice % len(moves)]).state
    if state.status != "playing":
        return
    legal = set(legal_moves(state))
    for a, b in attempts:
        move = Move.king(a) if a == b else Move.pair(a, b)
        try:
            play(state, move)
            accepted = True
        except IllegalMoveError:
            accepted = False
        assert accepted == (move in legal), move
