"""The kit's operations: what each Gherkin step asks of an implementation, as data.

Every step of a scenario is one operation, a small JSON object (``{"op": "expect", "field":
"score", "value": 30}``). The Python kit runs them here through a :mod:`driver`; the conformance
vectors (``features/vectors.json``) are the same operations written out, and the JavaScript
runner (``features/js/runner.mjs``) runs those. ``docs/conformance.md`` § Vectors lists them all.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .driver import HttpDriver, Outcome, move_text



class KitFailure(AssertionError):
    """A check that failed: what was checked, what the rules expect and what came back."""

    def __init__(self, what: str, expected: Any, got: Any) -> None:
        self.what, self.expected, self.got = what, expected, got
        super().__init__(f"{what}: expected {_show(expected)}, got {_show(got)}")


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value


def check(what: str, expected: Any, got: Any) -> None:
    if expected != got:
        raise KitFailure(what, expected, got)


class Game:
    """One scenario's game, driven through ``driver``."""

    def __init__(self, driver, fixed: dict[str, Any] | None = None) -> None:
        self.driver = driver
        #: the rules the implementation plays fixed: every deal is made under them (rule_sets.under)
        self.fixed = dict(fixed or {})
        self.deal_rules: dict[str, Any] = {}
        self.scored: list[int] = []  # the points of each action played, in order (an undo takes the last)
        self.undone_scored: int | None = None
        #: capabilities the implementation lacks whose checks are left out (conftest: check_plan)
        self.unjudged: set[str] = set()
        self.language: str | None = None
        self.last: Outcome | None = None
        self.before: dict[str, Any] | None = None  # the game before the last move tried
        self.noted: dict[str, Any] | None = None
        self.dealt: dict[str, Any] | None = None  # the game as first dealt
        self.solution: dict[str, Any] | None = None
        self.replayed: dict[str, Any] | None = None
        # set by the kit's pytest hooks (conftest.py) before each step; checks run outside pytest
        # (the vectors run straight from JSON) are hard
        self.kit_step = ""
        self.kit_soft = False
        self.kit_failures: list[dict[str, Any]] = []
        self.kit_citations = lambda guards: []

    # -- helpers ------------------------------------------------------------------------------
    @property
    def state(self) -> dict[str, Any]:
        state = self.driver.observe()
        if state is None:
            raise KitFailure("the game", "a game in play", "no game dealt")
        return state

    def pyramid_cards(self, state: dict[str, Any] | None = None) -> list[str]:
        return [card for row in (state or self.state)["pyramid"] for card in row if card]

    def _track(self, move: str, events: list[dict[str, Any]]) -> None:
        """The points each action scored, in order, so that an undo is checked against what the
        move it takes back scored (:meth:`op_undone_as_scored`), whatever the implementation's scale."""
        types = [event.get("type") for event in events]
        if move == "undo" and "undone" in types:
            self.undone_scored = self.scored.pop() if self.scored else None
        elif {"removed", "drawn", "recycled"} & set(types):
            self.scored.append(sum(event.get("points") or 0 for event in events if event.get("type") == "removed"))

    def _deal(self, **request: Any) -> Outcome:
        if self.fixed:
            from .rule_sets import under

            request = under(request, self.fixed)
        self.scored = []
        from .capabilities import dealt_rules

        self.deal_rules = dealt_rules(request)  # the rules the game was dealt under (the fixed ones included)
        self.last = self.driver.new_game(**request, language=self.language)
        if self.last.accepted and self.dealt is None:
            self.dealt = self.last.state
        return self.last

    def _play(self, move: str) -> Outcome:
        self.before = self.driver.observe()
        self.last = self.driver.play(move, self.language)
        if self.last.accepted:
            self._track(move, self.last.events)
        return self.last

    def _outcome(self) -> Outcome:
        if self.last is None:
            raise KitFailure("the last answer", "an answer", "no request made")
        return self.last

    def _http(self) -> HttpDriver:
        if not isinstance(self.driver, HttpDriver):
            raise KitFailure("this check", "Pyramide's HTTP API (capability api)", type(self.driver).__name__)
        return self.driver

    # -- the one entry point ------------------------------------------------------------------
    def run(self, op: dict[str, Any]) -> None:
        if self.unjudged:
            from .capabilities import CHECK_OPS, op_needs

            lacking = op_needs(op) & self.unjudged if op["op"] in CHECK_OPS else set()
            if lacking == {"scoring"} and op["op"] == "removed":
                op = {key: value for key, value in op.items() if key != "points"}  # its cards, without the points
            elif lacking:
                return  # a check of what the implementation lacks: left out, the rest judged
        getattr(self, "op_" + op["op"])(**{key: value for key, value in op.items() if key != "op"})

    # -- setting up ---------------------------------------------------------------------------
    def op_deal(self, layout=None, rules=None, error_help=True, code=None) -> None:
        outcome = self._deal(layout=layout, rules=rules, error_help=error_help, code=code)
        if not outcome.accepted:
            raise KitFailure("dealing the game", "a new game", f"refused: {outcome.refused} ({outcome.message})")

    def op_deal_try(self, code: str | None = None, rules: dict[str, Any] | None = None, layout: dict[str, Any] | None = None) -> None:
        """Ask for a new game that may be refused (a code, or a layout that is not a deal)."""
        self.before = self.driver.observe()
        request = {"code": code, "rules": rules, "layout": layout}
        self._deal(**{key: value for key, value in request.items() if value is not None})

    def op_language(self, language: str) -> None:
        self.language = language

    def op_note(self) -> None:
        self.noted = self.state

    def op_new_game(self) -> None:
        self.noted = self.state
        self.op_deal()

    def op_deal_own_code(self) -> None:
        self.noted = self.state
        self.op_deal(code=self.noted["code"])

    # -- playing ------------------------------------------------------------------------------
    def op_play(self, moves: list[str]) -> None:
        for move in moves:
            outcome = self._play(move)
            if not outcome.accepted:
                raise KitFailure(f"playing {move!r}", "the move accepted", f"refused: {outcome.refused} ({outcome.message})")

    def op_use_up_passes(self) -> None:
        """Draw the stock out, then recycle and draw it out again as many times as the recycle limit
        of the rules dealt allows («pasadas limitadas»): written once for any limit, so that an
        implementation playing its own limit is judged on it (docs/conformance.md § Fixed rules)."""
        limit = self.deal_rules.get("max_recycles")
        if type(limit) is not int:
            raise KitFailure("the recycle limit of the rules dealt", "a number of recycles", json.dumps(limit))
        for recycle in [False] + [True] * limit:
            if recycle:
                self.op_play(["recycle"])
            self.op_play(["draw"] * len(self.state["stock"]))

    def op_try(self, move: str) -> None:
        self._play(move)

    def op_forge(self, path: str, value: Any, move: str) -> None:
        """Send the game back with one field changed (Pyramide's API only)."""
        forged, target, key = self._forged_at(path)
        target[key] = value
        self._send_forged(forged, move)

    def op_forge_without(self, path: str, move: str) -> None:
        """Send the game back without one field, a member or an item (Pyramide's API only)."""
        forged, target, key = self._forged_at(path)
        if isinstance(target, dict) and key not in target:
            raise KitFailure(f"the state at {path!r}", "a member to take out", "none")
        del target[key]
        self._send_forged(forged, move)

    def _forged_at(self, path: str) -> tuple[Any, Any, Any]:
        """A copy of the game as the implementation last returned it, the object or list in it
        that holds ``path``'s last part, and that part (a member's name or an index)."""
        forged = json.loads(json.dumps(self._http().state))
        *parents, last = re.findall(r"[^.\[\]]+", path)
        target = forged
        for key in parents:
            target = target[int(key) if key.isdigit() else key]
        return forged, target, int(last) if last.isdigit() else last

    def _send_forged(self, forged: Any, move: str) -> None:
        driver = self._http()
        if forged == driver.state:
            raise KitFailure("the forged state", "a change", "the same state")
        self.before = driver.observe()
        state = driver.state
        self.last = driver.send(forged, move, self.language)
        if self.last.accepted:
            return
        driver.state = state  # a refused state leaves the game as it was

    # -- answers ------------------------------------------------------------------------------
    def op_refused(self, code: str, status: int | None = None) -> None:
        outcome = self._outcome()
        check("the answer", f"refused with {code}", f"refused with {outcome.refused}" if not outcome.accepted else "accepted")
        if isinstance(self.driver, HttpDriver):
            reply = outcome.reply
            check("the HTTP status", status or 422, reply.status)
            check("the content type", "application/problem+json", reply.content_type)
        if self.before is not None:
            check("the game after a refused move", self.before, self.driver.observe())

    def op_refused_as_it_was(self) -> None:
        """Refused, whatever its code (an implementation's own), and the game as it was before:
        the boundaries every implementation that has the move is judged on."""
        outcome = self._outcome()
        check("the answer", "refused", "refused" if not outcome.accepted else "accepted")
        check("the game after a refused move", self.before, self.driver.observe())

    def op_reason(
        self, reason: str | None = None, field: str | None = None, index: int | None = None, rule: str | None = None, move: str | None = None
    ) -> None:
        """Why the last request was refused, beyond its code (capability ``refusal-reasons``): the
        machine ``reason``, and the ``field``, the ``index`` of a log's action, that action as the
        log writes it (``move``) or the ``rule`` it breaks, those the scenario names."""
        outcome = self._outcome()
        if outcome.accepted:
            raise KitFailure("the reason of the refusal", "a refusal", "accepted")
        expected = {"reason": reason, "field": field, "index": index, "move": move, "rule": rule}
        expected = {key: value for key, value in expected.items() if value is not None}
        check("the reason of the refusal", expected, {key: outcome.why.get(key) for key in expected})

    def op_unchanged(self) -> None:
        outcome = self._outcome()
        check("the answer", "accepted", "accepted" if outcome.accepted else f"refused: {outcome.refused}")
        check("the game after a move that does nothing", self.before, outcome.state)
        check("the events", [], outcome.events)

    def op_playable(self, move: str) -> None:
        """The move would be accepted now (probed: the game stays as it is)."""
        outcome = self.driver.probe(move, self.language)
        check(f"playing {move!r} now", "accepted", "accepted" if outcome.accepted else f"refused: {outcome.refused}")

    def op_feedback(self, code: str | None) -> None:
        outcome = self._outcome()
        check("the answer", "accepted", "accepted" if outcome.accepted else f"refused: {outcome.refused}")
        check("the feedback", code, (outcome.feedback or {}).get("code"))

    def op_message(self, text: str) -> None:
        outcome = self._outcome()
        shown = (outcome.feedback or {}).get("message") if outcome.accepted else outcome.message
        check("the message shown", text, shown)

    def op_content_language(self, language: str) -> None:
        reply = self._outcome().reply
        check("Content-Language", language, reply.headers.get("content-language"))
        check("Vary names Accept-Language", True, "accept-language" in reply.headers.get("vary", "").lower())

    def op_removed(self, cards: list[str], points: int | None = None) -> None:
        """The last move's one ``removed`` event names these cards (any order); ``points``, in
        vectors of format 1, checks its points too (``points`` below since)."""
        events = [event for event in self._outcome().events if event["type"] == "removed"]
        check("the cards removed", [sorted(cards)], [sorted(event.get("cards", [])) for event in events])
        if points is not None:
            self.op_points(points)

    def op_points(self, points: int) -> None:
        """The points of the last move's one ``removed`` event (000 #43)."""
        events = [event for event in self._outcome().events if event["type"] == "removed"]
        got = [event.get("points") for event in events]
        check("the points of the removal", points, got[0] if len(got) == 1 else got)

    def op_undone(self, points: int) -> None:
        """«Se restan los puntos del movimiento»: the one ``undone`` event takes back ``points``."""
        events = [event for event in self._outcome().events if event["type"] == "undone"]
        check("the undone events' points", [-points], [event.get("points") for event in events])

    def op_score_change(self, since: str, points: int) -> None:
        """The score went up (or down) by ``points``, since the game was noted or since the last
        move: a check of a change of score, as the scoring sentences are written (000 #45 «Robar y
        reciclar no cuestan puntos», #49 «se restan los puntos del movimiento»), so that an
        implementation scoring otherwise fails where it differs and nowhere else."""
        was = self.noted if since == "noted" else self.before
        if was is None:
            raise KitFailure("the score before", "a noted game" if since == "noted" else "a move played", "none")
        what = "the change of score since the game was noted" if since == "noted" else "the last move's change of score"
        check(what, points, self.state["score"] - was["score"])

    def op_undone_as_scored(self) -> None:
        """«Se restan los puntos del movimiento» (000 #49): the one ``undone`` event takes back what
        the move it undid scored, on the implementation's own scale (a check of the undo, not of
        the points of a removal, which 000 #43 guards)."""
        events = [event for event in self._outcome().events if event["type"] == "undone"]
        if self.undone_scored is None:
            raise KitFailure("the move undone", "an action played in this game", "none")
        check("the undone events' points, against what the move scored", [-self.undone_scored], [event.get("points") for event in events])

    def op_undone_action(self, action: str) -> None:
        """The ``undone`` event names the action taken back, as the history wrote it (``@api``)."""
        events = [event for event in self._outcome().events if event["type"] == "undone"]
        check("the undone events' action", [action], [event.get("action") for event in events])

    def op_code_prefix(self, prefix: str) -> None:
        """The game's code begins with ``prefix`` (its scheme and rules segment)."""
        check("the beginning of the game's code", prefix, self.state["code"][: len(prefix)])

    def op_game_rules(self, rules: dict[str, Any]) -> None:
        """The state's rules, as the API writes them (``@api``)."""
        check("the game's rules", rules, self._http().state["rules"])

    def op_foundation(self, cards: list[str]) -> None:
        """The state's foundation: the removed cards, in the order removed (``@api``)."""
        check("the foundation", cards, self._http().state["foundation"])

    def op_history_last(self, action: str) -> None:
        """The undo history's last action, where each card came from (``@api``)."""
        check("the last action of the undo history", [action], self._http().state["history"][-1:])

    def op_preset(self, name: str, rules: dict[str, Any]) -> None:
        """``GET /v1/rules`` names the preset with these options (``@api``)."""
        reply = self._http().request("GET", "/v1/rules", None, self.language)
        check("GET /v1/rules", 200, reply.status)
        check(f"the preset {name!r}", rules, reply.body.get("presets", {}).get(name))

    def op_events(self, events: list[str]) -> None:
        """The last move's events, each written as its type then its cards (``drawn 3C``), and the pile
        a card was drawn onto under Apophis (``drawn 3C onto waste2``)."""
        written = [
            " ".join([event["type"], *event.get("cards", []), *(["onto", event["pile"]] if "pile" in event else [])])
            for event in self._outcome().events
        ]
        check("the events", events, written)

    def op_event(self, type: str, present: bool) -> None:
        types = [event["type"] for event in self._outcome().events]
        check(f"an event {type!r} among {types}", present, type in types)

    # -- the game -----------------------------------------------------------------------------
    def op_expect(self, field: str, value: Any) -> None:
        state = self.state
        got = {
            "pyramid_left": lambda: len(self.pyramid_cards(state)),
            "stock_count": lambda: len(state["stock"]),
            "waste_count": lambda: len(state["waste"]),
            "waste_top": lambda: state["waste"][-1] if state["waste"] else None,
            "waste": lambda: state["waste"][::-1],
            "waste_top_cards": lambda: state["waste"][::-1][: len(value)],
            "waste_piles": lambda: [pile[::-1] for pile in self._waste_piles(state)],
            "rows": lambda: [len(row) for row in state["pyramid"] if all(card is not None for card in row)],
            "all_cards": lambda: self._all_cards(state, value),
        }.get(field, lambda: state[field])()
        check(f"the game's {field}", value, got)

    @staticmethod
    def _waste_piles(state: dict[str, Any]) -> list[list[str]]:
        """The waste, then Apophis's waste piles 2 and 3 (when the game has them)."""
        return [state["waste"], *state.get("piles", [])]

    def _all_cards(self, state: dict[str, Any], deck: list[str]) -> list[str]:
        """The cards in play, and the cards of ``deck`` (the scenario's) not in play: ``deck``
        itself when each card of the game is one of the deck's, once."""
        in_play = self.pyramid_cards(state) + state["stock"] + self._in_waste(state)
        seen = set(in_play)
        return sorted(in_play + [card for card in deck if card not in seen])

    def _in_waste(self, state: dict[str, Any]) -> list[str]:
        return [card for pile in self._waste_piles(state) for card in pile]

    def op_recycled_in_order(self) -> None:
        state = self.state
        check("the stock after recycling", self._in_waste(self.before), state["stock"])
        check("the waste after recycling", [], self._in_waste(state))

    def op_free_cards(self, cards: list[str]) -> None:
        """A card is free when a tap on it does not answer ``card_blocked`` (error help on)."""
        free = []
        for card in self.pyramid_cards():
            outcome = self.driver.probe(f"tap:{card}")
            if not outcome.accepted:
                raise KitFailure(f"tapping {card}", "accepted", f"refused: {outcome.refused}")
            if (outcome.feedback or {}).get("code") != "card_blocked":
                free.append(card)
        check("the free pyramid cards", sorted(cards), sorted(free))

    def op_free_cards_by_moves(self, cards: list[str]) -> None:
        """A card is free when a move with it is not refused ``card_blocked``: the card alone
        when it is a King, else paired with the waste's top card (accepted, or refused for its
        sum, when it is free). The moves are probed, the game left as it is: for an
        implementation without taps (000 #17, #18)."""
        state = self.state
        partner = state["waste"][-1] if state["waste"] else None
        free = []
        for card in self.pyramid_cards(state):
            move = card if card[0] == "K" or partner is None else f"{card}+{partner}"
            outcome = self.driver.probe(move)
            if outcome.accepted or outcome.refused != "card_blocked":
                free.append(card)
        check("the free pyramid cards, by moves", sorted(cards), sorted(free))

    def op_as_noted(self) -> None:
        state = self.state
        for key in ("pyramid", "stock", "waste", "score"):
            check(f"the {key} as noted", self.noted[key], state[key])

    def op_same_deal(self, as_of: str) -> None:
        state, reference = self.state, self.noted if as_of == "noted" else self.dealt
        for key in ("pyramid", "waste", "stock"):
            check(f"the {key} dealt", reference[key], state[key])

    def op_code(self, code: str | None = None) -> None:
        if code is None:  # the code noted must be a code: null (or "") would pass "the code is the one noted"
            noted = self.noted.get("code")
            check("the game's code, as noted", "a code", "a code" if isinstance(noted, str) and noted else noted)
        check("the game's code", code if code is not None else self.noted["code"], self.state["code"])

    def op_dealt_sequence(self, cards: list[str]) -> None:
        outcome = self._outcome()
        check("the deal", "dealt", "dealt" if outcome.accepted else f"refused: {outcome.refused}")
        state = self.state
        check("the cards dealt", cards, self.pyramid_cards(state) + state["waste"] + state["stock"])

    # -- Pyramide's API: legal moves and descriptions ------------------------------------------
    def _legal_moves(self) -> list[str]:
        driver = self._http()
        reply = driver.request("POST", "/v1/legal-moves", {"state": driver.state})
        check("POST /v1/legal-moves", 200, reply.status)
        return sorted(_canonical(move_text(move)) for move in reply.body["moves"])

    def op_legal_moves(self, equal: list[str] | None = None, include: str | None = None, exclude: str | None = None) -> None:
        moves = self._legal_moves()
        if equal is not None:
            check("the legal moves", sorted(_canonical(move) for move in equal), moves)
        if include is not None:
            check(f"{include} among the legal moves {moves}", True, _canonical(include) in moves)
        if exclude is not None:
            check(f"{exclude} among the legal moves {moves}", False, _canonical(exclude) in moves)

    def op_describe(self, language: str, text: str, prefix: bool = False) -> None:
        driver = self._http()
        reply = driver.request("POST", "/v1/describe", {"state": driver.state}, language)
        check("POST /v1/describe", 200, reply.status)
        check("Content-Language", language, reply.headers.get("content-language"))
        description = reply.body["description"]
        check(f"the description in {language}", text, description[: len(text)] if prefix else description)

    # -- the solver -----------------------------------------------------------------------------
    # -- replay (POST /v1/replay) ----------------------------------------------------------------
    def op_replay(self, moves: list[str] | None = None, times: int = 1) -> None:
        """Replay ``moves`` (``times`` times over) from the game's deal; without moves, the game's
        own log."""
        driver = self._http()
        if moves is None:
            moves = driver.state["log"].split()
        moves = list(moves) * times
        body = {"code": driver.state["code"], "moves": moves}
        reply = driver.request("POST", "/v1/replay", body, self.language)
        check("POST /v1/replay", 200, reply.status)
        self.replayed = reply.body

    def op_replay_verdict(self, valid: bool, played: int, score: int, status: str, refused: str | None = None) -> None:
        answer = self.replayed or {}
        got = {key: answer.get(key) for key in ("valid", "played", "score", "status")}
        got["refused"] = (answer.get("refused") or {}).get("code")
        if answer.get("refused") is not None and answer["refused"].get("index") != answer.get("played"):
            got["refused"] += f" at index {answer['refused'].get('index')}"
        expected = {"valid": valid, "played": played, "score": score, "status": status, "refused": refused}
        check("the replay's verdict", expected, got)

    def op_send_replayed(self, move: str) -> None:
        """Play ``move`` from the state the last replay led to (``@api``): it becomes the game."""
        driver = self._http()
        state = (self.replayed or {}).get("state")
        if not isinstance(state, dict):
            raise KitFailure("the replay's state", "a state", state)
        driver.state = state
        self._play(move)
        if not self.last.accepted:
            raise KitFailure(f"playing {move!r} from the replayed game", "the move accepted", f"refused: {self.last.refused} ({self.last.message})")

    def op_replay_is_the_game(self) -> None:
        driver = self._http()
        check("the state the replay leads to", {**driver.state, "selected": None}, (self.replayed or {}).get("state"))

    def op_solve(self) -> None:
        driver = self._http()
        reply = driver.request("POST", "/v1/solve", {"state": driver.state}, self.language)
        check("POST /v1/solve", 200, reply.status)
        self.solution = reply.body

    def op_solution(self, result: str, max_removable: int) -> None:
        got = (self.solution["result"], self.solution["max_removable"])
        check("the solver's verdict", [result, max_removable], list(got))

    def op_play_line(self) -> None:
        self.op_play([move_text(move) for move in self.solution["line"]])

    def op_follow_hints(self) -> None:
        driver = self._http()
        for _ in range(1000):
            reply = driver.request("POST", "/v1/hint", {"state": driver.state}, self.language)
            check("POST /v1/hint", 200, reply.status)
            if reply.body["move"] is None:
                return
            self.op_play([move_text(reply.body["move"])])
        raise KitFailure("the hints", "an end", "more than 1000 hints")

    def op_no_pyramid_removal(self) -> None:
        in_pyramid = set(self.pyramid_cards())
        for move in self._legal_moves():
            cards = set(move.split("+")) if "+" in move else {move}
            check(f"the legal move {move} leaves the pyramid", [], sorted(in_pyramid & cards))


def _canonical(move: str) -> str:
    """A pair is the same pair in either order."""
    return "+".join(sorted(move.split("+"))) if "+" in move else move
