"""What the adapters around outside engines share (soliterm's, AisleRiot's): their events, read as
the difference between two observations (the engines report none of their own), the refusal's
form, and the JSON-lines loop of the subprocess protocol (docs/conformance.md)."""

from __future__ import annotations

import json
import sys
from typing import Any


def events_between(move: str, before: dict, after: dict) -> list[dict]:
    """The events of ``move``, from the observations before and after it: the cards that left the
    game (and the points the score gained), the card turned onto the waste, the stock after a
    recycle, an undo's points; then ``won`` or ``blocked`` when the status just became so."""

    def cards(state: dict) -> set[str]:
        return {card for row in state["pyramid"] for card in row if card} | set(state["waste"]) | set(state["stock"])

    events: list[dict] = []
    points = after["score"] - before["score"]
    if move == "undo":
        events.append({"type": "undone", "points": points})
    elif move == "draw":
        events.append({"type": "drawn", "cards": [card for card in after["waste"] if card not in before["waste"]]})
    elif move == "recycle":
        events.append({"type": "recycled", "cards": after["stock"]})
    else:
        events.append({"type": "removed", "cards": sorted(cards(before) - cards(after)), "points": points})
    if after["status"] != before["status"] and after["status"] in ("won", "blocked"):
        events.append({"type": after["status"]})
    return events


def refused(code: str, message: str) -> dict:
    return {"ok": False, "refused": code, "message": message}


def serve(adapter: Any) -> None:
    """Answer each request line on standard input by the adapter's method of its ``cmd``."""
    for line in sys.stdin:
        request = json.loads(line)
        print(json.dumps(getattr(adapter, request["cmd"])(request)), flush=True)
