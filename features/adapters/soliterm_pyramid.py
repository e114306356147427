"""An adapter for the kit's subprocess driver around an outside engine: the Pyramid of
`soliterm <https://pypi.org/project/soliterm/>`_ (MIT), a reimplementation of GNOME AisleRiot's
games that nobody in this project wrote.

    pyramide-conformance --driver-command "python -m features.adapters.soliterm_pyramid"

The adapter **translates; soliterm decides**. It writes a layout into soliterm's slots as
soliterm's own deal would (a pyramid card face up when nothing covers it), turns the kit's moves
into soliterm's actions (a pair is a card dropped on its partner, or the waste's top card dropped
on the foundation when its partner is under it; a King is dropped on the foundation; ``draw`` is a
click on the stock; ``undo`` is soliterm's undo), and reads the game back: the slots, soliterm's
score and move counter, and the events as the difference between two positions (the cards that
reached the foundation, the card turned onto the waste, the points gained). Whether a move is
legal, what it scores and when the game is won or stuck are soliterm's answers, never the
adapter's: a refused move is refused because soliterm's ``attempt_move`` or ``click`` said no, with
the machine code read from soliterm's own reason (``… make 14, not 13`` is ``sum_not_13``).

What soliterm does not have is declared missing in the hello: tap play (no selection: a pair is a
drag), messages in the documents' words (its reasons are its own, in English), Pyramide's deal
codes, the rules options (soliterm plays one rule set) and 003's variants of another shape.
``docs/conformance-soliterm.md`` is the kit's report on it, each failure classified.
"""

from __future__ import annotations

import re
from typing import Any

from soliterm.engine import KING, Card, Pyramid, Solitaire

from ._outside import events_between, refused, serve

RANKS = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}
LETTERS = {letter: rank for rank, letter in RANKS.items()}
#: What soliterm lacks of the kit's capabilities (docs/conformance.md § Capabilities).
WITHOUT = ["taps", "messages", "option-initial-waste=true", "option-pair-with-covering", "option-unlimited-undo", "option-notify-unwinnable"]
#: The rules soliterm always plays (AisleRiot's Thirteen), in the kit's options (docs/conformance.md
#: § Fixed rules): one pass through the stock (``on_click`` deals while cards are left and never
#: turns the waste over), no waste card at the deal (``deal``: "the waste starts empty"), the
#: waste's top two cards pair (``can_drop``: "the waste's top card with the one under it"), and a
#: win only once the stock and the waste are empty too (``is_won``).
RULES = {"max_recycles": 0, "drawn_pairs_with_waste": True, "strict_win": True}
#: The rules values it takes: those it plays, and ``initial_waste: false``, which its own deal is (no
#: card on the waste); a layout it plays as given, so only ``initial_waste: true`` is declared missing.
TAKES = {**RULES, "initial_waste": False}
#: soliterm's reasons for a refusal → the protocol's machine codes (the reason is the message).
REASONS = [
    (r"make \d+, not 13|don't make 13", "sum_not_13"),
    (r"face-down|isn't free|until both cards", "card_blocked"),
    (r"King goes off on its own", "not_a_pair_with_a_king"),
    (r"only goes in a pair", "not_a_king"),
]


def code_of(card: Card) -> str:
    return RANKS.get(card.rank, str(card.rank)) + card.suit


def card_of(code: str) -> Card:
    rank = LETTERS.get(code[0]) or int(code[0])
    return Card(rank, code[1])


