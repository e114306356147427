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
from .driver import CAPABILITIES, DriverUnavailable, HttpDriver, SubprocessDriver

pytest_plugins = [f"{__package__}.steps"]
FEATURES = Path(__file__).parent


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("pyramide-conformance")
    group.addoption("--base-url", default=None, help="judge the Pyramide HTTP API at this URL (default: Pyramide's app, in-process)")
    group.addoption("--driver-command", default=None, help="judge the adapter started by this command (JSON lines on stdin/stdout)")
    group.addoption(
        "--without", default="", help="capabilities the implementation lacks, comma-separated (taps,scoring,…: docs/conformance.md § Capabilities)"
    )
    group.addoption(
        "--rules", default="", help="the option values the implementation always plays, e.g. max_recycles=2,initial_waste=false (docs/conformance.md § Fixed rules)"
    )


def fixed_rules(config: pytest.Config) -> dict:
    from .rule_sets import parse

    return parse(config.getoption("--rules") or "")


def without(config: pytest.Config) -> frozenset[str]:
    return frozenset(name.strip() for name in (config.getoption("--without") or "").split(",") if name.strip())


def pytest_configure(config: pytest.Config) -> None:
    tags = set()
    for path in FEATURES.glob("*.feature"):
        tags.update(re.findall(r"(?<!\S)@([\w-]+)", path.read_text(encoding="utf-8")))
    for tag in sorted(tags):
        config.addinivalue_line("markers", f"{tag}: conformance kit tag")
    from .capabilities import is_capability

    unknown = sorted(name for name in without(config) if not is_capability(name))
    if unknown:
        raise pytest.UsageError(f"--without {','.join(unknown)}: not a capability ({', '.join(CAPABILITIES)})")
    try:
        fixed_rules(config)
    except ValueError as error:
        raise pytest.UsageError(f"--rules: {error}") from None


@pytest.fixture(scope="session")
def kit_transport(request: pytest.FixtureRequest):
    """What the session talks to: an HTTP client, or one adapter process for the whole run. The
    implementation's health is checked first (``features/health.py``): a broken one stops the run
    with exit status 2 and one paragraph, never as rule failures."""
    from . import health

    base_url = request.config.getoption("--base-url")
    command = request.config.getoption("--driver-command")
    if command:
        try:
            driver = SubprocessDriver(command, without(request.config), rules=fixed_rules(request.config))
        except DriverUnavailable as error:
            pytest.exit(f"pyramide-conformance: {error}", returncode=2)
        problem = health.adapter_problem(driver)
        if problem is not None:
            driver.close(wait=0.2)
            pytest.exit(problem, returncode=2)
        yield driver
        driver.close()
    elif base_url:
        problem = health.http_problem(base_url, without(request.config))
        if problem is not None:
            pytest.exit(problem, returncode=2)
        yield HttpClient(base_url)
    else:
        yield InProcessClient()


@pytest.fixture
def kit_driver(kit_transport, request: pytest.FixtureRequest):
    if isinstance(kit_transport, SubprocessDriver):
        return kit_transport
    return HttpDriver(kit_transport, without(request.config), fixed_rules(request.config))


def scenario_ops(scenario, tags: set[str]) -> tuple[list[dict], list[str], set[str]]:
    """A scenario's operations (what its capabilities are derived from: ``features/capabilities.py``),
    the languages it checks, and the values of rules options it deals under."""
    from .capabilities import option_values
    from .vectors import ops_of

    ops = []
    for step in scenario.steps:
        datatable = step.datatable.raw() if step.datatable is not None else None
        ops += ops_of(step.name, datatable, step.docstring)
    return ops, sorted(tag[5:] for tag in tags if tag.startswith("lang-")), option_values(ops)


# -- Reports that speak rules ------------------------------------------------------------------------

_SCENARIO = pytest.StashKey[dict]()
_FAILURES = pytest.StashKey[list]()
_HARD = pytest.StashKey[bool]()


def sentences() -> dict[str, dict[str, str]]:
    """The rule sentences the scenarios cite, by row (from ``vectors.json``, shipped with the kit)."""
    global _SENTENCES
    if _SENTENCES is None:
        _SENTENCES = json.loads((FEATURES / "vectors.json").read_text(encoding="utf-8"))["sentences"]
    return _SENTENCES


_SENTENCES: dict | None = None
_OTHER: dict | None = None


