"""An adapter for the kit's subprocess driver around GNOME AisleRiot's own Pyramid, "Thirteen"
(GPL), as Debian ships it: the game compiled for Guile 3.0 (``thirteen.go``, with AisleRiot's
library ``aisleriot/api.go``) in the package ``aisleriot``. Nobody in this project wrote a line of
the rules it plays.

    pyramide-conformance --driver-command "python -m features.adapters.aisleriot_thirteen"

AisleRiot's games are Scheme programs that the C program ``sol`` runs inside Guile, calling the
game's lambdas when the player presses, drags, drops or clicks. ``aisleriot_host.scm`` (beside
this file) stands in for that C program and nothing else: it defines the primitives the game calls
(``(aisleriot interface)``: slots, cards, the score, the lambdas), loads Debian's compiled files
unchanged in one ``guile`` process, and plays a gesture the way AisleRiot's board does. This
adapter **translates; AisleRiot decides**. It writes a layout into the game's slots as its own deal
would (a pyramid card face up when nothing covers it), turns the kit's moves into gestures (a pair
is a card dragged onto its partner, or the waste's top card dropped back on the waste when its
partner is under it, as AisleRiot's hint "Match the top two cards of the waste" means; a King is a
click on it; ``draw`` a click on the stock; ``undo`` the Undo action), and reads the slots back.
Whether a gesture does anything, what it scores, and when the game is won or has no more moves are
the game's answers (``button-pressed``, ``droppable?``, ``button-released``, ``button-clicked``,
``game-continuable``, ``game-won``); when it does nothing, the refusal's machine code says which of
the game's conditions failed (a face-down card: ``card_blocked``; a sum: ``sum_not_13``; a card no
gesture reaches, in the stock or under the waste's top: ``card_not_free``).

What AisleRiot does not have is declared missing in the hello: tap play (a pair is a drag), the
move counter, messages in the documents' words, Pyramide's deal codes, the options it cannot take
and 003's variants of another shape. ``docs/conformance-aisleriot.md`` is the kit's report on it.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from ._outside import events_between, refused, serve

HOST = Path(__file__).with_name("aisleriot_host.scm")
RANKS = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}
LETTERS = {letter: rank for rank, letter in RANKS.items()}
SUITS = "CDHS"  # AisleRiot's suits: 0 club, 1 diamond, 2 heart, 3 spade (api.scm)
STOCK, WASTE = 0, 1  # thirteen.scm's slots: the stock, the waste, then the pyramid, 2 to 29
PYRAMID = list(range(2, 30))
#: What AisleRiot lacks of the kit's capabilities (docs/conformance.md § Capabilities).
WITHOUT = [
    "taps", "messages", "move-counter", "undo-limit",
    "option-initial-waste=true", "option-notify-unwinnable",
]  # fmt: skip
#: The rules thirteen.scm always plays, in the kit's options (docs/conformance.md § Fixed rules):
#: one pass through the stock (``button-clicked`` on the stock deals while it has cards, and its
#: ``#f`` otherwise: no redeal); the waste's top two cards pair (``check-waste-for-move``'s hint,
#: and ``droppable?`` takes the waste as the slot dropped on); a win only once the stock and the
#: waste are empty too (``game-won``); a covered card face down, so never paired with its cover
#: (``check-for-flips``, ``button-pressed``/``droppable?`` ask ``is-visible?``); undo without a limit
#: (api.scm's ``HISTORY``).
RULES = {"max_recycles": 0, "drawn_pairs_with_waste": True, "strict_win": True, "pair_with_covering": False, "unlimited_undo": True}
#: The rules values it takes: those it plays, and ``initial_waste: false``, which its own deal is (no
#: card on the waste); a layout it plays as given, so only ``initial_waste: true`` is declared missing.
TAKES = {**RULES, "initial_waste": False}
STATUS = {"begin": "playing", "running": "playing", "over": "blocked", "won": "won"}


def games_dir() -> str | None:
    """Where Debian puts AisleRiot's games compiled for Guile 3.0 (AISLERIOT_GUILE_DIR overrides)."""
    given = os.environ.get("AISLERIOT_GUILE_DIR")
    candidates = [given] if given else sorted(glob.glob("/usr/lib/*/aisleriot/guile/3.0"))
    return next((d for d in candidates if os.path.isfile(os.path.join(d, "thirteen.go"))), None)


def guile() -> str | None:
    return shutil.which("guile-3.0") or shutil.which("guile")


