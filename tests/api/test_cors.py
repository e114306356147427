"""CORS behind caches (issue 21): an answer that could differ by origin says ``Vary: Origin``, every
time; with ``*`` every answer allows any origin, with or without an ``Origin``."""

from __future__ import annotations

import pytest

from service.api import create_app
from service.engine import DOCUMENTS_LAYOUT, GameState

STATE = GameState.new(layout=DOCUMENTS_LAYOUT).to_json()
LISTED = ("https://app.example", "https://other.example")


def _client(origins: tuple[str, ...]):
    app = create_app()
    app.config["CORS_ORIGINS"] = origins
    return app.test_client()


def _answers(client, origin: str | None):
    headers = {"Origin": origin} if origin else {}
    yield "rules", client.get("/v1/rules", headers=headers)
    yield "rules gzip", client.get("/v1/rules", headers={**headers, "Accept-Encoding": "gzip"})
    yield "openapi", client.get("/openapi.yaml", headers=headers)
    yield "move", client.post("/v1/moves", json={"state": STATE, "move": {"type": "king", "card": "KD"}}, headers=headers)
    yield "problem", client.post("/v1/moves", data=b"{", content_type="application/json", headers=headers)
    yield "not found", client.get("/nowhere", headers=headers)
    yield "options", client.options("/v1/moves", headers=headers)
    etag = client.get("/v1/rules", headers=headers).headers["ETag"]
    yield "304", client.get("/v1/rules", headers={**headers, "If-None-Match": etag})


@pytest.mark.parametrize("origin", [None, "https://app.example", "https://evil.example"])
def test_listed_origins_vary_on_origin_on_every_answer(origin):
    for name, response in _answers(_client(LISTED), origin):
        assert "Origin" in response.vary, (name, origin)
        allowed = response.headers.get("Access-Control-Allow-Origin")
        assert allowed == (origin if origin == "https://app.example" else None), (name, origin)


def test_a_cached_answer_without_origin_is_not_served_to_a_browser_by_a_shared_cache():
    """What the issue saw: GET /v1/rules (public, max-age) without an Origin had no Vary: Origin."""
    response = _client(LISTED).get("/v1/rules")
    assert response.headers["Cache-Control"].startswith("public") and "Origin" in response.vary
    assert "Access-Control-Allow-Origin" not in response.headers


@pytest.mark.parametrize("origin", [None, "https://any.example"])
def test_any_origin_is_answered_star_with_or_without_an_origin(origin):
    for name, response in _answers(_client(("*",)), origin):
        assert response.headers["Access-Control-Allow-Origin"] == "*", (name, origin)
        assert "Origin" not in response.vary, name  # the same answer for every origin: nothing to vary on


def test_cors_off_adds_nothing():
    for name, response in _answers(_client(()), "https://app.example"):
        assert "Access-Control-Allow-Origin" not in response.headers and "Origin" not in response.vary, name


def test_a_preflight_with_star_and_with_a_listed_origin():
    preflight = {"Origin": "https://app.example", "Access-Control-Request-Method": "POST"}
    for origins, allowed in ((("*",), "*"), (LISTED, "https://app.example")):
        response = _client(origins).options("/v1/games", headers=preflight)
        assert response.status_code == 204 and response.headers["Access-Control-Allow-Origin"] == allowed
        assert "POST" in response.headers["Access-Control-Allow-Methods"]
