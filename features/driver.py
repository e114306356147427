"""The one seam between the kit and an implementation: a **driver**.

The kit asks an implementation three things only (``docs/conformance.md`` § Drivers):

- ``new_game(layout=…, rules=…, error_help=…, code=…)``: deal a game (an explicit layout, a deal
  code, or at random under some rules);
- ``play(move)``: play one move or tap, written in the kit's text form (``TC+3S``, ``KD``, ``draw``,
  ``recycle``, ``undo``, ``tap:7S``, ``tap:stock``; under Apophis ``draw@2`` and ``tap:waste2``);
- ``observe()``: the game as the implementation sees it now;
- ``probe(move)``: what a move would do, without playing it (to find the free cards by tapping).

Each answer is an :class:`Outcome`; the game is an *observation*, a dict of what the rules make
observable and nothing of an implementation's own encoding::

    {"pyramid": [["JD"], ["6C", "7H"], …, ["7C", null, …]],   # 7 rows, null where removed
     "stock": ["AC", …],                                        # top first: the next card drawn
     "waste": ["7D"],                                           # top last: the card in play
     "score": 0, "moves": 0, "selected": null,                  # the card a first tap selected
     "status": "playing",                                       # playing | won | blocked
     "code": "PYR1-…"}                                          # the deal code (capability "codes")

Under Apophis (three waste piles) it also carries ``"piles"``: waste piles 2 and 3, each top card
last (``"waste"`` is pile 1).

An observation may also carry ``"opaque"``: anything more the implementation returns (Pyramide's
whole state, history included). The kit only compares it for equality, to check that a move
which must change nothing changes nothing.

Two drivers ship with the kit: :class:`HttpDriver` for Pyramide's HTTP API (any server speaking
it, or Pyramide's own app in-process), and :class:`SubprocessDriver`, which speaks JSON lines to
a command of your own, so that an engine with no HTTP at all needs only a small adapter
(``features/adapters/pyramide_engine.py`` is one, wrapping Pyramide's engine).
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from .client import Reply

#: What a driver may support beyond the rules themselves; an implementation lists in its hello the
#: ones it offers, and scenarios that need one it does not offer are skipped.
OPT_IN = {
    "api": "Pyramide's HTTP API contract: problem codes of moves the app has no button for, legal "
    "moves, descriptions, forged states, Content-Language",
    "codes": "Pyramide's deal codes (PYR1-…, and the app's PY1-… refused but for the documents' deal): dealing from a code, the code of a game",
    "solver": "POST /v1/solve and POST /v1/hint",
    # over HTTP, offered when a refusal of the server carries a "reason" (features/driver.py,
    # HttpDriver.capabilities): an implementation that gives codes but no reasons is skipped there
    "refusal-reasons": "why a request is refused, beyond its code: the machine reason of an invalid_state, "
    "invalid_code or invalid_layout (not_derived, log_illegal, duplicate…), the field it names, the index of a log's action and the rule it breaks",
    # 003's variants of another shape, each a preset an implementation of the app's rules may
    # leave out (test262's feature flags): their scenarios need the capability.
    "variant-tuts-tomb": "003's Tut's Tomb: draw_count 3, three cards a draw (preset tuts-tomb)",
    "variant-apophis": "003's Apophis: waste_piles 3, three waste piles (preset apophis)",
    "variant-pharaoh": "003's Pharaoh: rows 10, a 10-row pyramid from two decks (preset pharaoh)",
    "variant-spanish": "003's Spanish pyramid: deck spanish, the 48-card Spanish deck summing 12 (preset spanish)",
}
#: What the documents' game has and an implementation may still lack: offered unless declared
#: missing (the adapter's hello ``"without"``, or ``--without`` on the command line). A scenario's
#: needs are derived from the steps it uses (``features/capabilities.py``), not tagged by hand.
DEFAULT_ON = {
    "taps": "tap play: a tap selects a card, a second tap pairs it; taps on the stock; the selection; the free cards (found by tapping)",
    "scoring": "the score (000 #43): points of a removal, of an undo, the game's score",
    "move-counter": "the move counter (000 #46)",
    "undo": "the undo move (000 #48)",
    "undo-limit": "undo reaching back exactly 100 actions (000 #48)",
    "messages": "the messages shown, to the letter (000 #29-#31…): feedback and refusal texts",
    "option-strict-win": 'the rules option strict_win (003 strict victory)',
    "option-max-recycles": "the rules option max_recycles (limited passes through the stock)",
    "option-drawn-pairs-with-waste": "the rules option drawn_pairs_with_waste",
    "option-pair-with-covering": "the rules option pair_with_covering",
    "option-initial-waste": "the rules option initial_waste (the traditional deal: no waste card)",
    "option-unlimited-undo": "the rules option unlimited_undo (004)",
    "option-notify-unwinnable": "the rules option notify_unwinnable (004: needs a solver to say a game can no longer be won)",
}
CAPABILITIES = {**OPT_IN, **DEFAULT_ON}
LANGUAGES = ("en", "es", "it", "fr")


@dataclass
class Outcome:
    """What one request did: accepted (``state`` is the game after it) or refused (``refused`` is
    the machine code, ``message`` the text shown)."""

    accepted: bool
    state: dict[str, Any] | None = None
    refused: str | None = None
    message: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    feedback: dict[str, Any] | None = None
    #: the transport's own details (HTTP status, headers, body) for the @api checks
    reply: Reply | None = None
    #: why it was refused, beyond the code (capability ``refusal-reasons``): ``reason``, and where
    #: they apply ``field``, ``index``, ``move`` and ``rule``; empty when the answer gives none
    why: dict[str, Any] = field(default_factory=dict)


#: The members of a refusal that say why (``docs/api.md``, ``docs/conformance.md``).
WHY = ("reason", "field", "index", "move", "rule")


def why_of(answer: dict[str, Any]) -> dict[str, Any]:
    """The members of a refusal that say why, those given and not null."""
    return {key: answer[key] for key in WHY if answer.get(key) is not None}


class Driver(Protocol):
    capabilities: frozenset[str]
    languages: tuple[str, ...]

    def new_game(
        self,
        *,
        layout: dict | None = None,
        rules: dict | None = None,
        error_help: bool = True,
        code: str | None = None,
        language: str | None = None,
    ) -> Outcome: ...

    def play(self, move: str, language: str | None = None) -> Outcome: ...

    def probe(self, move: str, language: str | None = None) -> Outcome:
        """What ``move`` would do now, without playing it (the game stays as it is)."""
        ...

    def observe(self) -> dict[str, Any] | None: ...


class DriverUnavailable(Exception):
    """The implementation cannot be reached at all (a wrong --base-url, a command that fails)."""


# -- Pyramide's HTTP API ----------------------------------------------------------------------------


def move_json(text: str) -> dict[str, Any]:
    """The kit's text form of a move as Pyramide's API writes it."""
    if text in ("draw", "recycle", "undo"):
        return {"type": text}
    if text in ("tap:stock", "tap:waste1", "tap:waste2", "tap:waste3"):
        return {"type": "tap", "pile": text[4:]}
    if text.startswith("draw@"):
        return {"type": "draw", "pile": "waste" + text[5:]}
    if text.startswith("tap:"):
        return {"type": "tap", "card": text[4:]}
    if "+" in text:
        first, second = text.split("+")
        return {"type": "pair", "cards": [first, second]}
    return {"type": "king", "card": text}


def move_text(move: dict[str, Any]) -> str:
    """The inverse of :func:`move_json`."""
    if move["type"] == "pair":
        return "+".join(move["cards"])
    if move["type"] == "king":
        return move["card"]
    if move["type"] == "tap":
        return "tap:" + move.get("card", move.get("pile", "stock"))
    if move["type"] == "draw" and "pile" in move:
        return "draw@" + move["pile"][-1]
    return move["type"]


def observation(state: dict[str, Any]) -> dict[str, Any]:
    """What the rules make observable in a state of Pyramide's API, and the state itself."""
    keys = ("pyramid", "stock", "waste", "score", "moves", "selected", "status", "code")
    piles = {"piles": state["piles"]} if "piles" in state else {}  # Apophis's waste piles 2 and 3
    return {**{key: state[key] for key in keys}, **piles, "opaque": state}


