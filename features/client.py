"""How the kit talks to an implementation: over HTTP (``--base-url``), or in-process to Pyramide's
own Flask app. Standard library only on the HTTP side, so that the kit needs nothing else."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: Any = field(default=None)

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";")[0].strip()


class HttpClient:
    def __init__(self, base_url: str) -> None:
        self.base_url = base_url.rstrip("/")

    def request(self, method: str, path: str, body: Any = None, language: str | None = None) -> Reply:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        if language:
            headers["Accept-Language"] = language
        request = urllib.request.Request(self.base_url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return self._reply(response.status, response.headers, response.read())
        except urllib.error.HTTPError as error:
            return self._reply(error.code, error.headers, error.read())

    @staticmethod
    def _reply(status: int, headers, raw: bytes) -> Reply:
        lowered = {key.lower(): value for key, value in headers.items()}
        body = json.loads(raw) if raw and "json" in lowered.get("content-type", "") else raw.decode(errors="replace")
        return Reply(status, lowered, body)


class InProcessClient:
    """Pyramide's own app, without a network: the default when no ``--base-url`` is given."""

    def __init__(self) -> None:
        from . import pyramide

        self._client = pyramide("api").create_app().test_client()

    def request(self, method: str, path: str, body: Any = None, language: str | None = None) -> Reply:
        headers = {"Accept-Language": language} if language else {}
        response = self._client.open(path, method=method, json=body, headers=headers)
        lowered = {key.lower(): value for key, value in response.headers.items()}
        payload = response.get_json(silent=True) if "json" in lowered.get("content-type", "") else response.get_data(as_text=True)
        return Reply(response.status_code, lowered, payload)