def code_of(card: list) -> str:
    return RANKS.get(card[0], str(card[0])) + SUITS[card[1]]


def card_of(code: str, face_up: bool) -> str:
    """A card as AisleRiot writes it, ``(RANK SUIT FACE-UP)``."""
    rank = LETTERS.get(code[0]) or int(code[0])
    return f"({rank} {SUITS.index(code[1])} {'#t' if face_up else '#f'})"


def covers(index: int) -> list[int]:
    """The pyramid positions (0-27, row by row) covering position ``index``."""
    row = next(r for r in range(7) if index < (r + 1) * (r + 2) // 2)
    if row == 6:
        return []
    first = index + row + 1
    return [first, first + 1]


class Host:
    """One guile process running AisleRiot's game under aisleriot_host.scm."""

    def __init__(self) -> None:
        directory, program = games_dir(), guile()
        if directory is None or program is None:
            raise SystemExit("aisleriot_thirteen: needs guile-3.0 and Debian's aisleriot (make aisleriot)")
        environment = {**os.environ, "GUILE_LOAD_COMPILED_PATH": directory, "GUILE_AUTO_COMPILE": "0"}
        self.process = subprocess.Popen(
            [program, "--no-auto-compile", "-s", str(HOST), os.path.join(directory, "thirteen.go")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=environment,
        )  # fmt: skip

    def ask(self, request: str) -> dict:
        self.process.stdin.write(request + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        if "error" in answer:
            raise RuntimeError(f"AisleRiot's game raised {answer['error']} on {request}")
        return answer

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=10)


class Adapter:
    def __init__(self) -> None:
        self.host: Host | None = None
        self.game: dict | None = None  # the host's last answer: slots, score, status, history

    # -- reading AisleRiot's slots -----------------------------------------------------------------
    def slots(self) -> list[list]:
        return self.game["slots"]

    def observation(self) -> dict[str, Any]:
        slots = self.slots()
        cells = [code_of(slots[sid][0]) if slots[sid] else None for sid in PYRAMID]
        rows, start = [], 0
        for size in range(1, 8):
            rows.append(cells[start : start + size])
            start += size
        return {
            "pyramid": rows,
            "stock": [code_of(card) for card in slots[STOCK]],  # AisleRiot's lists are top first
            "waste": [code_of(card) for card in reversed(slots[WASTE])],
            "score": self.game["score"],
            "moves": None,
            "selected": None,
            "status": STATUS[self.game["status"]],
            "code": None,
            "opaque": {"history": self.game["history"]},
        }

    def where(self, code: str) -> int | None:
        """The slot whose top card is ``code``, if any: the cards a gesture reaches."""
        for sid in [*PYRAMID, WASTE]:
            cards = self.slots()[sid]
            if cards and code_of(cards[0]) == code:
                return sid
        return None

    def face_up(self, sid: int) -> bool:
        return bool(self.slots()[sid] and self.slots()[sid][0][2])

    # -- the protocol ------------------------------------------------------------------------------
    def hello(self, request: dict) -> dict:
        return {"name": "GNOME AisleRiot's Thirteen (Debian's compiled game)", "capabilities": [], "without": WITHOUT, "languages": ["en"], "rules": RULES}

    def new_game(self, request: dict) -> dict:
        rules = request.get("rules") or {}
        if any(TAKES.get(key, object()) != value for key, value in rules.items()):
            return refused("unsupported", f"AisleRiot's Thirteen plays one rule set ({RULES}), not {rules}")
        if request.get("code") is not None:
            return refused("unsupported", "AisleRiot has no deal codes")
        if self.host is None:
            self.host = Host()
        layout = request.get("layout")
        if layout is None:
            self.game = self.host.ask("(new)")["state"]
            return {"ok": True, "state": self.observation()}
        cells = [card for row in layout["pyramid"] for card in row]
        every = [card for card in cells if card] + list(layout["waste"]) + list(layout["stock"])
        if len(cells) != len(PYRAMID) or len(every) != len(set(every)) or any(len(c) != 2 or c[0] not in "A23456789TJQK" or c[1] not in SUITS for c in every):
            return refused("invalid_layout", "AisleRiot's Thirteen deals 28 pyramid cards from one deck of 52")
        if any(cells[i] for index, code in enumerate(cells) if code is None for i in covers(index)):
            # thirteen.scm's flips turn the card under two removed ones: a hole still covered has none
            return refused("invalid_layout", "a card is removed from the pyramid only once nothing covers it")
        slots = [f"({STOCK} {' '.join(card_of(c, False) for c in layout['stock'])})", f"({WASTE} {' '.join(card_of(c, True) for c in reversed(layout['waste']))})"]
        for index, (sid, code) in enumerate(zip(PYRAMID, cells)):
            free = not any(cells[i] for i in covers(index))
            slots.append(f"({sid} {card_of(code, free) if code else ''})")
        self.game = self.host.ask(f"(layout ({' '.join(slots)}))")["state"]
        return {"ok": True, "state": self.observation()}

    def play(self, request: dict, keep: bool = True) -> dict:
        if self.game is None:
            return refused("deal_required", "no game")
        if not keep:
            self.host.ask("(save)")
        before = self.observation()
        done, reason = self.act(request["move"])
        after = self.observation()
        if not keep:
            self.game = self.host.ask("(restore)")["state"]
        if not done:
            return refused(*reason)
        # the game over without a win: AisleRiot's board says so at once (window.c's dialog)
        blocked = after["status"] == "blocked" != before["status"]
        feedback = {"code": "blocked", "message": "There are no more moves"} if blocked else None
        return {"ok": True, "state": after, "events": events_between(request["move"], before, after), "feedback": feedback}

    def probe(self, request: dict) -> dict:
        return self.play(request, keep=False)

    def observe(self, request: dict) -> dict:
        return {"state": None if self.game is None else self.observation()}

    # -- moves: AisleRiot decides ------------------------------------------------------------------
    def gesture(self, request: str) -> bool:
        answer = self.host.ask(request)
        self.game = answer["state"]
        return answer["refused"] is None

    def over(self) -> bool:
        return self.game["status"] in ("over", "won")

    def act(self, move: str) -> tuple[bool, tuple[str, str]]:
        slots = self.slots()
        if move.startswith("tap:"):
            return False, ("unsupported", "AisleRiot has no tap play: a pair is a drag")
        if move == "undo":
            return (True, ("", "")) if self.gesture("(undo)") else (False, ("nothing_to_undo", "AisleRiot's Undo has nothing to undo"))
        if move == "draw":
            if self.gesture(f"(click {STOCK})"):
                return True, ("", "")
            return False, ("game_over", "the game is over") if self.over() else ("stock_empty", "a click on the empty stock does nothing")
        if move == "recycle":
            if slots[STOCK]:
                return False, ("stock_not_empty", "AisleRiot has no gesture turning the waste over while the stock has cards")
            if self.gesture(f"(click {STOCK})"):
                return True, ("", "")
            if self.over():
                return False, ("game_over", "the game is over")
            if not slots[WASTE]:
                return False, ("waste_empty", "the stock and the waste are empty")
            return False, ("no_recycles_left", "a click on the empty stock does nothing: Thirteen goes through the stock once")
        cards = move.split("+")
        if len(cards) == 2 and cards[0] == cards[1]:
            return False, ("same_card", "one card named twice")
        waste = [code_of(card) for card in slots[WASTE]]
        if len(cards) == 2 and len(waste) > 1 and set(waste[:2]) == set(cards):
            # the waste's top card dragged off and dropped back on the waste, onto its partner
            if self.gesture(f"(drag {WASTE} {WASTE})"):
                return True, ("", "")
            return False, self.why_not(cards, [WASTE, WASTE])
        where = [self.where(card) for card in cards]
        if None in where:
            unreached = next(card for card, sid in zip(cards, where) if sid is None)
            return False, ("game_over", "the game is over") if self.over() else ("card_not_free", f"{unreached} is not the top card of the waste or of a pyramid slot")
        if len(cards) == 1:
            if self.gesture(f"(click {where[0]})"):
                return True, ("", "")
            return False, self.why_not(cards, where)
        first, second = where
        if self.gesture(f"(drag {first} {second})") or self.gesture(f"(drag {second} {first})"):
            return True, ("", "")
        return False, self.why_not(cards, where)

    def why_not(self, cards: list[str], where: list[int]) -> tuple[str, str]:
        """Which of the game's conditions the refused gesture failed (the game left as it was)."""
        if self.over():
            return "game_over", "the game is over"
        if len(set(where)) == len(where) and not all(self.face_up(sid) for sid in where):
            return "card_blocked", "a face-down card cannot be moved or dropped on"
        if len(cards) == 1:
            return ("not_a_king", "only a King is removed alone") if cards[0][0] != "K" else ("card_blocked", "the King is face down")
        return "sum_not_13", "the two cards do not make 13"


if __name__ == "__main__":
    serve(Adapter())
