"""The moves of a position are generated in one place (``_position.Deal.moves``, issue 37): the
engine's legal moves come from it, the general search's children are it with the searches'
reductions, and the fast model's pyramid part is its ``pyramid_moves``; its waste part, written
for its own encoding for speed, and the shortest search's runs of draws, which enumerate the same
moves a run at a time, are checked here.

Each check walks random games of a rule set through the engine and compares, at every position,
the moves a search would try with the engine's ``legal_moves`` (undo aside)."""

from __future__ import annotations

import pytest

from service.engine import PRESETS, Move, Rules, play
from service.engine._solver.general import GeneralSearch
from service.engine._solver.bounds import Bounds
from service.engine._solver.budget import Budget
from service.engine._solver.estimate import Estimate
from service.engine._solver.model import Model
from service.engine._solver.shortest import ShortestSearch
from service.engine._solver.options import SearchOptions
from tests.helpers import random_games

#: The fast model's rule sets: one waste pile, one card a draw, every other option on and off.
FAST = {
    "N": Rules(),
    "limited, mazo contra descarte": Rules(max_recycles=2, drawn_pairs_with_waste=True, initial_waste=False),
    "one pass, strict": Rules(max_recycles=0, strict_win=True),
    "covering, mazo contra descarte, no recycle left": Rules(pair_with_covering=True, drawn_pairs_with_waste=True, max_recycles=1),
    "strict, unlimited": Rules(strict_win=True, drawn_pairs_with_waste=True),
}
#: The general search's rule sets: every preset of the game's other shapes, and options beside them.
GENERAL = {
    **{name: PRESETS[name] for name in ("tuts-tomb", "apophis", "pharaoh", "spanish")},
    "three a draw, covering": Rules(draw_count=3, pair_with_covering=True, max_recycles=1),
    "N": Rules(),
    "covering, mazo contra descarte": Rules(pair_with_covering=True, drawn_pairs_with_waste=True),
}


def fast_move(model: Model, step: tuple) -> Move:
    """The engine's move for a step of the fast model."""
    kind, slots, pile = step
    if kind == "king":
        return Move.king(model.slot_cards[slots] if slots is not None else model.pile[pile])
    if kind == "pair":
        cards = [model.slot_cards[slot] for slot in slots]
        cards += [model.pile[i] for i in (pile if isinstance(pile, tuple) else () if pile is None else (pile,))]
        return Move.pair(*cards)
    return Move.draw() if kind == "draw" else Move.recycle()


@pytest.mark.parametrize("name", FAST)
def test_the_fast_model_tries_exactly_the_engines_moves(name: str):
    rules = FAST[name]
    compared = 0
    for state, moves in random_games(rules, seeds=16, steps=120):
        model = Model(state, SearchOptions(pooled=False))
        tried = [fast_move(model, step) for step, _ in model.children(*model.encode(state, model.pile), every_king=True)]
        free_kings = [move for move in moves if move.type == "king" and move.cards[0] in state.pyramid]
        if free_kings:  # a free pyramid King alone, the first the engine lists
            assert tried == free_kings[:1], (state.code, state.log)
        else:
            assert sorted(map(str, tried)) == sorted(map(str, moves)), (state.code, state.log)
        compared += 1
    assert compared > 400


@pytest.mark.parametrize("name", GENERAL)
def test_the_general_search_tries_exactly_the_engines_moves(name: str):
    rules = GENERAL[name]
    compared = 0
    for state, moves in random_games(rules, seeds=14, steps=120):
        run = GeneralSearch(state, 1)
        tried = [run.deal.move(step) for step, _ in run.children(run.encode(state), every_king=True)]
        free_kings = [move for move in moves if move.type == "king" and move.cards[0] in state.pyramid]
        if free_kings:
            assert tried == free_kings[:1], (state.code, state.log)
        else:
            assert sorted(map(str, tried)) == sorted(map(str, moves)), (state.code, state.log)
        compared += 1
    assert compared > 250


def test_a_position_after_each_move_is_the_engines():
    """``Deal.moves`` gives, with each step, the position the engine's move leads to."""
    for name in ("tuts-tomb", "apophis"):
        for state, _ in random_games(PRESETS[name], seeds=4, steps=80):
            run = GeneralSearch(state, 1)
            for step, after in run.deal.moves(run.encode(state)):
                assert run.key(after) == run.key(run.encode(play(state, run.deal.move(step)).state)), (state.log, step)


def runs_from_children(model: Model, position: tuple[int, int, int, int]) -> list[tuple]:
    """Every run from ``position`` (k ≥ 0 draws, then one move that is not a draw) composed from
    ``Model.children`` (checked above against the engine's moves): a pair within the pyramid only with no
    draw before it (the run search's reduction: it changes nothing a draw depends on)."""
    found, at, draws = [], position, 0
    while True:
        following = None
        for step, child in model.children(*at, every_king=True):
            if step[0] == "draw":
                following = child
            elif not (draws and step[0] == "pair" and step[2] is None):
                found.append((draws, step, child))
        if following is None:
            return found
        at, draws = following, draws + 1


@pytest.mark.parametrize("name", FAST)
def test_the_runs_of_the_shortest_search_are_the_moves_of_the_one_generator(name: str):
    """The shortest-line search enumerates its runs of draws itself, for speed
    (``ShortestSearch.runs``): they are the runs ``Model.children`` makes, move for
    move, but where a pair within the pyramid one of whose cards has no other partner left goes at
    once (every winning line makes it: the only run then tried, one of those the moves make)."""
    rules = FAST[name]
    compared = reduced = 0
    for state, _ in random_games(rules, seeds=8, steps=100):
        model = Model(state, SearchOptions(pooled=False))
        search = ShortestSearch(model, Estimate(model, Bounds(model, True)), Budget(1 << 30))
        position = model.encode(state, model.pile)
        runs = sorted(map(repr, search.runs(*position)))
        expected = sorted(map(repr, runs_from_children(model, position)))
        only = list(search.runs(*position))
        if runs != expected and len(only) == 1 and only[0][1][0] == "pair" and only[0][1][2] is None:
            assert runs[0] in expected, (state.code, state.log)
            # the reduction's condition: one of the two cards has no other partner left
            pyramid, removed = position[0], position[1]
            a, b = only[0][1][1]
            assert any(
                search.partner_slots[slot] & pyramid == 1 << other
                and not model.pile_of_value[model.pair_sum - model.values[slot]] & ~removed
                for slot, other in ((a, b), (b, a))
            ), (state.code, state.log)
            reduced += 1
        else:
            assert runs == expected, (state.code, state.log)
            compared += 1
    assert compared > 200 and reduced > 0
