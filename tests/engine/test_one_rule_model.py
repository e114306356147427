"""``play`` decides a removal by the moves of the position (``_position.Deal.steps``, issue 37), and
its refusals' reasons come from the rules' sentences in ``_play.py``: a move the generator drops is
refused, by a move and by taps, though every sentence allows it; a move it lists is played."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service.engine import DOCUMENTS_LAYOUT, GameState, IllegalMoveError, Move, Rules, legal_moves, play, seed_code
from service.engine import _play, _position
from tests.helpers import C, random_games, run

COVERING = run(GameState.new(layout=DOCUMENTS_LAYOUT, rules=Rules(pair_with_covering=True)), "KD")


def without(monkeypatch: pytest.MonkeyPatch, cards: set[str]) -> None:
    """``Deal.steps`` (the moves of a position) with the removal of exactly ``cards`` left out."""
    steps = _position.Deal.steps

    def dropping(self: _position.Deal, position: _position.Position, **options: bool) -> Iterator[_position.Step]:
        for step in steps(self, position, **options):
            if step[0] in ("king", "pair") and {self.card(where).code for where in step[1:]} == cards:  # type: ignore[union-attr]
                continue
            yield step

    monkeypatch.setattr(_position.Deal, "steps", dropping)


@pytest.mark.parametrize(
    "state, move, taps",
    [
        (GameState.new(layout=DOCUMENTS_LAYOUT), "TC+3S", ["TC", "3S"]),  # two free cards
        (GameState.new(layout=DOCUMENTS_LAYOUT), "KD", ["KD"]),  # a King
        (COVERING, "TS+3S", ["3S", "TS"]),  # «la única carta que todavía la cubre»
    ],
)
def test_a_removal_the_moves_leave_out_is_refused_by_move_and_by_taps(monkeypatch, state, move, taps):
    """Every sentence allows these (the first assertion); with the generator leaving the move out,
    ``play`` refuses it: it cannot play what the moves of the position do not list."""
    played = play(state, Move.from_text(move)).state
    assert all(card not in played.pyramid for card in map(C, taps))
    without(monkeypatch, set(taps))
    assert Move.from_text(move) not in legal_moves(state)
    with pytest.raises(RuntimeError, match="no rule refuses it"):
        play(state, Move.from_text(move))
    with pytest.raises(RuntimeError, match="no rule refuses it"):
        for tap in taps:
            state = play(state, Move.tap(tap)).state


def test_a_refused_removal_keeps_the_sentences_reason():
    """The generator decides; the reason is the first sentence the move breaks."""
    doc = GameState.new(layout=DOCUMENTS_LAYOUT)
    for text, code in [("TS+3S", "card_blocked"), ("7C+TC", "sum_not_13"), ("QS", "not_a_king"), ("5C+8C", "card_not_free")]:
        with pytest.raises(IllegalMoveError) as info:
            play(doc, Move.from_text(text))
        assert info.value.code == code, text


@pytest.mark.parametrize("letters", ["N", "S", "DT2", "CD", "CDT1", "CT0", "AT2", "DKT", "P", "E", "EP"])
def test_the_rules_sentences_and_the_moves_of_a_position_agree(letters):
    """At every position of random games, for every King and every two cards summing the pair sum
    among the pyramid, the waste piles' top two cards and the stock's top: the sentences of
    ``_play`` (which give a refusal's reason) allow exactly the removals ``Deal.steps`` lists (which
    ``play`` makes). A rule written in one and not the other fails here, not as a 500."""
    rules = Rules.from_letters(letters)
    checked = listed = 0
    for state, _ in random_games(rules, seeds=3, steps=60):
        cards = [card for card in state.pyramid if card is not None] + list(state.stock[:1])
        for pile in (state.waste, *state.piles):
            cards += pile[-2:]
        removals = [(a,) for a in cards if a.is_king]
        removals += [(a, b) for i, a in enumerate(cards) for b in cards[i + 1 :] if a.value + b.value == a.deck.pair_sum]
        for removal in removals:
            is_listed = _play.is_listed(state, removal)
            assert (_play.sentence_broken(state, removal) is None) == is_listed, (state.log, removal)
            checked += 1
            listed += is_listed
    assert checked > 1000 and 0 < listed < checked


def test_a_position_set_up_by_hand_plays_what_it_lists():
    """A card moved by hand to another slot, its dealt slot empty (tests do set positions up so):
    the removals the moves of the position list are played, by a move and by taps."""
    game = GameState.new(seed_code(Rules(), 0))
    moved = next(card for card in reversed(game.pyramid[1:27]) if not card.is_king)  # (its slot left empty)
    partner = next(card for card in Rules().cards if card.value + moved.value == 13)
    king = next(card for card in Rules().cards if card.is_king)
    position = game.evolve(pyramid=(moved,) + (None,) * 26 + (king,), waste=(partner,), stock=())
    listed = {str(move) for move in legal_moves(position)}
    assert {str(Move.pair(moved, partner)), str(Move.king(king))} <= listed
    for taps in ([moved, partner], [partner, moved]):
        turn = play(play(position, Move.tap(taps[0].code)).state, Move.tap(taps[1].code))
        assert turn.state.pyramid[0] is None and turn.state.waste == ()
    assert play(position, Move.pair(moved, partner)).state.pyramid[0] is None
    assert play(position, Move.king(king)).state.pyramid[27] is None
