"""The reference web client (``service/web``): ``GET /`` and its files, served as they are.

Plain JavaScript modules and CSS, no build step, nothing fetched from elsewhere; it plays through the
public HTTP API only, so the same folder served from another origin plays against this API too
(``?api=https://this.server``, with ``PYRAMIDE_CORS_ORIGINS`` naming that origin).
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask, Response

#: The client's files, next to the package (``pyramide/web`` once installed).
WEB = Path(__file__).resolve().parent.parent / "web"
_TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html"}
#: The page's policy: its scripts and styles from this server, the API on this server.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


def web_files() -> list[str]:
    return sorted(path.name for path in WEB.iterdir() if path.suffix in _TYPES and path.name != "index.html")


def add_web(app: Flask) -> None:
    files = {name: (WEB / name).read_bytes() for name in [*web_files(), "index.html"]}

    def page() -> Response:
        return Response(files["index.html"], mimetype="text/html")

    def asset(name: str) -> Response:
        return Response(files[name], mimetype=_TYPES[Path(name).suffix])

    app.add_url_rule("/", "web", page, methods=["GET"])
    for name in web_files():  # one rule a file: any other path stays a 404 (and OPTIONS on it too)
        app.add_url_rule(f"/{name}", "web_asset", asset, methods=["GET"], defaults={"name": name})
