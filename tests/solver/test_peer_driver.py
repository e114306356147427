"""The driver that runs the peer (mchung94/solitaire-player's Pyramid solver) beside ours
(tests/bench/bench_peer.py): its deals, its reading of the peer's answers, and the two ways of
counting a line. Only the last test runs Java, and only where the peer is built."""

from __future__ import annotations

import os

import pytest

from service.engine import Move, PyramideError
from tests.bench.bench_peer import (
    DT2,
    PEER_ENV,
    Peer,
    PeerAction,
    card_of,
    our_deal,
    our_line,
    parse_action,
    peer_classpath,
    peer_count,
    peer_deals,
    replay,
)

#: The first deal of seed 1, and the line the peer's A* answered for it (44 actions; its
#: BoardChallengeSolver, built from the source at commit f373fd9, 2025-12).
FIRST_DEAL = (
    "Js Tc Qh Td 3c Kh 7d Qc Th 6c 4h Ks 5s 3d Jd 8s 9s 9d 2s As Kc Qs 7h 8d Kd Ah 9h Jc 8h 4c 6d 2d 5d 6s Ac 2h "
    "4s 2c 7s 7c Ad Qd 3s 5h 3h 6h 8c 4d 5c Ts Jh 9c"
)
PEER_LINE = [
    "Remove [Kd] ([24])", "Draw", "Remove [9h, 4c] ([26, Stock])", "Remove [7h, 6d] ([22, Stock])", "Draw",
    "Remove [8d, 5d] ([23, Stock])", "Draw", "Remove [Qs, Ac] ([21, Stock])", "Remove [Jc, 2h] ([27, Stock])",
    "Remove [9s, 4s] ([16, Stock])", "Remove [Kc] ([20])", "Draw", "Draw", "Draw", "Draw", "Remove [Ah, Qd] ([25, Stock])",
    "Draw", "Draw", "Draw", "Draw", "Draw", "Remove [9d, 4d] ([17, Stock])", "Remove [Ks] ([11])",
    "Remove [8c, 5c] ([Waste, Stock])", "Draw", "Remove [2s, Jh] ([18, Stock])", "Remove [5s, 8s] ([12, 15])",
    "Remove [4h, 9c] ([10, Stock])", "Remove [Qc, As] ([7, 19])", "Remove [3d, Ts] ([13, Waste])",
    "Remove [7d, 6h] ([6, Waste])", "Remove [Th, 3h] ([8, Waste])", "Remove [Td, 3c] ([3, 4])", "Recycle", "Draw", "Draw",
    "Draw", "Remove [Jd, 2c] ([14, Stock])", "Remove [6c, 7s] ([9, Stock])", "Remove [Kh] ([5])",
    "Remove [6s, 7c] ([Waste, Stock])", "Remove [Qh, Ad] ([2, Stock])", "Remove [Tc, 3s] ([1, Stock])",
    "Remove [Js, 2d] ([0, Waste])",
]  # fmt: skip


def test_seed_1_deals_its_decks_the_same_every_time():
    decks = peer_deals(1, 30)
    assert decks[0] == FIRST_DEAL
    assert len(set(decks)) == 30 and decks == peer_deals(1, 30)
    assert all(sorted(deck.split()) == sorted(FIRST_DEAL.split()) for deck in decks)
    assert peer_deals(2, 1)[0] != FIRST_DEAL


def test_the_peers_deck_is_our_deal_card_for_card():
    game = our_deal(FIRST_DEAL)
    assert game.rules == DT2 and game.code.startswith("PYR1-DT2-")
    assert [card.code for card in game.pyramid] == [card_of(card) for card in FIRST_DEAL.split()[:28]]
    assert game.waste == ()
    assert [card.code for card in game.stock] == [card_of(card) for card in FIRST_DEAL.split()[28:]]
    assert game.stock[0].code == "8H"  # (the peer's index 28: its stock's top)


@pytest.mark.parametrize("text", ["10h", "Tx", "th", "T"])
def test_a_card_the_peer_does_not_write_is_refused(text):
    with pytest.raises(ValueError):
        card_of(text)


def test_the_peers_actions_are_read():
    assert parse_action("Draw") == PeerAction("draw")
    assert parse_action("Recycle") == PeerAction("recycle")
    assert parse_action("Remove [Kd] ([24])") == PeerAction("remove", ("KD",), ("24",))
    action = parse_action("Remove [8c, 5c] ([Waste, Stock])")
    assert action == PeerAction("remove", ("8C", "5C"), ("Waste", "Stock")) and action.from_stock
    assert not parse_action("Remove [3d, Ts] ([13, Waste])").from_stock
    for text in ("Remove [Kd]", "Remove [Kd, 2c] ([24])", "draw", "Remove [Kd] (24)"):
        with pytest.raises(ValueError):
            parse_action(text)


def test_the_peers_line_wins_in_our_engine_with_a_draw_before_each_stock_removal():
    game = our_deal(FIRST_DEAL)
    actions = [parse_action(text) for text in PEER_LINE]
    line = our_line(actions)
    from_stock = sum(action.from_stock for action in actions)
    assert len(line) == len(PEER_LINE) + from_stock == 44 + 16
    assert replay(game, line).status == "won"
    # Without those draws the line is not ours: the peer's stock top is not in play here.
    with pytest.raises(PyramideError):
        replay(game, [Move.draw() if a.kind == "draw" else Move.recycle() if a.kind == "recycle" else
                      Move.king(a.cards[0]) if len(a.cards) == 1 else Move.pair(*a.cards) for a in actions])  # fmt: skip


def test_a_line_counted_the_peers_way_drops_the_draws_of_cards_removed_at_once():
    game = our_deal(FIRST_DEAL)
    line = our_line([parse_action(text) for text in PEER_LINE])
    assert peer_count(game, line) == len(PEER_LINE)
    assert [card.code for card in game.stock[:3]] == ["8H", "4C", "6D"]
    # Cards drawn and then covered by the next draw cost the peer their draws too.
    assert peer_count(game, [Move.draw(), Move.draw()]) == 2
    # A drawn card removed with nothing drawn onto it, even after a pyramid move, was the peer's stock top.
    assert peer_count(game, [Move.draw(), Move.draw(), Move.pair("9H", "4C")]) == 2
    assert peer_count(game, [Move.draw(), Move.draw(), Move.king("KD"), Move.pair("9H", "4C")]) == 3
    # 4C covered by 6D, then uncovered: the peer drew it (to its waste); 6D it did not.
    line = [Move.draw(), Move.draw(), Move.draw(), Move.pair("7H", "6D"), Move.pair("9H", "4C")]
    assert peer_count(game, line) == 4
    assert peer_count(game, line[:3]) == 3


@pytest.mark.skipif(peer_classpath(os.environ.get(PEER_ENV)) is None,
                    reason=f"the peer is not built: make peer PEER_SRC=<a checkout of mchung94/solitaire-player>, then {PEER_ENV}=build/peer")  # fmt: skip
def test_the_built_peer_answers_the_first_deal_as_recorded():
    peer = Peer(peer_classpath(os.environ[PEER_ENV]))
    try:
        answer = peer.solve(FIRST_DEAL)
    finally:
        peer.close()
    assert answer["solved"] and answer["actions"] == PEER_LINE
