"""``pyramide-conformance``: run the kit against a Pyramide API and summarize per rule.

    pyramide-conformance --base-url http://127.0.0.1:8000
    pyramide-conformance --base-url http://127.0.0.1:8000 -m "not variant-pair-with-covering"
    pyramide-conformance                      # in-process, against Pyramide's own engine

Exit status 0 when every selected scenario passes, 1 otherwise (pytest's codes otherwise).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import pytest

FEATURES = Path(__file__).parent


class Summary:
    """Collects each scenario's outcome with its feature and tags, then prints them per rule."""

    def __init__(self) -> None:
        self.scenarios: dict[str, tuple[str, str, list[str]]] = {}
        self.outcomes: dict[str, str] = {}

    @pytest.hookimpl
    def pytest_bdd_before_scenario(self, request, feature, scenario) -> None:
        tags = sorted(set(feature.tags) | set(scenario.tags))
        self.scenarios[request.node.nodeid] = (Path(feature.filename).name, scenario.name, tags)

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report) -> None:
        if report.failed:
            self.outcomes[report.nodeid] = "failed"
        elif report.when == "call" and report.nodeid not in self.outcomes:
            self.outcomes[report.nodeid] = "passed"
        elif report.skipped:
            self.outcomes.setdefault(report.nodeid, "skipped")

    def render(self, target: str) -> str:
        by_rule: dict[str, list[str]] = defaultdict(list)
        failures = []
        for nodeid, outcome in self.outcomes.items():
            feature, name, tags = self.scenarios.get(nodeid, ("?", nodeid, []))
            rules = [tag for tag in tags if tag.startswith(("rule-", "variant-"))] or ["(untagged)"]
            for rule in rules:
                by_rule[rule].append(outcome)
            if outcome == "failed":
                failures.append(f"  FAILED  {feature}: {name}  [{' '.join('@' + t for t in tags)}]")
        lines = [f"Pyramide conformance kit — {target}", ""]
        for rule in sorted(by_rule):
            outcomes = by_rule[rule]
            passed = outcomes.count("passed")
            mark = "ok  " if passed == len(outcomes) else "FAIL"
            lines.append(f"  {mark} @{rule:<34} {passed}/{len(outcomes)} scenarios")
        if failures:
            lines += ["", *failures]
        counts = [self._count(outcome) for outcome in ("passed", "failed", "skipped")]
        lines += ["", f"{counts[0]} passed, {counts[1]} failed" + (f", {counts[2]} skipped" if counts[2] else "")]
        return "\n".join(lines)

    def _count(self, outcome: str) -> int:
        return sum(1 for value in self.outcomes.values() if value == outcome)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pyramide-conformance", description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", help="the API to judge (default: Pyramide's own app, in-process)")
    parser.add_argument("-m", dest="markers", help='select scenarios by tag, e.g. "doc-000 and not variant-strict-win"')
    parser.add_argument("-k", dest="keyword", help="select scenarios by name")
    parser.add_argument("--junitxml", help="also write a JUnit XML report here")
    args = parser.parse_args(argv)
    pytest_args = [str(FEATURES), "-q", "-p", "no:cacheprovider", "--rootdir", str(FEATURES), "-o", "addopts="]
    if args.base_url:
        pytest_args += ["--base-url", args.base_url]
    if args.markers:
        pytest_args += ["-m", args.markers]
    if args.keyword:
        pytest_args += ["-k", args.keyword]
    if args.junitxml:
        pytest_args += ["--junitxml", args.junitxml]
    summary = Summary()
    code = pytest.main(pytest_args, plugins=[summary])
    print()
    print(summary.render(args.base_url or "in-process"))
    return int(code)


if __name__ == "__main__":
    sys.exit(main())