def _other_sentences() -> dict[str, dict[str, str]]:
    """The sentences of 003 and 004 the scenarios cite (``vectors.json``)."""
    global _OTHER
    if _OTHER is None:
        _OTHER = json.loads((FEATURES / "vectors.json").read_text(encoding="utf-8"))["other_sentences"]
    return _OTHER


#: The sentences a kind of check guards (a step's ``Step.guards``), by document, and the one it
#: cites when its scenario cites none of them: the points of a pairing scenario cite 000 #43.
GUARDS: dict[str, tuple[dict[str, set[int]], tuple[str, int]]] = {
    "scoring": ({"000": {42, 43, 44, 45, 46, 49}, "003": {16}}, ("000", 43)),
    "move-counter": ({"000": {46, 49}, "004": {39, 45}}, ("000", 46)),
    # a draw, a recycle or an undo that a step plays and the implementation refuses breaks the
    # sentence that allows it (a recycle refused in an undo scenario breaks 000 #34, not #48)
    "move-recycle": ({"000": {6, 34, 39, 56}}, ("000", 34)),
    "move-draw": ({"000": {32}}, ("000", 32)),
    "move-undo": ({"000": {48}}, ("000", 48)),
}


def scenario_citations(tags) -> list[tuple[str, int]]:
    """The sentences a scenario's tags cite: 000/002 rows, then 003 and 004 sentences."""
    rows = [("000", number) for number in sorted(int(tag[9:]) for tag in tags if tag.startswith("sentence-"))]
    others = [
        (document, number)
        for document in ("003", "004")
        for number in sorted(int(tag[len(document) + 2 :]) for tag in tags if tag.startswith(f"s{document}-"))
    ]
    return rows + others


def check_citations(guards: str | None, tags) -> list[tuple[str, int]]:
    """The sentences one failing check breaks: its kind's own (points → 000 #43, among the
    scenario's sentences when it cites one of them), else the scenario's."""
    cited = scenario_citations(tags)
    if guards is None or guards not in GUARDS:
        return cited
    sentences_of_kind, default = GUARDS[guards]
    own = [(document, number) for document, number in cited if number in sentences_of_kind.get(document, set())]
    return own or [default]


def quote(document: str, number: int) -> str:
    if document == "000":
        return f"000 #{number} «{sentences()[str(number)]['000']}» (docs/conformance-traceability.md, row {number})"
    return f"{document} #{number} «{_other_sentences()[document][str(number)]}» (docs/conformance-traceability.md, {document} row {number})"


def rule_lines(tags: set[str], citations: list[tuple[str, int]] | None = None) -> list[str]:
    cited = scenario_citations(tags) if citations is None else citations
    if not cited:
        source = next((tag for tag in ("pyramide-choice", "api", "codes", "doc-003", "doc-004") if tag in tags), "untagged")
        return [f"  rule      @{source} (no sentence of 000/002: see docs/conformance.md)"]
    return [f"  rule      {quote(document, number)}" for document, number in cited]


@pytest.hookimpl
def pytest_bdd_before_scenario(request, feature, scenario) -> None:
    """Record the scenario; skip it, naming what is missing, when it needs a capability or a
    language the implementation does not offer (derived from its steps, not hand tags)."""
    tags = set(feature.tags) | set(scenario.tags)
    request.node.stash[_SCENARIO] = {"feature": Path(feature.filename).stem, "name": scenario.name, "tags": tags}
    request.node.stash[_FAILURES] = []
    ops, languages, values = scenario_ops(scenario, tags)
    driver = request.getfixturevalue("kit_driver")
    from .capabilities import OPTION_CAPABILITIES, check_plan, why

    fixed = driver.fixed_rules
    # an option the implementation plays fixed is dealt by the kit, not asked of it
    played = {OPTION_CAPABILITIES[key] for key in fixed}
    values = {name for name in values if name.partition("=")[0] not in played}

    def missing(capabilities: set[str]) -> set[str]:
        return {name for name in capabilities if name not in driver.capabilities and name not in played}

    whole, left_out = check_plan(ops, tags, missing)
    whole |= {name for name in values if name in driver.without}
    if "messages" in driver.capabilities:  # (without messages, the checks in a language are left out)
        whole |= {f"language {language}" for language in languages if language not in driver.languages}
    if whole:
        pytest.skip(why(whole))
    request.getfixturevalue("game").unjudged = left_out
    if left_out:
        request.node.user_properties.append(("unjudged", " ".join(sorted(left_out))))
    if fixed:
        from .rule_sets import JUDGE, RULE_SET, named
        from .vectors import slug

        blamed = JUDGE.blame(f"{Path(feature.filename).stem}/{slug(scenario.name)}", fixed)
        if blamed is not None:
            pytest.skip(RULE_SET + named(blamed))


