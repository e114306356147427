"""A one-pass Pyramid solver written from the published rules alone, to check ours against.

It shares no code with the engine or its solver (the deal aside), and models the game as the
sources of the published one-pass win rates word it, not as our state does. Solitaire
Laboratory's «Pyramid and Giza» (M. Keller and M. Masten): "Stock cards which are not discarded
when turned up are placed on the top of a waste pile. Cards available for discarding are any
uncovered cards in the pyramid, the top of the waste, and the stock card most recently dealt."
Microsoft Solitaire Collection says the same with the stock's top card face up and available.
Here the stock's top is available, as in Microsoft's wording: a stock card dealt and held is
the stock's top not yet moved, and dealing it costs nothing, as every card is known. (Our engine
instead puts a drawn card on the waste at once, and lets it pair with the card beneath it: «mazo
contra descarte».) Overlap discards are solitairewinrates.com's: "a pair of cards in the Pyramid
that add up to 13, if one card in the pair is overlapped by the other (but not if it's overlapped
by a second card as well)".

Cards are plain values 1-13 (suits never matter). The pyramid is given row by row from the top,
None where a card is gone.

Run it on deals, against the solver's verdicts (every deal the solver wins, and every 20th it
calls lost)::

    python -m tests.reference_one_pass DT0 --deals 10000   # about 40 minutes on one core
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

ROWS = 7
_SLOT: dict[tuple[int, int], int] = {}
for _row in range(ROWS):
    for _pos in range(_row + 1):
        _SLOT[_row, _pos] = len(_SLOT)
#: The cards overlapping each pyramid card, as a bit mask (none for the bottom row).
OVERLAPPED_BY: list[int] = [
    0 if row == ROWS - 1 else 1 << _SLOT[row + 1, pos] | 1 << _SLOT[row + 1, pos + 1]
    for row in range(ROWS)
    for pos in range(row + 1)
]


class OutOfPositions(Exception):
    pass


def one_pass_winnable(
    pyramid: Sequence[int | None],
    stock: Sequence[int],
    *,
    waste: Sequence[int] = (),
    all_cards: bool,
    overlap: bool,
    limit: int,
) -> bool:
    """Can every pyramid card (with ``all_cards``, every card) be discarded in what is left of
    the one pass? ``stock`` top first, ``waste`` top last. Tries every discard and deal from
    every position, each position once; raises ``OutOfPositions`` past ``limit`` positions."""
    cards = list(waste) + list(stock)  # in the order dealt: the first `dealt` are on the waste
    everything = (1 << len(cards)) - 1
    seen: set[tuple[int, int, int]] = set()

    def search(left: int, dealt: int, gone: int) -> bool:
        # left: the pyramid cards still there; dealt: how many cards were dealt to the waste or
        # discarded from the stock (the stock's top is cards[dealt]); gone: the waste and stock
        # cards discarded.
        while dealt < len(cards) and gone >> dealt & 1:
            dealt += 1
        if not left and (not all_cards or gone == everything):
            return True
        if (left, dealt, gone) in seen:
            return False
        seen.add((left, dealt, gone))
        if len(seen) > limit:
            raise OutOfPositions
        # Each available card: (its value, its pyramid bit, its bit among the other cards).
        uncovered = [slot for slot in range(len(pyramid)) if left >> slot & 1 and not left & OVERLAPPED_BY[slot]]
        available = [(pyramid[slot], 1 << slot, 0) for slot in uncovered]
        if dealt < len(cards):
            available.append((cards[dealt], 0, 1 << dealt))
        waste_top = next((i for i in range(dealt - 1, -1, -1) if not gone >> i & 1), None)
        if waste_top is not None:
            available.append((cards[waste_top], 0, 1 << waste_top))

        def discard(*chosen: tuple[int | None, int, int]) -> bool:
            return search(left & ~sum(card[1] for card in chosen), dealt, gone | sum(card[2] for card in chosen))

        king = next((card for card in available if card[0] == 13), None)
        if king is not None:  # a King is discarded alone, and discarding it never hurts
            return discard(king)
        for i, card in enumerate(available):
            for other in available[i + 1 :]:
                if card[0] + other[0] == 13 and discard(card, other):
                    return True
        if overlap:  # a card and the one card still overlapping it, itself uncovered
            for slot in range(len(pyramid)):
                over = left & OVERLAPPED_BY[slot]
                if left >> slot & 1 and over and over & (over - 1) == 0:
                    top = over.bit_length() - 1
                    pair = ((pyramid[slot], 1 << slot, 0), (pyramid[top], over, 0))
                    if not left & OVERLAPPED_BY[top] and pyramid[slot] + pyramid[top] == 13 and discard(*pair):
                        return True
        # Deal the stock's top onto the waste.
        return dealt < len(cards) and search(left, dealt + 1, gone)

    return search(sum(1 << slot for slot, card in enumerate(pyramid) if card is not None), len(waste), 0)


def main(argv: list[str] | None = None) -> None:
    from service.engine import GameState, Rules, seed_code, solve

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rules", help="a one-pass rule set with a 24-card stock: DT0, DST0, CDT0 or CDST0")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--limit", type=int, default=5_000_000)
    args = parser.parse_args(argv)
    rules = Rules.from_letters(args.rules)
    won = lost = differ = 0
    for seed in range(args.start, args.start + args.deals):
        deal = GameState.new(seed_code(rules, seed))
        verdict = solve(deal, max_removable=False).result
        if verdict == "unknown" or (verdict == "unwinnable" and seed % 20):
            continue
        try:
            reference = one_pass_winnable(
                [card.value for card in deal.pyramid],
                [card.value for card in deal.stock],
                all_cards=rules.strict_win,
                overlap=rules.pair_with_covering,
                limit=args.limit,
            )
        except OutOfPositions:
            print(f"seed {seed}: solver {verdict}, reference out of positions", flush=True)
            continue
        won += verdict == "winnable"
        lost += verdict == "unwinnable"
        if reference != (verdict == "winnable"):
            differ += 1
            print(f"seed {seed}: solver {verdict}, reference {'winnable' if reference else 'unwinnable'}", flush=True)
    print(
        f"{args.rules}, seeds {args.start}-{args.start + args.deals - 1}: {won} deals the solver wins and "
        f"{lost} it calls lost (every 20th) checked, {differ} verdicts differ"
    )


if __name__ == "__main__":
    main()
