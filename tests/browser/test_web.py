"""The reference web client as files (no browser here: tests/browser/test_browser.py plays it): served at /
with its own policy, everything it loads served beside it, nothing from elsewhere."""

from __future__ import annotations

import re

import pytest

from service.api import create_app
from service.api._web import WEB, web_files


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def test_the_page_is_served_at_the_root_with_a_policy_of_its_own(client):
    page = client.get("/")
    assert page.status_code == 200 and page.content_type.startswith("text/html")
    policy = page.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "connect-src 'self'" in policy and "unsafe" not in policy
    assert page.headers["ETag"] and "max-age" in page.headers["Cache-Control"]
    assert b'<script type="module" src="app.js">' in page.data


def test_every_file_the_page_loads_is_served_beside_it(client):
    texts = {path.name: path.read_text(encoding="utf-8") for path in WEB.iterdir() if path.is_file()}
    loaded = set(re.findall(r'(?:src|href)="([^"#:/]+)"', texts["index.html"]))
    for name, text in texts.items():
        loaded |= {target.removeprefix("./") for target in re.findall(r'from "(\.[^"]+)"', text)}
    # its scripts and style, and the page it links to: the conformance matrix (scripts/conformance_matrix.py)
    assert loaded == set(web_files()) and len(loaded) == 5 and "conformance.html" in loaded
    for name in loaded:
        response = client.get(f"/{name}")
        assert response.status_code == 200, name
        kinds = {"js": "text/javascript", "css": "text/css", "html": "text/html"}
        assert response.content_type.split(";")[0] == kinds[name.rsplit(".", 1)[1]]


def test_nothing_is_fetched_from_elsewhere():
    for path in WEB.iterdir():
        text = path.read_text(encoding="utf-8")
        urls = re.findall(r"https?://[^\s\"')]+", text)
        assert urls == [] or all(url.startswith("http://www.w3.org/") for url in urls), (path.name, urls)  # the SVG namespace
        assert "@import" not in text and "url(http" not in text


def test_other_paths_stay_problems(client):
    for path in ("/index.html", "/app", "/web/app.js", "/../openapi.yaml"):
        assert client.get(path).status_code == 404, path
    assert client.options("/nowhere").status_code == 404
    assert client.post("/").status_code == 405