class HttpDriver:
    """Pyramide's HTTP API (``docs/api.md``), through ``client`` (HTTP or in-process). The API is
    stateless: the driver keeps the last state returned and sends it with the next move."""

    languages = LANGUAGES

    def __init__(self, client, without: frozenset[str] = frozenset(), rules: dict[str, Any] | None = None) -> None:
        self.client = client
        self.state: dict[str, Any] | None = None
        self.without = frozenset(without)
        #: the option values the implementation plays whatever it is asked (``--rules``)
        self.fixed_rules = dict(rules or {})
        self._capabilities: frozenset[str] | None = None

    @property
    def capabilities(self) -> frozenset[str]:
        """Everything, but the variants of another shape whose preset ``GET /v1/rules`` does not
        list (an API of the app's rules alone lists none of them), the rules options neither its
        default nor a preset names, ``refusal-reasons`` when its refusals carry no ``reason``
        (:meth:`gives_reasons`), and what ``--without`` leaves out."""
        if self._capabilities is None:
            reply = self.request("GET", "/v1/rules")
            body = reply.body if reply.status == 200 and isinstance(reply.body, dict) else {}
            presets = body.get("presets") if isinstance(body.get("presets"), dict) else {}
            options = set(body.get("default") or {}) if isinstance(body.get("default"), dict) else set()
            for rules in presets.values():
                options |= set(rules) if isinstance(rules, dict) else set()

            def offered(name: str) -> bool:
                if name.startswith("variant-"):
                    return name.removeprefix("variant-") in presets
                if name.startswith("option-"):
                    return name.removeprefix("option-").replace("-", "_") in options
                if name == "refusal-reasons":
                    return self.gives_reasons()
                return True

            self._capabilities = frozenset(name for name in CAPABILITIES if offered(name) and name not in self.without)
        return self._capabilities

    def gives_reasons(self) -> bool:
        """Whether the server's refusals say why beyond their code: a layout with a card twice is
        refused (422) with a ``reason`` (asked once per client: a server declares nothing)."""
        known = getattr(self.client, "kit_gives_reasons", None)
        if known is None:
            deck = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]
            rows = [deck[n * (n - 1) // 2 : n * (n + 1) // 2] for n in range(1, 8)]
            layout = {"pyramid": rows, "waste": deck[28:29], "stock": deck[29:] + deck[:1]}
            reply = self.request("POST", "/v1/games", {"layout": layout})
            body = reply.body if isinstance(reply.body, dict) else {}
            known = reply.status == 422 and isinstance(body.get("reason"), str) and bool(body["reason"])
            self.client.kit_gives_reasons = known
        return known

    def request(self, method: str, path: str, body: Any = None, language: str | None = None) -> Reply:
        return self.client.request(method, path, body, language)

    def _outcome(self, reply: Reply, accepted_status: int, keep: bool = True) -> Outcome:
        body = reply.body if isinstance(reply.body, dict) else {}
        if reply.status == accepted_status and "state" in body:
            if keep:
                self.state = body["state"]
            state = observation(body["state"])
            return Outcome(True, state, events=body.get("events", []), feedback=body.get("feedback"), reply=reply)
        code = body.get("code", f"http_{reply.status}")
        return Outcome(False, refused=code, message=body.get("detail"), reply=reply, why=why_of(body))

    def new_game(self, *, layout=None, rules=None, error_help=True, code=None, language=None) -> Outcome:
        body: dict[str, Any] = {}
        if code is not None:
            body["code"] = code
        if layout is not None:
            body["layout"] = layout
        if rules is not None:
            body["rules"] = rules
        if not error_help:
            body["error_help"] = False
        return self._outcome(self.request("POST", "/v1/games", body, language), 201)

    def play(self, move: str, language: str | None = None) -> Outcome:
        return self.send(self.state, move, language)

    def probe(self, move: str, language: str | None = None) -> Outcome:
        """What ``move`` would do, the game left as it is."""
        return self.send(self.state, move, language, keep=False)

    def send(self, state: dict[str, Any] | None, move: str, language: str | None = None, keep: bool = True) -> Outcome:
        """Play ``move`` from ``state`` (the kit's forged states go through here)."""
        reply = self.request("POST", "/v1/moves", {"state": state, "move": move_json(move)}, language)
        return self._outcome(reply, 200, keep)

    def observe(self) -> dict[str, Any] | None:
        return None if self.state is None else observation(self.state)


# -- JSON lines over a subprocess -------------------------------------------------------------------


def _cpu_seconds(pid: int) -> float | None:
    """The CPU time process ``pid`` and the children it waited for have used, from Linux's
    /proc/PID/stat (utime, stime, cutime, cstime); None where there is no such file."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return sum(int(ticks) for ticks in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _runnable(pid: int) -> bool:
    """Whether process ``pid`` is running or waiting for a CPU (state ``R`` in Linux's /proc): on a
    loaded machine a process starting up may get no CPU for a second, and is not idle for that."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "R"
    except (OSError, IndexError):
        return False


class SubprocessDriver:
    """An implementation behind a command that reads one JSON request per line on its standard
    input and writes one JSON answer per line on its standard output (``docs/conformance.md``
    § The subprocess protocol). The process is started once and asked ``hello`` first.

    Its standard output is read by a thread, so that every request has a time limit; its standard
    error is kept (the last lines) to be shown when it stops answering. A line that is not a JSON
    object stops the run and is shown verbatim: it is the adapter's bug, not a rule failure."""

    #: seconds an answer may take during the scenarios (hello and the health check take less)
    TIMEOUT = 30.0
    #: how often the adapter's CPU time is looked at while an answer is waited for, and over how
    #: long it must have used none to be taken for idle
    SAMPLE = 0.25
    BUSY_WINDOW = 1.0

    def __init__(
        self, command: str, without: frozenset[str] = frozenset(), hello_timeout: float = 3.5, rules: dict[str, Any] | None = None
    ) -> None:
        import collections
        import queue
        import threading

        self.command = command
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.hello_error: str | None = None
        try:
            self.process = subprocess.Popen(
                shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, bufsize=1, encoding="utf-8", errors="replace",
            )  # fmt: skip
        except (OSError, ValueError) as error:
            raise DriverUnavailable(f"cannot start {command!r}: {error}") from None

        def pump(stream, sink, end: bool) -> None:
            for line in stream:
                sink(line)
            if end:
                self._lines.put(None)  # standard output closed: the adapter exited

        self.started = time.monotonic()
        threading.Thread(target=pump, args=(self.process.stdout, self._lines.put, True), daemon=True).start()
        threading.Thread(target=pump, args=(self.process.stderr, self.stderr_tail.append, False), daemon=True).start()
        self.capabilities = frozenset()
        self.languages: tuple[str, ...] = ("en",)
        self.without = frozenset(without)
        self.fixed_rules: dict[str, Any] = dict(rules or {})
        try:
            hello = self._ask({"cmd": "hello"}, timeout=hello_timeout)
        except DriverUnavailable as error:
            self.hello_error = str(error)
            return
        declared = hello.get("capabilities", [])
        lacking = hello.get("without", [])
        listed = (declared, lacking, hello.get("languages", ["en"]))
        if not all(isinstance(names, list) and all(isinstance(name, str) for name in names) for names in listed):
            self.hello_error = f'Its hello answer {json.dumps(hello)[:300]!r} has "capabilities", "without" or "languages" that is not a list of strings.'
            return
        from .rule_sets import problem

        played = hello.get("rules") or {}
        error = problem(played)
        if error is not None:
            self.hello_error = f'Its hello answer {json.dumps(hello)[:300]!r} has "rules" the kit cannot take: {error}.'
            return
        self.fixed_rules = {**played, **self.fixed_rules}  # the command line's --rules win
        self.without = self.without | frozenset(lacking)
        self.capabilities = frozenset(
            name for name in CAPABILITIES if (name in declared or name in DEFAULT_ON) and name not in self.without
        )
        self.languages = tuple(hello.get("languages", ["en"]))

    def _tail(self) -> str:
        time.sleep(0.05)  # let the stderr thread catch the last lines of an adapter that just exited
        lines = [line.rstrip("\n") for line in self.stderr_tail]
        return " Its standard error ended with: " + " | ".join(lines[-8:]) if lines else " It wrote nothing on its standard error."

    def _ask(self, request: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        import queue

        try:
            self.process.stdin.write(json.dumps(request) + "\n")  # type: ignore[union-attr]
            self.process.stdin.flush()  # type: ignore[union-attr]
        except (BrokenPipeError, OSError, ValueError):
            pass  # it exited: the line below says so
        try:
            line = self._next_line(timeout or self.TIMEOUT)
        except queue.Empty:
            raise DriverUnavailable(
                f"It gave no answer to {json.dumps(request)[:200]} within {timeout or self.TIMEOUT:g} s.{self._tail()}"
            ) from None
        if line is None:
            self._lines.put(None)  # every later request sees the end too
            try:
                code = self.process.wait(timeout=1)
            except subprocess.TimeoutExpired:
                code = None
            status = f"exited with status {code}" if code is not None else "closed its standard output"
            raise DriverUnavailable(f"It {status} when asked {request['cmd']!r}.{self._tail()}")
        try:
            answer = json.loads(line)
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            raise DriverUnavailable(
                f"Asked {request['cmd']!r}, it wrote a line that is not a JSON object: {line.rstrip(chr(10))!r}. "
                "The protocol allows one JSON answer per line on standard output and nothing else there "
                "(an engine's own output belongs on standard error)."
            )
        return answer

    def _next_line(self, timeout: float) -> str | None:
        """The adapter's next line, waited for ``timeout`` seconds of the adapter doing nothing.
        A short deadline (hello's, the health check's) is not the machine's to spend: while the
        adapter is using the CPU (starting up on a busy machine) the wait goes on, a quarter of a
        second at a time, up to TIMEOUT in all; one asleep or blocked is stopped at ``timeout``.
        Busy means busy in the last second, not since it started: a silent adapter that spent CPU
        starting (a Python importing its engine) is stopped at ``timeout`` all the same (it was
        waited for 1 s more, and the kit exited after 5.1 s), while one starved of the CPU for a
        moment on a loaded machine is not: it used some in the last second, or it is waiting for
        the CPU now (runnable). (Its CPU time and state are read from Linux's /proc; elsewhere the
        deadline is the plain ``timeout``.)"""
        import collections
        import queue

        started = time.monotonic()
        until = started + timeout
        samples = collections.deque([_cpu_seconds(self.process.pid)], maxlen=round(self.BUSY_WINDOW / self.SAMPLE) + 1)
        while True:
            try:
                return self._lines.get(timeout=max(0.0, min(self.SAMPLE, until - time.monotonic())))
            except queue.Empty:
                samples.append(_cpu_seconds(self.process.pid))
                if time.monotonic() < until:
                    continue
                busy = (None not in samples and samples[-1] > samples[0]) or _runnable(self.process.pid)
                if not busy or time.monotonic() - started >= max(timeout, self.TIMEOUT):
                    raise
                until = time.monotonic() + self.SAMPLE

    def _outcome(self, answer: dict[str, Any]) -> Outcome:
        if answer.get("ok"):
            return Outcome(True, answer.get("state"), events=answer.get("events") or [], feedback=answer.get("feedback"))
        return Outcome(False, refused=answer.get("refused"), message=answer.get("message"), why=why_of(answer))

    def new_game(self, *, layout=None, rules=None, error_help=True, code=None, language=None, timeout=None) -> Outcome:
        request = {"cmd": "new_game", "layout": layout, "rules": rules, "error_help": error_help, "code": code}
        return self._outcome(self._ask({**request, "language": language}, timeout))

    def play(self, move: str, language: str | None = None, timeout: float | None = None) -> Outcome:
        return self._outcome(self._ask({"cmd": "play", "move": move, "language": language}, timeout))

    def probe(self, move: str, language: str | None = None) -> Outcome:
        return self._outcome(self._ask({"cmd": "probe", "move": move, "language": language}))

    def observe(self) -> dict[str, Any] | None:
        return self._ask({"cmd": "observe"}).get("state")

    def close(self, wait: float = 5.0) -> None:
        """End the adapter: its standard input closed, then killed after ``wait`` seconds."""
        if self.process.poll() is None:
            try:
                self.process.stdin.close()  # type: ignore[union-attr]
            except OSError:
                pass
            try:
                self.process.wait(timeout=wait)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
