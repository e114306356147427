"""The HTTP edges of the application, whatever the server: the body read whole and bounded before
the app runs, limits on the request target and headers, ``OPTIONS`` and CORS, security headers,
cache headers, ETags and gzip. ``install(app)`` wires them into the Flask app.

Every failure here is an ``ApiProblem``, so it is answered in ``application/problem+json`` in the
negotiated language, like every other error of the API.

Settings (environment, read when the app is created):

- ``PYRAMIDE_CORS_ORIGINS``: the origins allowed to call the API from a browser, comma-separated
  (``https://a.example,https://b.example``), or ``*`` for any; empty (the default): CORS is off.
- ``PYRAMIDE_READ_TIMEOUT``: seconds a request may take to arrive, headers and body, from its
  first byte (default 10); the server enforces it, the app names it in the 408 problem.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import os
import re
import threading
from collections import OrderedDict
from typing import Any

from flask import Flask, Response, current_app, request
from werkzeug.wrappers import Response as BaseResponse

from ._problems import ApiProblem
from ._web import CSP as WEB_CSP

#: The longest request target (path and query) the app answers; the server's own limit is 8190.
MAX_URL = 4096
#: The most bytes of header fields (names and values) the app answers; the server's own limit is
#: 8190 bytes a field and 100 fields.
MAX_HEADERS = 8192
READ_TIMEOUT = float(os.environ.get("PYRAMIDE_READ_TIMEOUT", "10"))
#: The endpoints whose answers may be cached (with an ETag, revalidated) and are sent gzipped.
CACHEABLE = {"openapi": 3600, "openapi_json": 3600, "docs": 3600, "docs_asset": 86400, "rules": 3600, "web": 300, "web_asset": 300}
#: Smaller bodies are not worth compressing.
GZIP_MIN = 1024
#: The headers a browser may send cross-origin, and those its scripts may read.
CORS_REQUEST_HEADERS = "Content-Type, Accept-Language, If-None-Match"
CORS_EXPOSED_HEADERS = "Content-Language, Retry-After, ETag, Allow"

_SECURITY = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}
_API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
#: The headers of every refusal, whoever answers it (the app, nginx, gunicorn).
REFUSAL_HEADERS = {"Cache-Control": "no-store", "Content-Security-Policy": _API_CSP, **_SECURITY}


def _docs_csp() -> str:
    """The explorer's page: its assets from this server, its one inline script by hash."""
    from ._docs import PAGE

    hashes = [
        "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"
        for script in re.findall(r"<script>(.*?)</script>", PAGE, flags=re.S)
    ]
    return (
        f"default-src 'none'; script-src 'self' {' '.join(hashes)}; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; font-src 'self' data:; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    )


def parse_origins(value: str | None) -> tuple[str, ...]:
    """``"https://a.example, https://b.example/"`` → the two origins, normalized; ``*`` stays."""
    return tuple(origin.strip().rstrip("/").lower() for origin in (value or "").split(",") if origin.strip())


# -- The body ----------------------------------------------------------------------------------------


class BufferedBody:
    """WSGI middleware: reads the request body whole (at most ``limit`` bytes) before the app runs,
    and hands the app a seekable copy with its ``Content-Length``. A body that cannot be read is
    noted in ``environ["pyramide.problem"]`` for the app to answer: over the limit (413), too slow
    (408: the server's read deadline, see ``_server.py``), chunked framing broken or ended before
    its ``Content-Length`` (400)."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app, self.limit = app, limit

    def __call__(self, environ: dict, start_response: Any) -> Any:
        problem = self.read(environ)
        if problem is not None:
            environ["pyramide.problem"] = problem
        return self.app(environ, start_response)

    def read(self, environ: dict) -> tuple[str, int] | None:
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return ("malformed_request", 400)
        if length > self.limit:
            return ("body_too_large", 413)
        if not chunked and length <= 0:
            return None
        stream, body = environ["wsgi.input"], io.BytesIO()
        try:
            while True:
                want = (length - body.tell()) if not chunked else 64 * 1024
                if want <= 0:
                    break
                data = stream.read(min(want, self.limit + 1 - body.tell()))
                if not data:
                    if not chunked:  # the client stopped before its Content-Length
                        return ("malformed_body", 400)
                    break
                body.write(data)
                if body.tell() > self.limit:
                    return ("body_too_large", 413)
        except TimeoutError:
            return ("request_timeout", 408)
        except Exception:  # a broken chunk size, a missing chunk terminator, a closed connection
            return ("malformed_body", 400)
        environ["wsgi.input"] = io.BytesIO(body.getvalue())
        environ["CONTENT_LENGTH"] = str(body.tell())
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        environ["wsgi.input_terminated"] = True
        return None


def _check_request() -> Response | None:
    """Before the endpoint: the body's problem if any, the size of the target and the headers;
    ``OPTIONS`` answered here."""
    noted = request.environ.get("pyramide.problem")
    if noted is not None:
        code, status = noted
        params = {"seconds": f"{READ_TIMEOUT:g}"} if code == "request_timeout" else {}
        raise ApiProblem(code, status, limit=current_app.config["MAX_CONTENT_LENGTH"], **params)
    target = request.environ.get("RAW_URI") or request.full_path
    if len(target) > MAX_URL:
        raise ApiProblem("uri_too_long", 414, limit=MAX_URL)
    if sum(len(name) + len(value) for name, value in request.headers.items()) > MAX_HEADERS:
        raise ApiProblem("headers_too_large", 431, limit=MAX_HEADERS)
    if request.method == "OPTIONS" and request.routing_exception is None and request.url_rule is not None:
        return _options(sorted(request.url_rule.methods or ()))
    return None


# -- OPTIONS and CORS ----------------------------------------------------------------------------------


def _allowed_origin() -> str | None:
    """The ``Access-Control-Allow-Origin`` of this request: ``*`` on every answer when any origin
    is allowed (with or without an ``Origin``: the answer is then the same for every origin, and
    a shared cache may serve it to anyone), the request's origin when it is one of those listed."""
    origin = request.headers.get("Origin")
    allowed = current_app.config.get("CORS_ORIGINS") or ()
    if "*" in allowed:
        return "*"
    if not origin or not allowed:
        return None
    return origin if origin.rstrip("/").lower() in allowed else None


def _options(methods: list[str]) -> Response:
    """``204`` with ``Allow``; a CORS preflight from an allowed origin also gets its answer."""
    response = Response(status=204)
    del response.headers["Content-Type"]
    response.headers["Allow"] = ", ".join(methods)
    if _allowed_origin() and request.headers.get("Access-Control-Request-Method"):
        response.headers["Access-Control-Allow-Methods"] = ", ".join(methods)
        response.headers["Access-Control-Allow-Headers"] = CORS_REQUEST_HEADERS
        response.headers["Access-Control-Max-Age"] = "600"
    return response


# -- After the endpoint ------------------------------------------------------------------------------


class _GzipCache:
    """The gzipped bodies of the cacheable answers, by ETag (a few dozen at most)."""

    def __init__(self, size: int = 64) -> None:
        self.size, self.items, self.lock = size, OrderedDict(), threading.Lock()

    def get(self, key: str, data: Any) -> bytes:
        with self.lock:
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
                return found
        found = gzip.compress(data() if callable(data) else data, compresslevel=6, mtime=0)
        with self.lock:
            self.items[key] = found
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return found


_gzip_cache = _GzipCache()


def _cacheable(response: BaseResponse) -> None:
    """ETag and ``Cache-Control: public, max-age``; ``304`` on a matching ``If-None-Match``; the
    body gzipped (from the cache) when the client accepts it."""
    response.cache_control.public = True
    response.cache_control.max_age = CACHEABLE[request.endpoint]
    response.cache_control.no_cache = None
    if response.status_code != 200:
        return
    response.direct_passthrough = False  # (a static file: its ETag is the file's)
    tag, _ = response.get_etag()
    if tag is None:
        response.add_etag()
        tag, _ = response.get_etag()
    response.vary.add("Accept-Encoding")
    length = response.content_length
    compress = request.accept_encodings["gzip"] > 0 and (length is None or length >= GZIP_MIN)
    if compress:
        response.set_etag(f"{tag}-gzip")
    response.make_conditional(request)
    if response.status_code != 200 or not compress:
        return
    body = _gzip_cache.get(f"{request.path}\0{tag}", response.get_data)
    response.close()
    response.set_data(body)
    response.headers["Content-Encoding"] = "gzip"
    response.headers.pop("Accept-Ranges", None)


def _web_page() -> bool:
    """A page of the web client: ``/``, or another page beside it (the conformance matrix)."""
    return request.endpoint == "web" or (request.endpoint == "web_asset" and request.path.endswith(".html"))


def _finish(response: BaseResponse) -> BaseResponse:
    """Security headers on every answer; cache headers (ETag and gzip for the cacheable ones,
    ``no-store`` for the rest and for every error: a shared cache must never keep one client's
    refusal, a 431 or a 416, for everyone); CORS headers for an allowed origin."""
    response.headers.update(_SECURITY)
    response.headers["Content-Security-Policy"] = (
        current_app.config["DOCS_CSP"] if request.endpoint == "docs" else WEB_CSP if _web_page() else _API_CSP
    )
    if request.endpoint in CACHEABLE and request.method in ("GET", "HEAD") and response.status_code < 400:
        _cacheable(response)
    else:
        response.headers["Cache-Control"] = "no-store"
    origin = _allowed_origin()
    if origin is not None:
        response.headers["Access-Control-Allow-Origin"] = origin
        response.headers["Access-Control-Expose-Headers"] = CORS_EXPOSED_HEADERS
    if origin != "*" and current_app.config.get("CORS_ORIGINS"):
        # Listed origins: the answer differs by Origin (echoed, or no CORS headers at all), so
        # every answer says so, those without an Origin too, or a shared cache would serve the
        # copy without Access-Control-Allow-Origin to a browser that needs it.
        response.vary.add("Origin")
    return response


def install(app: Flask, max_body: int) -> None:
    app.config.setdefault("CORS_ORIGINS", parse_origins(os.environ.get("PYRAMIDE_CORS_ORIGINS")))
    app.config["DOCS_CSP"] = _docs_csp()
    app.wsgi_app = BufferedBody(app.wsgi_app, max_body)  # type: ignore[method-assign]
    app.before_request(_check_request)
    app.after_request(_finish)
