"""The implementation's health, checked before any scenario runs.

A kit that runs 600 scenarios against a wrong URL, or an adapter that died at start, reports 600
"rule failures" that are no such thing. So before the first scenario the kit asks three things,
each within a few seconds, and checks that the answers look like the protocol
(``docs/conformance.md`` § Health check):

1. hello: ``GET /v1/rules`` over HTTP (a JSON object with ``default``), ``{"cmd": "hello"}`` for an
   adapter (a JSON object);
2. a fresh deal: ``POST /v1/games {}`` / ``new_game`` with nothing given (an observation of 7 rows);
3. one legal move: ``draw`` (a fresh deal always has a stock), accepted, with an observation.

When one fails the kit stops with exit status 2 and one paragraph saying what was asked, what came
back (the HTTP status and body, or the adapter's line verbatim, or its exit status and the tail of
its standard error) and what to do. :func:`http_problem` and :func:`adapter_problem` return that
paragraph, or None when the implementation is healthy.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

#: Seconds the whole health check may take (the kit exits within 5 s of being started).
BUDGET = 4.0
STATUSES = ("playing", "won", "blocked")


def _show(value: Any, limit: int = 300) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = text.strip()
    return repr(text[:limit] + ("…" if len(text) > limit else ""))


def observation_problems(state: Any, without: frozenset[str] = frozenset()) -> list[str]:
    """What is wrong with an observation of a fresh game (``docs/conformance.md`` § Drivers)."""
    if not isinstance(state, dict):
        return [f"the game is not a JSON object but {_show(state)}"]
    problems = []
    pyramid = state.get("pyramid")
    if not (isinstance(pyramid, list) and pyramid and all(isinstance(row, list) for row in pyramid)):
        problems.append(f'"pyramid" is not a list of rows but {_show(pyramid)}')
    elif [len(row) for row in pyramid] != list(range(1, len(pyramid) + 1)):
        problems.append(f'"pyramid" rows have {[len(row) for row in pyramid]} cards, not 1, 2, 3, …')
    elif not all(card is None or isinstance(card, str) for row in pyramid for card in row):
        problems.append('"pyramid" holds something other than card codes and null')
    for key in ("stock", "waste"):
        if not (isinstance(state.get(key), list) and all(isinstance(card, str) for card in state[key])):
            problems.append(f'"{key}" is not a list of card codes but {_show(state.get(key))}')
    for key, capability in (("score", "scoring"), ("moves", "move-counter")):
        value = state.get(key)
        if not (isinstance(value, int) and not isinstance(value, bool)) and not (value is None and capability in without):
            problems.append(f'"{key}" is not a whole number but {_show(value)}' + (f" (or declare {capability!r} missing)"))
    if state.get("status") not in STATUSES:
        problems.append(f'"status" is {_show(state.get("status"))}, not one of {", ".join(STATUSES)}')
    if "selected" in state and not (state["selected"] is None or isinstance(state["selected"], str)):
        problems.append(f'"selected" is neither null nor a card code but {_show(state["selected"])}')
    return problems


# -- over HTTP --------------------------------------------------------------------------------------


def _request(url: str, method: str, body: Any, timeout: float) -> tuple[int, str, Any]:
    """(status, content type, body decoded when JSON, else text); raises OSError when unreachable."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Accept": "application/json", **({"Content-Type": "application/json"} if data is not None else {})}
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=max(timeout, 0.2)) as response:
            status, content_type, raw = response.status, response.headers.get("Content-Type", ""), response.read(65536)
    except urllib.error.HTTPError as error:
        status, content_type, raw = error.code, error.headers.get("Content-Type", ""), error.read(65536)
    text = raw.decode(errors="replace")
    try:
        decoded = json.loads(text) if text else None
    except ValueError:
        decoded = text
    return status, content_type, decoded


