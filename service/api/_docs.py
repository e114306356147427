"""The published contract and its explorer: ``GET /openapi.yaml`` (``/openapi.json``) and ``GET /docs``.

The explorer is Swagger UI, served from the assets of the ``swagger-ui-py`` package: nothing is
fetched from a CDN, so it works offline.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import yaml
from flask import Flask, Response, send_from_directory

#: The published contract, at the repository root.
OPENAPI_PATH = Path(__file__).resolve().parent / "openapi.yaml"  # a link to the repository's openapi.yaml
_spec = importlib.util.find_spec("swagger_ui")
ASSETS = Path(next(iter(_spec.submodule_search_locations))) / "static" if _spec and _spec.submodule_search_locations else None

PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Pyramide API</title>
  <link rel="stylesheet" href="/docs/static/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/static/favicon-32x32.png">
</head>
<body>
  <div id="explorer"></div>
  <script src="/docs/static/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({
      url: "/openapi.yaml",
      dom_id: "#explorer",
      deepLinking: true,
      tryItOutEnabled: true,
      displayRequestDuration: true
    });
  </script>
</body>
</html>
"""
_ALLOWED_ASSETS = {"swagger-ui.css", "swagger-ui-bundle.js", "favicon-32x32.png", "favicon-16x16.png"}


def add_docs(app: Flask) -> None:
    spec = OPENAPI_PATH.read_bytes()
    spec_json = json.dumps(yaml.safe_load(spec), ensure_ascii=False, indent=1).encode()

    def openapi() -> Response:
        return Response(spec, mimetype="application/yaml")

    def openapi_json() -> Response:
        return Response(spec_json, mimetype="application/json")

    def docs() -> Response:
        return Response(PAGE, mimetype="text/html")

    def asset(name: str) -> Response:
        if ASSETS is None or name not in _ALLOWED_ASSETS:
            from werkzeug.exceptions import NotFound

            raise NotFound()
        return send_from_directory(ASSETS, name, max_age=86400)

    app.add_url_rule("/openapi.yaml", "openapi", openapi, methods=["GET"])
    app.add_url_rule("/openapi.json", "openapi_json", openapi_json, methods=["GET"])
    app.add_url_rule("/docs", "docs", docs, methods=["GET"])
    app.add_url_rule("/docs/static/<name>", "docs_asset", asset, methods=["GET"])
