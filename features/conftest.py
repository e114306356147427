"""The kit's pytest wiring: ``--base-url`` picks a live server; without it, Pyramide's own app
answers in-process. Scenario tags become markers (``-m "doc-000 and rule-pairs"``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .client import HttpClient, InProcessClient

pytest_plugins = ["features.steps"]
FEATURES = Path(__file__).parent


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--base-url",
        default=None,
        help="run the conformance kit against the Pyramide API at this URL (default: in-process)",
    )


def pytest_configure(config: pytest.Config) -> None:
    tags = set()
    for path in FEATURES.glob("*.feature"):
        tags.update(re.findall(r"(?<!\S)@([\w-]+)", path.read_text(encoding="utf-8")))
    for tag in sorted(tags):
        config.addinivalue_line("markers", f"{tag}: conformance kit tag")


@pytest.fixture(scope="session")
def kit_client(request: pytest.FixtureRequest):
    base_url = request.config.getoption("--base-url")
    return HttpClient(base_url) if base_url else InProcessClient()