class Adapter:
    def __init__(self) -> None:
        self.game: Solitaire | None = None
        self.rules = Pyramid()

    # -- reading soliterm's position -------------------------------------------------------------
    def _ids(self) -> dict[str, Any]:
        d = self.game.gamedef
        return {"stock": d.stock, "waste": d.waste, "pyramid": d.pyramid, "discard": d.discard}

    def observation(self) -> dict[str, Any]:
        g, ids = self.game, self._ids()
        cells = [code_of(g.top(sid)) if g.top(sid) else None for sid in ids["pyramid"]]
        rows, start = [], 0
        for size in range(1, 8):
            rows.append(cells[start : start + size])
            start += size
        status = "won" if g.is_won() else "blocked" if g.is_stuck() else "playing"
        return {
            "pyramid": rows,
            "stock": [code_of(card) for card in reversed(g.cards(ids["stock"]))],  # soliterm deals from the end
            "waste": [code_of(card) for card in g.cards(ids["waste"])],
            "score": g.score,
            "moves": g.moves,
            "selected": None,
            "status": status,
            "code": None,
            "opaque": g.serialize(),
        }

    def where(self, code: str) -> int | None:
        """The slot whose top card is ``code``, if any."""
        for sid in [*self._ids()["pyramid"], self._ids()["waste"]]:
            top = self.game.top(sid)
            if top is not None and code_of(top) == code:
                return sid
        return None

    # -- the protocol ------------------------------------------------------------------------------
    def hello(self, request: dict) -> dict:
        return {"name": "soliterm Pyramid (AisleRiot's rules)", "capabilities": [], "without": WITHOUT, "languages": ["en"], "rules": RULES}

    def new_game(self, request: dict) -> dict:
        rules = request.get("rules") or {}
        if any(TAKES.get(key, object()) != value for key, value in rules.items()):
            return refused("unsupported", f"soliterm plays one rule set ({RULES}), not {rules}")
        if request.get("code") is not None:
            return refused("unsupported", "soliterm has no deal codes")
        game = Solitaire(Pyramid())
        layout = request.get("layout")
        if layout is not None:
            ids = {"stock": game.gamedef.stock, "waste": game.gamedef.waste}
            cells = [card for row in layout["pyramid"] for card in row]
            if len(cells) != len(game.gamedef.pyramid) or len(cells) + len(layout["waste"]) + len(layout["stock"]) != 52:
                return refused("invalid_layout", "soliterm deals 28 pyramid cards from one deck of 52")
            from soliterm.engine.games.pyramid import COVERS

            for index, (sid, code) in enumerate(zip(game.gamedef.pyramid, cells)):
                game.slots[sid].cards = [card_of(code).up(not COVERS[index])]
            game.slots[ids["waste"]].cards = [card_of(code).up(True) for code in layout["waste"]]
            game.slots[ids["stock"]].cards = [card_of(code) for code in reversed(layout["stock"])]
            game.update_status()
        self.game = game
        return {"ok": True, "state": self.observation()}

    def play(self, request: dict, keep: bool = True) -> dict:
        if self.game is None:
            return refused("deal_required", "no game")
        before_game = self.game.serialize()
        before = self.observation()
        done, reason = self.act(request["move"])
        after = self.observation()
        if not keep or not done:
            self.game._restore(before_game)
        if not done:
            return refused(*reason)
        return {"ok": True, "state": after, "events": events_between(request["move"], before, after), "feedback": None}

    def probe(self, request: dict) -> dict:
        return self.play(request, keep=False)

    def observe(self, request: dict) -> dict:
        return {"state": None if self.game is None else self.observation()}

    # -- moves: soliterm decides -----------------------------------------------------------------
    def act(self, move: str) -> tuple[bool, tuple[str, str]]:
        g, ids = self.game, self._ids()
        if move == "draw":
            if g.empty(ids["stock"]):
                return False, ("stock_empty", "the stock is empty")
            return (True, ("", "")) if g.click(ids["stock"]) else (False, ("refused", "soliterm refused the draw"))
        if move == "recycle":
            # soliterm's Pyramid has no redeal: a click on the empty stock does nothing
            if g.click(ids["stock"]):
                return True, ("", "")
            return False, ("no_recycles_left", "soliterm's Pyramid goes through the stock once")
        if move == "undo":
            return (True, ("", "")) if g.undo() else (False, ("nothing_to_undo", "nothing to undo"))
        if move.startswith("tap:"):
            return False, ("unsupported", "soliterm has no tap play")
        cards = move.split("+")
        waste = g.cards(ids["waste"])
        # the waste's top and the card under it go off together, dropped on the foundation
        if len(cards) == 2 and len(waste) > 1 and {code_of(waste[-1]), code_of(waste[-2])} == set(cards):
            return self.attempt(ids["waste"], ids["discard"])
        slots = [self.where(card) for card in cards]
        if None in slots:
            covered = next(card for card, sid in zip(cards, slots) if sid is None)
            return False, ("card_not_free", f"{covered} is not a top card of the pyramid or the waste")
        if len(cards) == 1:
            return self.attempt(slots[0], ids["discard"])
        first, second = slots
        if first == second == ids["waste"]:
            return False, ("same_card", "one card")
        done, reason = self.attempt(first, second)
        return (done, reason) if done else self.attempt(second, first)

    def attempt(self, source: int, target: int) -> tuple[bool, tuple[str, str]]:
        if self.game.attempt_move(source, target, 1):
            return True, ("", "")
        why = self.game.why_not(source, target, 1)
        code = next((code for pattern, code in REASONS if re.search(pattern, why)), "illegal_move")
        return False, (code, why)


if __name__ == "__main__":
    serve(Adapter())
