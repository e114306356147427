"""``pyramide-conformance --driver-command CMD --check-adapter``: for adapter authors.

Before running 600 scenarios, this asks the adapter each kind of request once, on the documents'
deal (``docs/conformance.md`` § The subprocess protocol), and says for each answer what is wrong
with it, if anything: the hello's fields, a deal from an explicit layout given back card for card,
a King removed with its event, a pair refused with its code and message and the game left as it
was, a tap probed, a draw, ``observe``, a deal code, a rules option, a layout refused with its
reason (``refusal-reasons``), a message in Spanish. The protocol only: a score, a move counter
or a removal's points is checked to be a whole number, not for its value (a rule, which the
scenarios judge and blame on its sentence); a value of a rules option the adapter declares
missing (``option-strict-win=true``) is not asked for. What an
adapter declares missing (its hello's ``"without"``) is not asked. Exit status 0 when every answer
is right, 1 otherwise, 2 when the adapter is not healthy at all.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from .capabilities import is_capability
from .driver import CAPABILITIES, DEFAULT_ON, DriverUnavailable, Outcome, SubprocessDriver
from .health import adapter_problem, observation_problems
from .steps import layout


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) < 200 else text[:200] + "…"


class Checker:
    def __init__(self, driver: SubprocessDriver, hello: dict) -> None:
        self.driver, self.hello = driver, hello
        self.lines: list[str] = []
        self.wrong = 0

    def offers(self, capability: str) -> bool:
        return capability in self.driver.capabilities

    def check(self, request: str, problems: list[str]) -> None:
        if problems:
            self.wrong += 1
            self.lines.append(f"WRONG  {request}")
            self.lines += [f"         - {problem}" for problem in problems]
        else:
            self.lines.append(f"ok     {request}")

    def skip(self, request: str, capability: str) -> None:
        self.lines.append(f"--     {request} (not asked: the adapter declares {capability!r} missing or does not list it)")

    def run(self, request: str, ask: Callable[[], Any], judge: Callable[[Any], list[str]]) -> Any:
        try:
            answer = ask()
        except DriverUnavailable as error:
            self.check(request, [str(error)])
            raise
        try:
            problems = judge(answer)
        except (TypeError, KeyError, IndexError, AttributeError, ValueError) as error:  # an answer of another shape
            problems = [f"its answer is not of the protocol's shape ({type(error).__name__}: {_show(str(error))})"]
        self.check(request, problems)
        return answer


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _hello_problems(hello: dict) -> list[str]:
    problems = []
    if not isinstance(hello.get("name"), str):
        problems.append(f'"name" should be a string naming the engine, not {_show(hello.get("name"))}')
    for key, known in (("capabilities", CAPABILITIES), ("without", DEFAULT_ON)):
        value = hello.get(key, [])
        if not isinstance(value, list):
            problems.append(f'"{key}" should be a list, not {_show(value)}')
            continue
        unknown = [name for name in value if name not in known and not (key == "without" and is_capability(name) and name.partition("=")[0] in known)]
        if unknown:
            problems.append(f'"{key}" names {unknown}, which the kit does not know ({", ".join(known)})')
    if "rules" in hello:
        from .rule_sets import problem

        error = problem(hello["rules"])
        if error is not None:
            problems.append(f'"rules" (the option values it always plays) cannot be taken: {error}')
    languages = hello.get("languages", ["en"])
    if not (isinstance(languages, list) and all(isinstance(language, str) and len(language) == 2 for language in languages)):
        problems.append(f'"languages" should be a list of two-letter codes (omitted: ["en"]), not {_show(languages)}')
    return problems


def _accepted(outcome: Outcome, without: frozenset[str]) -> list[str]:
    if not outcome.accepted:
        return [f"refused ({outcome.refused}: {outcome.message}); it is a legal request, to be answered {{\"ok\": true, \"state\": …}}"]
    return observation_problems(outcome.state, without)


def check_adapter(command: str) -> tuple[int, str]:
    """(exit status, the text to print)."""
    try:
        driver = SubprocessDriver(command)
    except DriverUnavailable as error:
        return 2, f"pyramide-conformance: cannot start the adapter: {error}"
    try:
        problem = adapter_problem(driver)
        if problem is not None:
            return 2, problem
        hello = driver._ask({"cmd": "hello"})
        checker = Checker(driver, hello)
        try:
            _check(checker, driver)
        except DriverUnavailable:
            pass
        head = f"pyramide-conformance --check-adapter: {command}"
        tail = f"\n{checker.wrong} wrong answer(s)" if checker.wrong else "\nevery answer is right"
        return (1 if checker.wrong else 0), "\n".join([head, *checker.lines]) + tail
    finally:
        driver.close(wait=1.0)


def _check(checker: Checker, driver: SubprocessDriver) -> None:
    without = driver.without
    checker.check('{"cmd": "hello"}', _hello_problems(checker.hello))
    documents = layout("documents")

    def dealt(outcome: Outcome) -> list[str]:
        problems = _accepted(outcome, without)
        if problems:
            return problems
        state = outcome.state
        for key in ("pyramid", "waste", "stock"):
            if state[key] != documents[key]:
                problems.append(f'"{key}" should be the layout\'s, {_show(documents[key])}, not {_show(state[key])} (stock: top first; waste: top last)')
        if state.get("status") != "playing":
            problems.append(f'"status" should be "playing", not {_show(state.get("status"))}')
        return problems

    fixed = driver.fixed_rules  # a deal is sent with the rules it declares it plays (docs/conformance.md § Fixed rules)
    if fixed:
        shown = json.dumps(fixed)
        checker.run(f'{{"cmd": "new_game", "layout": <the documents deal>, "rules": {shown}}}', lambda: driver.new_game(layout=documents, rules=dict(fixed)), dealt)
    else:
        checker.run('{"cmd": "new_game", "layout": <the documents deal>}', lambda: driver.new_game(layout=documents), dealt)

    def king(outcome: Outcome) -> list[str]:
        problems = _accepted(outcome, without)
        if problems:
            return problems
        event = {"type": "removed", "cards": ["KD"]}
        if [{k: v for k, v in e.items() if k in event} for e in outcome.events] != [event]:
            problems.append(f'"events" should be [{_show(event)}] (with "points"), not {_show(outcome.events)}')
        elif "scoring" not in without and not _whole(outcome.events[0].get("points")):
            problems.append(f'the removed event\'s "points" should be a whole number, not {_show(outcome.events[0].get("points"))}')
        place = documents["pyramid"][6].index("KD")
        if outcome.state["pyramid"][6][place] is not None:
            problems.append(f"the King's place (row 7, card {place + 1}) should be null, not {_show(outcome.state['pyramid'][6][place])}")
        return problems

    after_king = checker.run('{"cmd": "play", "move": "KD"}', lambda: driver.play("KD"), king)

    def refused(outcome: Outcome, code: str, message: str | None) -> list[str]:
        if outcome.accepted:
            return [f'accepted; it breaks a rule, to be answered {{"ok": false, "refused": "{code}", "message": …}}']
        problems = []
        if outcome.refused != code:
            problems.append(f'"refused" should be the machine code "{code}", not {_show(outcome.refused)}')
        if "messages" not in without and message is not None and outcome.message != message:
            problems.append(f'"message" should be the text shown, «{message}», not {_show(outcome.message)}')
        return problems

    before = driver.observe()
    checker.run('{"cmd": "play", "move": "7C+7S"} (they sum 14)', lambda: driver.play("7C+7S", "en"), lambda o: refused(o, "sum_not_13", None))
    checker.check('{"cmd": "observe"} after a refused move', [] if driver.observe() == before else ["the game changed: a refused move must leave it as it was"])
    if "es" in driver.languages and "messages" not in without:
        checker.run(
            '{"cmd": "play", "move": "7C+7S", "language": "es"}',
            lambda: driver.play("7C+7S", "es"),
            lambda o: refused(o, "sum_not_13", "La suma debe ser igual a 13"),
        )
    if checker.offers("taps"):
        def blocked(outcome: Outcome) -> list[str]:
            problems = _accepted(outcome, without)
            if not problems and (outcome.feedback or {}).get("code") != "card_blocked":
                problems.append(f'"feedback" should be {{"code": "card_blocked", "message": …}} (a covered card, error help on), not {_show(outcome.feedback)}')
            if driver.observe() != before:
                problems.append("a probe must leave the game as it was")
            return problems

        checker.run('{"cmd": "probe", "move": "tap:QC"} (covered)', lambda: driver.probe("tap:QC"), blocked)
    else:
        checker.skip('{"cmd": "probe", "move": "tap:QC"}', "taps")

    def drawn(outcome: Outcome) -> list[str]:
        problems = _accepted(outcome, without)
        if problems:
            return problems
        top = after_king.state["stock"][0] if after_king and after_king.accepted else None
        if [(e.get("type"), e.get("cards")) for e in outcome.events] != [("drawn", [top])]:
            problems.append(f'"events" should be [{{"type": "drawn", "cards": ["{top}"]}}], not {_show(outcome.events)}')
        if outcome.state["waste"][-1:] != [top]:
            problems.append(f'the waste\'s top (its last card) should be the stock\'s top "{top}", not {_show(outcome.state["waste"][-1:])}')
        return problems

    drew = checker.run('{"cmd": "play", "move": "draw"}', lambda: driver.play("draw"), drawn)
    checker.check('{"cmd": "observe"}', [] if drew.accepted and driver.observe() == drew.state else ['"state" should be the game the last move returned'])
    if checker.offers("codes"):
        checker.run('{"cmd": "new_game", "code": "PY1-N-AAAAAAS"}', lambda: driver.new_game(code="PY1-N-AAAAAAS"), dealt)
    else:
        checker.skip('{"cmd": "new_game", "code": "PY1-N-AAAAAAS"}', "codes")
    if checker.offers("option-strict-win") and "option-strict-win=true" not in driver.without and "strict_win" not in fixed:
        checker.run('{"cmd": "new_game", "rules": {"strict_win": true}}', lambda: driver.new_game(rules={"strict_win": True}), lambda o: _accepted(o, without))
    else:
        checker.skip('{"cmd": "new_game", "rules": {"strict_win": true}}', "option-strict-win")
    if checker.offers("refusal-reasons"):
        twice = {**documents, "stock": documents["stock"] + documents["waste"]}

        def why(outcome: Outcome) -> list[str]:
            if outcome.accepted:
                return ['accepted; a layout with a card twice is no deal, to be answered {"ok": false, "refused": "invalid_layout", …}']
            expected = {"reason": "duplicate", "field": "layout"}
            got = {key: outcome.why.get(key) for key in expected}
            return [] if got == expected else [f"the refusal should say why, {_show(expected)} (capability refusal-reasons), not {_show(got)}"]

        checker.run('{"cmd": "new_game", "layout": <the documents deal, its waste card twice>}', lambda: driver.new_game(layout=twice), why)
    else:
        checker.skip('{"cmd": "new_game", "layout": <a card twice>} and the reason of its refusal', "refusal-reasons")
    checker.run(
        '{"cmd": "new_game", "rules": {"no_such_option": 1}}',
        lambda: driver.new_game(rules={"no_such_option": 1}),
        lambda o: [] if not o.accepted else ['accepted; a rules option the engine does not know must be refused ({"ok": false, "refused": "unsupported", …})'],
    )
