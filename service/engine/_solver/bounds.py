"""Bounds on what a position can still reach: the pyramid cards that can never be paired
(``hopeless``), from what each pyramid card needs from the pile (``needs``).

Invariant: a position called hopeless has no winning line (each cut is a proof: a card of value v
needs a partner of value 13 − v it can meet); a bound never cuts a win, so every search gives the
same verdicts with the cut and without it (``SearchOptions(needs=False)``).
"""

from __future__ import annotations

from .model import Model, ones


class Bounds:
    """The bounds of one deal's ``Model``: ``partner_slots`` and the cache of ``needs``
    (``use_needs`` False: nothing is needed, no position is hopeless)."""

    def __init__(self, model: Model, use_needs: bool) -> None:
        self.model = model
        self.use_needs = use_needs
        self.values = model.values
        self.pair_sum = model.pair_sum
        self.pile_of_value = model.pile_of_value
        self.needs_cache: dict[int, tuple[tuple[int, int], ...]] = {}
        # for each slot: the pyramid slots holding a partner it could ever meet
        self.partner_slots: list[int] = []
        slots, total = range(model.slots), model.pair_sum
        for slot in slots:
            value = self.values[slot]
            self.partner_slots.append(
                sum(1 << other for other in slots if value + self.values[other] == total and self.may_meet(slot, other))
            )

    def may_meet(self, a: int, b: int) -> bool:
        """Two pyramid cards can both be free at once unless one covers the other (directly or
        not); with «carta y carta que la cubre», a card and its direct coverer may still pair."""
        below, cover = self.model.below_mask, self.model.cover_mask
        if not (below[a] >> b & 1 or below[b] >> a & 1):
            return True
        return self.model.covering and bool(cover[a] >> b & 1 or cover[b] >> a & 1)

    def needs(self, pyramid: int) -> tuple[tuple[int, int], ...]:
        """What the pyramid cards need from the pile: (count, mask) when at least ``count`` pile
        cards of ``mask`` (a value) must still be there. Each card of value v pairs with a card of
        value 13 − v: so with at least as many of those as the cards of v that no pyramid card
        left could ever meet, and as the cards of v the pyramid holds beyond its cards of 13 − v.
        Cached per pyramid; nothing is needed with ``SearchOptions(needs=False)``."""
        if not self.use_needs:
            return ()
        found = self.needs_cache.get(pyramid)
        if found is None:
            held, lonely = self.value_counts(pyramid)
            total = self.pair_sum
            found = self.needs_cache[pyramid] = tuple(
                (count, self.pile_of_value[total - value])
                for value in range(1, total)
                if (count := max(held[value] - held[total - value], lonely[value])) > 0
            )
        return found

    def hopeless(self, pyramid: int, removed: int) -> bool:
        """Some pyramid card can never be paired: too few partners are left (see ``needs``)."""
        for count, partners in self.needs(pyramid):
            if ones(partners & ~removed) < count:
                return True
        return False

    def value_counts(self, pyramid: int) -> tuple[list[int], list[int]]:
        """Per value (1–13): how many cards of it the pyramid holds, and how many of those no
        pyramid card left could ever meet (no partner slot still in ``pyramid``)."""
        held, lonely = [0] * (self.pair_sum + 1), [0] * (self.pair_sum + 1)
        remaining = pyramid
        while remaining:
            low = remaining & -remaining
            slot = low.bit_length() - 1
            remaining ^= low
            held[self.values[slot]] += 1
            if not self.partner_slots[slot] & pyramid:
                lonely[self.values[slot]] += 1
        return held, lonely
