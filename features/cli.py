"""``pyramide-conformance``: judge an implementation of Pyramid solitaire by the rule documents.

    pyramide-conformance --base-url http://127.0.0.1:8000            # a server speaking Pyramide's API
    pyramide-conformance --driver-command "node my-adapter.js"       # an engine behind a JSON-lines adapter
    pyramide-conformance                                             # Pyramide's own engine, in-process
    pyramide-conformance --base-url URL -m "doc-000 and not api"     # the documents' rules only
    pyramide-conformance --list                                      # the scenarios and their tags
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request
from collections import defaultdict
from pathlib import Path

FEATURES = Path(__file__).parent
EXIT_CODES = """exit status:
  0  every selected scenario passed
  1  at least one scenario failed
  2  usage error, or the implementation cannot be reached
  3  the kit itself failed (an internal error of the test run)
  5  no scenario was selected"""


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("pyramide")
    except PackageNotFoundError:
        return "unknown"


class Summary:
    """Collects each scenario's outcome with its tags, then prints them per source and per rule."""

    def __init__(self) -> None:
        self.tags: dict[str, list[str]] = {}
        self.names: dict[str, str] = {}
        self.outcomes: dict[str, str] = {}

    def pytest_bdd_before_scenario(self, request, feature, scenario) -> None:
        self.tags[request.node.nodeid] = sorted(set(feature.tags) | set(scenario.tags))
        self.names[request.node.nodeid] = f"{Path(feature.filename).stem} › {scenario.name}"

    def pytest_runtest_logreport(self, report) -> None:
        if report.failed:
            self.outcomes[report.nodeid] = "failed"
        elif report.skipped:
            self.outcomes.setdefault(report.nodeid, "skipped")
        elif report.when == "call":
            self.outcomes.setdefault(report.nodeid, "passed")

    def by_tag(self) -> dict[str, dict[str, int]]:
        table: dict[str, dict[str, int]] = defaultdict(lambda: {"passed": 0, "failed": 0, "skipped": 0})
        for nodeid, outcome in self.outcomes.items():
            for tag in self.tags.get(nodeid, ["(untagged)"]):
                if tag.startswith(("doc-", "pyramide-choice", "api", "codes", "rule-", "variant-", "solver")):
                    table[tag][outcome] += 1
        return dict(sorted(table.items(), key=lambda item: (not item[0].startswith(("doc-", "pyramide", "api", "codes")), item[0])))

    def counts(self) -> dict[str, int]:
        return {outcome: list(self.outcomes.values()).count(outcome) for outcome in ("passed", "failed", "skipped")}

    def render(self, target: str) -> str:
        lines = [f"Pyramide conformance kit — {target}", "", f"  {'tag':<38} passed  failed  skipped"]
        for tag, counts in self.by_tag().items():
            mark = "FAIL" if counts["failed"] else "ok  "
            lines.append(f"  {mark} @{tag:<33} {counts['passed']:>6}  {counts['failed']:>6}  {counts['skipped']:>7}")
        failed = [self.names.get(nodeid, nodeid) for nodeid, outcome in self.outcomes.items() if outcome == "failed"]
        if failed:
            lines += ["", "failed scenarios:", *(f"  {name}" for name in failed)]
        counts = self.counts()
        tail = f"{counts['passed']} passed, {counts['failed']} failed" + (f", {counts['skipped']} skipped" if counts["skipped"] else "")
        return "\n".join([*lines, "", tail])


def reachable(base_url: str) -> str | None:
    """None if the API answers; otherwise why not, in a few words (within about 4 seconds)."""
    try:
        with urllib.request.urlopen(base_url.rstrip("/") + "/v1/rules", timeout=4) as response:
            response.read()
        return None
    except urllib.error.HTTPError as error:
        return None if error.code < 500 else f"it answers {error.code}"
    except (urllib.error.URLError, OSError, ValueError) as error:
        return str(getattr(error, "reason", error))


def list_scenarios() -> int:
    from .traceability import kit_scenarios

    for scenario in kit_scenarios():
        print(f"{scenario.ref}  [{' '.join('@' + tag for tag in sorted(scenario.tags))}]")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="pyramide-conformance",
        description=__doc__.split("\n\n")[0],
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    target = parser.add_mutually_exclusive_group()
    target.add_argument("--base-url", help="the HTTP API to judge (default: Pyramide's own app, in-process)")
    target.add_argument("--driver-command", help="a command speaking the kit's JSON-lines protocol on stdin/stdout")
    parser.add_argument("-m", dest="markers", help='select scenarios by tag, e.g. "doc-000 and not variant-strict-win"')
    parser.add_argument("-k", dest="keyword", help="select scenarios by name")
    parser.add_argument("--junitxml", metavar="FILE", help="also write a JUnit XML report, with each scenario's tags and rule rows")
    parser.add_argument("--json", metavar="FILE", help="also write the results per tag and per scenario as JSON")
    parser.add_argument("--list", action="store_true", help="list the scenarios and their tags, and run nothing")
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    args = parser.parse_args(argv)
    if args.list:
        try:
            return list_scenarios()
        except BrokenPipeError:  # `pyramide-conformance --list | head`
            return 0
    if args.base_url:
        problem = reachable(args.base_url)
        if problem is not None:
            print(f"pyramide-conformance: cannot reach {args.base_url}: {problem}", file=sys.stderr)
            return 2

    import pytest

    pytest_args = [str(FEATURES), "-q", "-p", "no:cacheprovider", "--rootdir", str(FEATURES), "-o", "addopts=", "--no-header"]
    for option, value in (("--base-url", args.base_url), ("--driver-command", args.driver_command), ("-m", args.markers), ("-k", args.keyword), ("--junitxml", args.junitxml)):
        if value:
            pytest_args += [option, value]
    summary = Summary()
    code = int(pytest.main(pytest_args, plugins=[summary]))
    print()
    print(summary.render(args.base_url or args.driver_command or "in-process"))
    if args.json:
        results = {"target": args.base_url or args.driver_command or "in-process", "counts": summary.counts(), "by_tag": summary.by_tag()}
        results["scenarios"] = [{"scenario": summary.names.get(node, node), "outcome": outcome} for node, outcome in summary.outcomes.items()]
        Path(args.json).write_text(json.dumps(results, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return {0: 0, 1: 1, 5: 5}.get(code, 2 if code == 4 else 3)


if __name__ == "__main__":
    sys.exit(main())
