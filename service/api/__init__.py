"""Pyramide's stateless JSON REST API: ``create_app()`` builds the Flask application.

    >>> app = create_app()
    >>> app.test_client().get("/healthz").json["status"]
    'ok'
"""

from ._app import create_app

__all__ = ["create_app"]
