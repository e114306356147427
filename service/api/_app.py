"""The Flask application: parse the request, call the engine, render the answer. Nothing else.

The server keeps no game state: every request carries the state, every response returns the next.
"""

from __future__ import annotations

import pydantic_core
from typing import Any

from flask import Flask, Response, g, request
from pydantic import BaseModel, ValidationError
from werkzeug.exceptions import HTTPException

from .. import __version__
from ..engine import (
    MAX_LOG,
    GameState,
    Layout,
    Move,
    PyramideError,
    Rules,
    describe,
    foresee,
    legal_moves,
    options_registry,
    outlook,
    play,
    replay,
    tap_order,
)
from ..locales import DEFAULT_LANGUAGE, LANGUAGES, translate

from . import _models as models
from ._limits import LONG_BODY, client_of, hint, long_replay, outlook_solver, replay_busy, replay_queue_full, solve, winnable_deal  # the engine's, in the solver pool and under a deadline
from ._problems import ApiProblem, from_api, from_engine, from_validation

#: The largest body accepted: a full state is about 3 KiB, and its log about 6 bytes an action.
MAX_BODY = models.MAX_BODY
_HTTP_CODES = {
    404: "not_found",
    405: "method_not_allowed",
    408: "request_timeout",
    413: "body_too_large",
    414: "uri_too_long",
    415: "unsupported_media_type",
    431: "headers_too_large",
}


def create_app() -> Flask:
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.before_request(_negotiate_language)
    app.after_request(_language_headers)
    app.register_error_handler(PyramideError, lambda error: from_engine(error, _language()))
    app.register_error_handler(ApiProblem, lambda problem: from_api(problem, _language()))
    app.register_error_handler(ValidationError, lambda error: from_validation(error, _language()))
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected_error)
    _add_routes(app)
    from ._docs import add_docs
    from ._http import install

    add_docs(app)
    from ._web import add_web

    add_web(app)  # the reference web client at /
    install(app, MAX_BODY)  # the body read whole first, OPTIONS, CORS, security and cache headers
    return app


# -- Language --------------------------------------------------------------------------------------


def _negotiate_language() -> None:
    """``Accept-Language`` to one of our catalogues (``es-MX`` → es; ``de-DE,it;q=0.5`` → it)."""
    g.language = request.accept_languages.best_match(LANGUAGES, default=DEFAULT_LANGUAGE)


def _language() -> str:
    return g.get("language", DEFAULT_LANGUAGE)


def _language_headers(response: Response) -> Response:
    response.headers["Content-Language"] = _language()
    response.vary.add("Accept-Language")
    return response


def _http_error(error: HTTPException) -> Response:
    code = _HTTP_CODES.get(error.code or 400, "invalid_request")
    problem = ApiProblem(code, error.code or 400, limit=MAX_BODY, where="/", reason=error.description or "")
    response = from_api(problem, _language())
    if error.code == 405:
        response.headers["Allow"] = ", ".join(sorted(getattr(error, "valid_methods", None) or []))
    return response


def _unexpected_error(error: Exception) -> Response:
    """The last resort: logged with its traceback, answered ``500 internal_error`` (never HTML)."""
    from flask import current_app

    current_app.logger.error("unexpected error on %s %s", request.method, request.path, exc_info=error)
    return from_api(ApiProblem("internal_error", 500), _language())


# -- Request and response bodies -------------------------------------------------------------------


#: The endpoints whose bodies carry a log or moves to replay (``_limits.long_replay``).
_REPLAYING = {"move", "legal_moves", "describe", "solve", "hint", "replay"}


