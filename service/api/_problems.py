"""Errors as RFC 9457 ``application/problem+json``, each with a stable ``code`` and a localized text.

An illegal move or an impossible state in a well-formed request is a 422; a request that is not
JSON or not of the schema is a 400; the rest are the HTTP layer's own (404, 405, 408, 413, 414,
415, 431, 501), the solver pool's (503 with ``Retry-After``) and the last resort's (500). The
server's own errors, before the application sees the request (a request line or headers over
gunicorn's limits, broken HTTP), are written with ``problem_body`` too: see ``_server.py``.
"""

from __future__ import annotations

import json

from flask import Response
from pydantic import ValidationError

from ..engine import PyramideError
from ..locales import translate

MEDIA_TYPE = "application/problem+json"
TYPE_PREFIX = "urn:pyramide:problem:"

#: The status of each code; any other engine error is a 422.
STATUS: dict[str, int] = {
    "malformed_json": 400,
    "malformed_body": 400,
    "malformed_request": 400,
    "invalid_request": 400,
    "unknown_card": 400,
    "unknown_move": 400,
    "unknown_rules": 400,
    "not_found": 404,
    "method_not_allowed": 405,
    "request_timeout": 408,
    "body_too_large": 413,
    "uri_too_long": 414,
    "unsupported_media_type": 415,
    "expectation_failed": 417,
    "headers_too_large": 431,
    "internal_error": 500,
    "unsupported_transfer_coding": 501,
    "solver_busy": 503,
    "replay_busy": 503,
}
#: Where in the request a schema error is, to the code that names it.
_FIELD_CODES = {"state": "invalid_state", "code": "invalid_code", "rules": "invalid_rules", "layout": "invalid_layout"}


class ApiProblem(Exception):
    """A problem the API raises; ``params`` fill its message, ``headers`` go on the answer
    (``Retry-After`` for ``solver_busy``)."""

    def __init__(
        self, code: str, status: int, *, field: str | None = None, headers: dict[str, str] | None = None, **params: object
    ) -> None:
        super().__init__(code)
        self.code, self.status, self.field, self.params = code, status, field, params
        self.headers = headers or {}
        self.message_key = code


def problem_body(
    code: str, status: int, language: str, detail: str | None = None, field: str | None = None, extra: dict | None = None, **params: object
) -> bytes:
    """The problem document, as UTF-8 JSON; ``detail`` is the code's message (with ``params``)
    unless given; ``extra`` adds the machine-readable members of a refusal (``reason``, ``index``,
    ``move``, ``rule``)."""
    body = {
        "type": TYPE_PREFIX + code,
        "title": translate(language, f"title.{code}"),
        "status": status,
        "detail": translate(language, code, **params) if detail is None else detail,
        "code": code,
        "field": field,
        **(extra or {}),
    }
    return json.dumps(body, ensure_ascii=False).encode()


def problem_response(code: str, status: int, language: str, detail: str, field: str | None = None, extra: dict | None = None) -> Response:
    return Response(problem_body(code, status, language, detail, field, extra), status=status, mimetype=MEDIA_TYPE)


def refusal_members(error: PyramideError) -> dict:
    """The machine-readable members of an engine refusal: ``reason`` (its ``detail``), and for a
    log refusal ``index``, ``move`` and the ``rule`` broken."""
    if error.detail is None:
        return {}
    members: dict = {"reason": error.detail}
    if isinstance(error.params.get("index"), int):
        members["index"] = error.params["index"]
        move = error.params.get("move", error.params.get("entry"))
        if move is not None:
            members["move"] = str(move)
        reason = error.params.get("reason")
        if isinstance(reason, PyramideError):
            members["rule"] = reason.code
    return members


def from_engine(error: PyramideError, language: str) -> Response:
    status = STATUS.get(error.code, 422)
    return problem_response(error.code, status, language, error.message(language), error.field, refusal_members(error))


def from_api(problem: ApiProblem, language: str) -> Response:
    detail = translate(language, problem.message_key, **problem.params)
    response = problem_response(problem.code, problem.status, language, detail, problem.field)
    response.headers.update(problem.headers)
    return response


_MOVE_TAGS = {"pair", "king", "draw", "recycle", "undo", "tap_card", "tap_stock"}


def _field_name(location: tuple) -> str:
    parts: list[str] = []
    for i, part in enumerate(location):
        if isinstance(part, int):
            parts[-1:] = [f"{parts[-1] if parts else ''}[{part}]"]
        elif not (i == 1 and location[0] == "move" and part in _MOVE_TAGS) and not (
            i == 1 and location[0] == "rules" and part in ("Rules", "str")
        ):  # a union's branch: the move's tag, a rules object or a preset's name
            parts.append(str(part))
    return ".".join(parts)


def from_validation(error: ValidationError, language: str) -> Response:
    """The first schema error, named by the part of the request it is in."""
    first = error.errors(include_url=False)[0]
    location = first["loc"]
    if tuple(location) == ("state", "log") and first["type"] == "string_pattern_mismatch":
        # a log entry not in canonical form: the engine's refusal (422 log_entry, with its index),
        # the same however it is off (``10C+3S``, ``3S+TC``, a double space, lower case)
        from ..engine import parse_log

        try:
            parse_log(str(first.get("input")))
        except PyramideError as refusal:
            return from_engine(refusal, language)
    field = _field_name(location) or None
    top = str(location[0]) if location else ""
    if not location or (first["type"] == "missing" and len(location) == 1):
        code = "invalid_request"  # the body itself, or one of its top-level members, is missing
    elif top == "move":
        is_card = any(part in ("card", "cards") for part in location) and first["type"] in ("literal_error", "string_pattern_mismatch")
        code = "unknown_card" if is_card else "unknown_move"
    else:
        code = _FIELD_CODES.get(top, "invalid_request")
    if code == "unknown_card":
        detail = translate(language, "unknown_card", card=str(first.get("input"))[:16])
    else:
        detail = translate(language, "invalid_request", where=field or "/", reason=first["msg"])
    return problem_response(code, 400, language, detail, field)