def http_problem(base_url: str, without: frozenset[str] = frozenset()) -> str | None:
    """None when the server at ``base_url`` speaks Pyramide's API; otherwise one paragraph."""
    base = base_url.rstrip("/")
    deadline = time.monotonic() + BUDGET
    head = f"pyramide-conformance: {base_url} is not a working Pyramide API, so no scenario was run."
    parsed = urllib.parse.urlsplit(base)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        return f"{head} It is not an http:// or https:// URL."
    hint = ""
    if parsed.path.rstrip("/").endswith("/v1"):
        hint = f" The base URL must not end in /v1 (the kit adds /v1/… itself): try --base-url {base[: -len('/v1')]}."

    def ask(method: str, path: str, body: Any = None) -> tuple[int, str, Any] | str:
        try:
            return _request(base + path, method, body, deadline - time.monotonic())
        except (urllib.error.URLError, OSError, ValueError) as error:
            reason = getattr(error, "reason", error)
            return f"{head} {method} {base}{path} got no answer: {reason}.{hint}"

    answer = ask("GET", "/v1/rules")
    if isinstance(answer, str):
        return answer
    status, content_type, body = answer
    if status != 200 or not isinstance(body, dict) or not isinstance(body.get("default"), dict):
        return (
            f"{head} GET {base}/v1/rules (hello) answered HTTP {status} ({content_type or 'no content type'}): "
            f"{_show(body)}; a Pyramide API answers 200 with a JSON object whose \"default\" is the rules."
            f"{hint}"
        )
    def game(path: str, body: Any, expected: int, what: str, tail: str) -> tuple[Any, str | None]:
        """The game a POST answers with, or (None, the paragraph saying what went wrong)."""
        answer = ask("POST", path, body)
        if isinstance(answer, str):
            return None, answer
        status, content_type, reply = answer
        state = reply.get("state") if isinstance(reply, dict) else None
        problems = observation_problems(state, without) if status == expected else []
        if status != expected or state is None or problems:
            said = "; ".join(problems) or f"HTTP {status} ({content_type}): {_show(reply)}"
            return None, f"{head} POST {base}{path} {what}: {said}.{tail}"
        return state, None

    state, problem = game("/v1/games", {}, 201, "{} (a fresh deal) did not answer 201 with a game", hint)
    if problem is None:
        move = {"state": state, "move": {"type": "draw"}}
        _, problem = game("/v1/moves", move, 200, "(a draw on a fresh deal, always legal) was not accepted with a game", "")
    return problem


# -- an adapter behind --driver-command ------------------------------------------------------------


def adapter_problem(driver) -> str | None:
    """None when the adapter answered hello, a fresh deal and a draw like the protocol says;
    otherwise one paragraph (``driver`` is a started :class:`driver.SubprocessDriver`)."""
    from .driver import DriverUnavailable

    deadline = getattr(driver, "started", time.monotonic()) + BUDGET
    head = f"pyramide-conformance: the adapter {driver.command!r} is not working, so no scenario was run."
    try:
        if driver.hello_error:
            return f"{head} {driver.hello_error}"
        outcome = driver.new_game(timeout=max(deadline - time.monotonic(), 0.2))
        if not outcome.accepted:
            return f'{head} A fresh deal ({{"cmd": "new_game"}} with nothing given) was refused: {outcome.refused} ({outcome.message}).'
        problems = observation_problems(outcome.state, driver.without)
        if problems:
            return f"{head} The game it dealt does not look like the protocol's: {'; '.join(problems)}."
        outcome = driver.play("draw", timeout=max(deadline - time.monotonic(), 0.2))
        if not outcome.accepted:
            return f"{head} A draw on a fresh deal (always legal) was refused: {outcome.refused} ({outcome.message})."
        problems = observation_problems(outcome.state, driver.without)
        if problems:
            return f"{head} The game after a draw does not look like the protocol's: {'; '.join(problems)}."
    except DriverUnavailable as error:
        return f"{head} {error}"
    return None
