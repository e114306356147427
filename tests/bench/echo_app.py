"""The API plus a bare Flask JSON echo at ``POST /bench/echo``, under the server of ``make serve``:
the baseline of the API benchmark. Never part of the served API."""

from flask import jsonify, request

from service.api import create_app
from service.api.serve import main

app = create_app()


@app.post("/bench/echo")
def echo():
    return jsonify(request.get_json())


if __name__ == "__main__":
    main(app)
