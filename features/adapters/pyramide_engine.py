"""An adapter for the kit's subprocess driver around Pyramide's engine, with no HTTP at all: the
example a team copies to put its own engine under the kit (``docs/conformance.md`` § Drivers).

    pyramide-conformance --driver-command "python -m features.adapters.pyramide_engine"

It reads one JSON request per line on standard input and answers one JSON line on standard
output: ``hello``, ``new_game``, ``play``, ``probe`` (play without keeping the result) and
``observe``. It keeps the game in play itself, as a stateful engine would.

Its ``hello`` lists what it plays beyond the app's rules: Pyramide's deal codes, the reasons of
its refusals (``refusal-reasons``: ``reason``, ``field``, ``index``, ``move``, ``rule``) and 003's
four variants of another shape. ``PYRAMIDE_ADAPTER_CAPABILITIES`` (comma-separated) lists fewer, as an
engine of the app's rules alone would (``tests/kit/test_kit_portable.py``).

``PYRAMIDE_ADAPTER_WITHOUT`` (comma-separated: ``taps``, ``undo``, ``scoring``, ``move-counter``,
``messages``, ``option-…``, or one value of an option: ``option-max-recycles=2``) makes it an
engine that lacks these, and says so in its hello's
``"without"``: tap and undo moves refused, no score, no move counter, no messages, a rules option
refused. The kit must then skip exactly the scenarios that need them and pass every other one
(``tests/kit/test_kit_capabilities.py``).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from .. import pyramide

_engine = pyramide("engine")
GameState, Layout, Move, PyramideError, Rules, play = (
    _engine.GameState, _engine.Layout, _engine.Move, _engine.PyramideError, _engine.Rules, _engine.play
)
translate = pyramide("locales").translate
#: What this engine plays beyond the app's rules (docs/conformance.md § Capabilities).
CAPABILITIES = ("codes", "refusal-reasons", "variant-tuts-tomb", "variant-apophis", "variant-pharaoh", "variant-spanish")


def observation(state) -> dict[str, Any]:
    data = state.to_json()
    keys = ("pyramid", "stock", "waste", "score", "moves", "selected", "status", "code")
    piles = {"piles": data["piles"]} if "piles" in data else {}  # Apophis's waste piles 2 and 3
    return {**{key: data[key] for key in keys}, **piles, "opaque": data}


def why(error) -> dict[str, Any]:
    """Why the engine refused, beyond the code: ``reason`` (the error's detail), ``field``, and for
    an action of a log its ``index``, the ``move`` and the ``rule`` it breaks (as the API says it)."""
    if error.detail is None:
        return {}
    members: dict[str, Any] = {"reason": error.detail, "field": error.field}
    if isinstance(error.params.get("index"), int):
        members["index"] = error.params["index"]
        move = error.params.get("move", error.params.get("entry"))
        if move is not None:
            members["move"] = str(move)
        if isinstance(error.params.get("reason"), PyramideError):
            members["rule"] = error.params["reason"].code
    return members


class Lacking(Exception):
    """A request this engine cannot take (``PYRAMIDE_ADAPTER_WITHOUT``)."""


class Adapter:
    def __init__(self) -> None:
        self.game = None
        self.without = {name for name in os.environ.get("PYRAMIDE_ADAPTER_WITHOUT", "").split(",") if name}

    def hello(self, request: dict) -> dict:
        capabilities = os.environ.get("PYRAMIDE_ADAPTER_CAPABILITIES", ",".join(CAPABILITIES)).split(",")
        answer = {"name": "pyramide-engine", "capabilities": capabilities, "languages": ["en", "es", "it", "fr"]}
        if os.environ.get("PYRAMIDE_ADAPTER_RULES"):  # the rules it declares it plays fixed (the tests)
            answer["rules"] = json.loads(os.environ["PYRAMIDE_ADAPTER_RULES"])
        return {**answer, "without": sorted(self.without)} if self.without else answer

    def lacking(self, answer: dict) -> dict:
        """The answer as an engine without ``self.without`` would give it."""
        if answer.get("state") is not None:
            answer["state"] = {
                **answer["state"],
                **({"score": None} if "scoring" in self.without else {}),
                **({"moves": None} if "move-counter" in self.without else {}),
            }
        if "scoring" in self.without:
            answer["events"] = [{key: value for key, value in event.items() if key != "points"} for event in answer.get("events", [])]
        if "messages" in self.without:
            if answer.get("feedback"):
                answer["feedback"] = {**answer["feedback"], "message": None}
            if "message" in answer:
                answer["message"] = None
        return answer

    def new_game(self, request: dict) -> dict:
        for key, value in (request.get("rules") or {}).items():
            option = "option-" + key.replace("_", "-")
            if option in self.without or f"{option}={json.dumps(value)}" in self.without:
                raise Lacking(f"no rules option {key}" if option in self.without else f"no {key} {json.dumps(value)}")
        if os.environ.get("PYRAMIDE_ADAPTER_IGNORE_RULES"):  # a liar: the app's rules whatever it declared
            request = {**request, "rules": None}
        rules = Rules.from_json(request["rules"]) if request.get("rules") is not None else None
        layout = Layout.from_json(request["layout"]) if request.get("layout") is not None else None
        self.game = GameState.new(request.get("code"), rules=rules, layout=layout, error_help=request.get("error_help", True))
        return {"ok": True, "state": observation(self.game)}

    def play(self, request: dict, keep: bool = True) -> dict:
        if ("taps" in self.without and request["move"].startswith("tap:")) or ("undo" in self.without and request["move"] == "undo"):
            raise Lacking(f"no move {request['move']}")
        turn = play(self.game, Move.from_text(request["move"]))
        if keep:
            self.game = turn.state
        language = request.get("language") or "en"
        feedback = None if turn.feedback is None else {"code": turn.feedback, "message": translate(language, turn.feedback)}
        events = [event.to_json() for event in turn.events]
        return {"ok": True, "state": observation(turn.state), "events": events, "feedback": feedback}

    def probe(self, request: dict) -> dict:
        return self.play(request, keep=False)

    def observe(self, request: dict) -> dict:
        return {"state": None if self.game is None else observation(self.game)}

    def answer(self, request: dict) -> dict:
        try:
            answer = getattr(self, request["cmd"])(request)
        except PyramideError as error:
            answer = {"ok": False, "refused": error.code, "message": error.message(request.get("language") or "en")}
            if "refusal-reasons" in self.hello(request)["capabilities"]:
                answer.update(why(error))
        except Lacking as error:
            answer = {"ok": False, "refused": "unsupported", "message": str(error)}
        return self.lacking(answer) if self.without else answer


def main() -> None:
    adapter = Adapter()
    for line in sys.stdin:
        print(json.dumps(adapter.answer(json.loads(line))), flush=True)


if __name__ == "__main__":
    main()