def _body(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON body, checked against ``model``; 415, 400 (malformed JSON or schema) otherwise;
    503 unread while the replay pool's queue is full, if it is long enough to hold a long log."""
    if not request.is_json:
        raise ApiProblem("unsupported_media_type", 415)
    if request.endpoint in _REPLAYING and (request.content_length or 0) > LONG_BODY and replay_queue_full():
        raise replay_busy()
    try:  # pydantic-core's JSON parser: strict JSON (no NaN), several times faster than json.loads
        data = pydantic_core.from_json(request.get_data(), allow_inf_nan=False)
    except ValueError:
        raise ApiProblem("malformed_json", 400) from None
    model.__pydantic_validator__.validate_python(data)
    return data


def _state(data: Any) -> GameState:
    """The request's state, replayed from its deal (``GameState.from_json``): a long log in the
    replay pool's processes (``_limits.long_replay``)."""
    log = data.get("log") if isinstance(data, dict) else None
    actions = log.count(" ") + 1 if isinstance(log, str) and log else 0
    return long_replay(actions, GameState.from_json, data, client=_client())


def _client() -> str:
    """Who asks: the solver's and the replay's places are shared out by it (``_limits``)."""
    return client_of(request.environ)


def _json(body: dict[str, Any], status: int = 200) -> Response:
    return Response(pydantic_core.to_json(body), status=status, mimetype="application/json")


# -- Endpoints -------------------------------------------------------------------------------------


def _rules_and_layout(data: dict[str, Any]) -> tuple[Rules | None, Layout | None]:
    """The deal's ``rules`` and ``layout`` of a new game or a replay, when given."""
    given = data.get("rules")
    rules = None if given is None else Rules.preset(given) if isinstance(given, str) else Rules.from_json(given)
    layout = Layout.from_json(data["layout"]) if data.get("layout") is not None else None
    return rules, layout


def _new_game() -> Response:
    data = _body(models.NewGameRequest)
    rules, layout = _rules_and_layout(data)
    if data.get("winnable"):
        if data.get("code") is not None or layout is not None:
            raise PyramideError("conflicting_deal", field="winnable")
        state = winnable_deal(rules or Rules(), budget=models.DEFAULT_BUDGET, client=_client())
        state = state.evolve(error_help=data.get("error_help", True))
    else:
        state = GameState.new(data.get("code"), rules=rules, layout=layout, error_help=data.get("error_help", True))
    body: dict[str, Any] = {"state": state.to_json()}
    seen = outlook(state, budget=models.OUTLOOK_BUDGET, solver=outlook_solver(_client()))
    if seen is not None:
        body["outlook"] = seen
    return _json(body, 201)


def _move() -> Response:
    data = _body(models.MoveRequest)
    turn = play(_state(data["state"]), Move.from_json(data["move"]))
    if len(turn.state.log) > MAX_LOG:  # (the server never answers a state it would refuse)
        raise ApiProblem("log_full", 422, field="state.log", limit=MAX_LOG)
    # 004's outlook, and its no_win_left notice: the engine's (``foresee``), searched in the solver pool
    body = foresee(turn, budget=models.OUTLOOK_BUDGET, solver=outlook_solver(_client())).to_json()
    if body["feedback"] is not None:
        body["feedback"]["message"] = translate(_language(), body["feedback"]["code"])
    return _json(body)


def _legal_moves() -> Response:
    state = _state(_body(models.StateRequest)["state"])
    return _json({"moves": [move.to_json() for move in legal_moves(state)]})


def _describe() -> Response:
    state = _state(_body(models.StateRequest)["state"])
    return _json({"description": describe(state, _language()), "language": _language()})


def _solve() -> Response:
    data = _body(models.SolveRequest)
    solution = solve(
        _state(data["state"]),
        budget=data.get("budget", models.DEFAULT_BUDGET),
        shortest=data.get("shortest", False),
        client=_client(),
    )
    return _json(solution.to_json())


def _hint() -> Response:
    data = _body(models.HintRequest)
    state = _state(data["state"])
    move, solution = hint(state, budget=data.get("budget", models.DEFAULT_BUDGET), client=_client())
    answer = None if move is None else move.to_json()
    if answer is not None and move.type == "pair":  # (its cards in the order a player can tap them)
        answer["cards"] = [card.code for card in tap_order(state, move)]
    verdict = solution.to_json()  # (the Solution's one JSON form: its verdict and most removable)
    return _json({"move": answer, "result": verdict["result"], "max_removable": verdict["max_removable"]})


def _replay() -> Response:
    data = _body(models.ReplayRequest)
    if data.get("code") is None and data.get("layout") is None:
        raise ApiProblem("deal_required", 422, field="code")
    rules, layout = _rules_and_layout(data)
    start = GameState.new(data.get("code"), rules=rules, layout=layout, error_help=data.get("error_help", True))
    moves = []
    for i, move in enumerate(data["moves"]):
        try:
            moves.append(Move.from_text(move) if isinstance(move, str) else Move.from_json(move))
        except PyramideError as error:
            error.field = f"moves[{i}]"
            raise
    result = long_replay(len(moves), replay, start, moves, client=_client())
    refused = None
    if result.refused is not None:
        refused = {
            "index": result.played,
            "move": moves[result.played].to_json(),
            "code": result.refused.code,
            "message": result.refused.message(_language()),
        }
    state = result.state
    return _json({
        "valid": refused is None,
        "played": result.played,
        "score": state.score,
        "status": state.status,
        "state": state.to_json(),
        "refused": refused,
    })  # fmt: skip


def _rules() -> Response:
    registry = options_registry()  # (the options and presets: service/engine/_options.py)
    options = [
        {"name": name, "letter": letter, "description": translate(_language(), f"rules.{name}")}
        for name, letter in registry.listed_letters().items()
    ]
    presets = Rules.presets()
    return _json({
        "default": Rules().to_json(),
        "presets": {name: rules.to_json() for name, rules in presets.items()},
        "preset_codes": {name: rules.letters for name, rules in presets.items()},
        "options": options,
        "code_format": "PYR1-<rules>-<7 letters: seed | full layout: 48 letters; 44 under E (Spanish deck), 107 under P (Pharaoh), 96 under both>",
    })  # fmt: skip


def _health() -> Response:
    return _json({"status": "ok", "version": __version__})


def _add_routes(app: Flask) -> None:
    app.add_url_rule("/v1/games", "new_game", _new_game, methods=["POST"])
    app.add_url_rule("/v1/moves", "move", _move, methods=["POST"])
    app.add_url_rule("/v1/legal-moves", "legal_moves", _legal_moves, methods=["POST"])
    app.add_url_rule("/v1/describe", "describe", _describe, methods=["POST"])
    app.add_url_rule("/v1/solve", "solve", _solve, methods=["POST"])
    app.add_url_rule("/v1/hint", "hint", _hint, methods=["POST"])
    app.add_url_rule("/v1/replay", "replay", _replay, methods=["POST"])
    app.add_url_rule("/v1/rules", "rules", _rules, methods=["GET"])
    app.add_url_rule("/healthz", "health", _health, methods=["GET"])

