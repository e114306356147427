"""The kit's pytest wiring. The implementation under test is reached through a driver
(``features/driver.py``): ``--base-url`` for any server speaking Pyramide's HTTP API,
``--driver-command`` for an adapter speaking JSON lines, and otherwise Pyramide's own app,
in-process. Scenario tags become markers (``-m "doc-000 and rule-pairs"``); a scenario that needs
a capability or a language the driver does not offer is skipped, and says why."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .client import HttpClient, InProcessClient
from .driver import CAPABILITIES, HttpDriver, SubprocessDriver

pytest_plugins = [f"{__package__}.steps"]
FEATURES = Path(__file__).parent


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("pyramide-conformance")
    group.addoption("--base-url", default=None, help="judge the Pyramide HTTP API at this URL (default: Pyramide's app, in-process)")
    group.addoption("--driver-command", default=None, help="judge the adapter started by this command (JSON lines on stdin/stdout)")


def pytest_configure(config: pytest.Config) -> None:
    tags = set()
    for path in FEATURES.glob("*.feature"):
        tags.update(re.findall(r"(?<!\S)@([\w-]+)", path.read_text(encoding="utf-8")))
    for tag in sorted(tags):
        config.addinivalue_line("markers", f"{tag}: conformance kit tag")


@pytest.fixture(scope="session")
def kit_transport(request: pytest.FixtureRequest):
    """What the session talks to: an HTTP client, or one adapter process for the whole run."""
    base_url = request.config.getoption("--base-url")
    command = request.config.getoption("--driver-command")
    if command:
        driver = SubprocessDriver(command)
        yield driver
        driver.close()
    elif base_url:
        from .cli import reachable

        problem = reachable(base_url)
        if problem is not None:
            pytest.exit(f"cannot reach {base_url}: {problem}", returncode=2)
        yield HttpClient(base_url)
    else:
        yield InProcessClient()


@pytest.fixture
def kit_driver(kit_transport, request: pytest.FixtureRequest):
    driver = kit_transport if isinstance(kit_transport, SubprocessDriver) else HttpDriver(kit_transport)
    tags = {marker.name for marker in request.node.iter_markers()}
    missing = sorted(tag for tag in tags & set(CAPABILITIES) if tag not in driver.capabilities)
    languages = sorted(tag[5:] for tag in tags if tag.startswith("lang-") and tag[5:] not in driver.languages)
    if missing or languages:
        pytest.skip(f"the implementation does not offer: {', '.join(missing + ['language ' + l for l in languages])}")
    return driver


# -- Reports that speak rules ------------------------------------------------------------------------

_SCENARIO = pytest.StashKey[dict]()
_FAILED_STEP = pytest.StashKey[tuple]()


def sentences() -> dict[str, dict[str, str]]:
    """The rule sentences the scenarios cite, by row (from ``vectors.json``, shipped with the kit)."""
    import json

    global _SENTENCES
    if _SENTENCES is None:
        _SENTENCES = json.loads((FEATURES / "vectors.json").read_text(encoding="utf-8"))["sentences"]
    return _SENTENCES


_SENTENCES: dict | None = None


def _other_sentences() -> dict[str, dict[str, str]]:
    """The sentences of 003 and 004 the scenarios cite (``vectors.json``)."""
    return json.loads((FEATURES / "vectors.json").read_text(encoding="utf-8"))["other_sentences"]


def rule_lines(tags: set[str]) -> list[str]:
    rows = sorted(int(tag[9:]) for tag in tags if tag.startswith("sentence-"))
    others = [
        f"  rule      {document} #{number} «{_other_sentences()[document][str(number)]}» (docs/conformance.md, {document} row {number})"
        for document in ("003", "004")
        for number in sorted(int(tag[len(document) + 2 :]) for tag in tags if tag.startswith(f"s{document}-"))
    ]
    if others and not rows:
        return others
    if not rows:
        source = next((tag for tag in ("pyramide-choice", "api", "codes", "doc-003", "doc-004") if tag in tags), "untagged")
        return [f"  rule      @{source} (no sentence of 000/002: see docs/conformance.md)"]
    return [f"  rule      000 #{row} «{sentences()[str(row)]['000']}» (docs/conformance.md, row {row})" for row in rows] + others


@pytest.hookimpl
def pytest_bdd_before_scenario(request, feature, scenario) -> None:
    tags = set(feature.tags) | set(scenario.tags)
    request.node.stash[_SCENARIO] = {"feature": Path(feature.filename).stem, "name": scenario.name, "tags": tags}


@pytest.hookimpl
def pytest_bdd_step_error(request, feature, scenario, step, step_func, step_func_args, exception) -> None:
    request.node.stash[_FAILED_STEP] = (f"{step.keyword} {step.name}", exception)


def pytest_collection_modifyitems(items) -> None:
    """JUnit reports carry each scenario's tags and the rows it guards (``--junitxml``)."""
    for item in items:
        tags = sorted(marker.name for marker in item.iter_markers() if marker.name in _kit_tags(item.config))
        item.user_properties.append(("tags", " ".join(tags)))
        rows = [tag[9:] for tag in tags if tag.startswith("sentence-")]
        if rows:
            item.user_properties.append(("rows", " ".join(rows)))
            for row in rows:
                item.user_properties.append((f"rule-{row}", sentences()[row]["000"]))


def _kit_tags(config) -> set[str]:
    return {line.split(":")[0] for line in config.getini("markers") if "conformance kit tag" in line}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    failed = item.stash.get(_FAILED_STEP, None)
    scenario = item.stash.get(_SCENARIO, None)
    if report.failed and call.when == "call" and failed and scenario:
        step, exception = failed
        from .ops import KitFailure

        lines = [f"{scenario['feature']} › {scenario['name']}", *rule_lines(scenario["tags"]), f"  step      {step}"]
        if isinstance(exception, KitFailure):
            lines += [f"  checked   {exception.what}", f"  expected  {_short(exception.expected)}", f"  got       {_short(exception.got)}"]
        else:
            lines += [f"  error     {type(exception).__name__}: {_short(str(exception))}"]
        report.longrepr = "\n".join(lines)
    return report


def _short(value, limit: int = 300) -> str:
    import json

    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"