@pytest.hookimpl
def pytest_bdd_before_step(request, feature, scenario, step, step_func) -> None:
    """Checks (``Then`` steps) are soft: a failing one is recorded and the scenario goes on, so
    that every failing check is reported; a ``Given`` or ``When`` that fails stops it."""
    game = request.getfixturevalue("game")
    game.kit_step = f"{step.keyword} {step.name}"
    game.kit_soft = step.type == "then"
    game.kit_failures = request.node.stash.setdefault(_FAILURES, [])
    game.kit_citations = lambda guards: check_citations(guards, request.node.stash[_SCENARIO]["tags"])


@pytest.hookimpl
def pytest_bdd_step_error(request, feature, scenario, step, step_func, step_func_args, exception) -> None:
    from .ops import KitFailure

    guards = getattr(getattr(step_func, "kit_step", None), "guards", None)
    refused = re.fullmatch(r"playing '(recycle|draw|undo)'", getattr(exception, "what", "") or "")
    if refused and isinstance(exception, KitFailure):
        guards = f"move-{refused.group(1)}"
    tags = request.node.stash[_SCENARIO]["tags"]
    entry = {"step": f"{step.keyword} {step.name}", "cites": check_citations(guards, tags)}
    if isinstance(exception, KitFailure):
        entry.update(what=exception.what, expected=exception.expected, got=exception.got)
    else:
        entry.update(error=f"{type(exception).__name__}: {exception}")
    request.node.stash.setdefault(_FAILURES, []).append(entry)
    request.node.stash[_HARD] = True


@pytest.hookimpl
def pytest_bdd_after_scenario(request, feature, scenario) -> None:
    from .ops import KitFailure

    failures = request.node.stash.get(_FAILURES, [])
    if failures and not request.node.stash.get(_HARD, False):
        raise KitFailure(f"{len(failures)} check(s)", "every check passed", [entry["step"] for entry in failures])


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


def failure_text(scenario: dict, failures: list[dict]) -> str:
    """A failing scenario in a few lines per failing check: the sentence that check guards,
    the step, what was checked, expected and got."""
    lines = [f"{scenario['feature']} › {scenario['name']}"]
    for number, entry in enumerate(failures, 1):
        if len(failures) > 1:
            lines.append(f"  check {number} of {len(failures)}:")
        lines += rule_lines(scenario["tags"], entry["cites"])
        lines.append(f"  step      {entry['step']}")
        if "error" in entry:
            lines.append(f"  error     {_short(entry['error'])}")
        else:
            lines += [f"  checked   {entry['what']}", f"  expected  {_short(entry['expected'])}", f"  got       {_short(entry['got'])}"]
    return "\n".join(lines)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_makereport(item, call):
    """A failing scenario's report is built here, from the checks that failed, without pytest's
    traceback formatting (which the kit would discard: it made failing runs several times slower).
    An adapter that stops answering mid-run stops the run (exit status 2), as the health check
    would have."""
    if call.when != "call" or call.excinfo is None or call.excinfo.errisinstance(pytest.skip.Exception):
        return None
    from .driver import DriverUnavailable

    scenario = item.stash.get(_SCENARIO, None)
    failures = item.stash.get(_FAILURES, None)
    if scenario is None or not failures:
        return None
    if any("DriverUnavailable" in entry.get("error", "") for entry in failures) or call.excinfo.errisinstance(DriverUnavailable):
        item.session.shouldstop = f"the implementation stopped answering: {call.excinfo.value}"
        item.config.stash[UNAVAILABLE] = str(call.excinfo.value)
    report = pytest.TestReport(
        item.nodeid, item.location, {name: 1 for name in item.keywords}, "failed", failure_text(scenario, failures),
        "call", [(f"Captured {key} {call.when}", content) for (when, key, content) in item._report_sections if when == call.when],
        call.duration, call.start, call.stop, user_properties=item.user_properties,
    )  # fmt: skip
    report.kit_failures = failures
    return report


UNAVAILABLE = pytest.StashKey[str]()


def _short(value, limit: int = 300) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"
