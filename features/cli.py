"""``pyramide-conformance``: judge an implementation of Pyramid solitaire by the rule documents.

    pyramide-conformance --base-url http://127.0.0.1:8000            # a server speaking Pyramide's API
    pyramide-conformance --driver-command "node my-adapter.js"       # an engine behind a JSON-lines adapter
    pyramide-conformance                                             # Pyramide's own engine, in-process
    pyramide-conformance --base-url URL -m "doc-000 and not api"     # the documents' rules only
    pyramide-conformance --list                                      # the scenarios and their tags
    pyramide-conformance --driver-command CMD --report conformance.md --baseline known.json
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request
from collections import defaultdict
from pathlib import Path

import pytest

FEATURES = Path(__file__).parent
#: How the kit runs pytest: no cache folder, none of the surrounding project's ``addopts``, and
#: only the kit's own plugin (pytest-bdd). Plugins installed beside it are not loaded: they could
#: change how scenarios run, and loading them (each rewritten for pytest's asserts) cost 1 to 3 s of
#: CPU a run.
PYTEST_OPTIONS = ("-p", "no:cacheprovider", "--disable-plugin-autoload", "-p", "pytest_bdd.plugin", "-o", "addopts=")
EXIT_CODES = """exit status:
  0  every selected scenario passed (with --baseline: no check failed that it does not list)
  1  at least one scenario failed (with --baseline: a check failed that it does not list)
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
        self.ids: dict[str, str] = {}  # the scenario's vector id (features/vectors.json)
        self.outcomes: dict[str, str] = {}
        self.failures: dict[str, list[dict]] = {}  # each failing check: step, cites, what, expected, got
        self.reasons: dict[str, str] = {}  # why a scenario was skipped
        self.left_out: dict[str, list[str]] = {}  # the capabilities whose checks were left out of a scenario run
        self.unavailable: str | None = None
        self.fixed_rules: dict = {}  # the option values the implementation plays (its hello, --rules)

    def pytest_sessionfinish(self, session) -> None:
        from .conftest import UNAVAILABLE

        self.unavailable = session.config.stash.get(UNAVAILABLE, None)

    @pytest.hookimpl(tryfirst=True)  # before the kit's own, which may skip the scenario
    def pytest_bdd_before_scenario(self, request, feature, scenario) -> None:
        from .vectors import slug

        self.tags[request.node.nodeid] = sorted(set(feature.tags) | set(scenario.tags))
        self.names[request.node.nodeid] = f"{Path(feature.filename).stem} › {scenario.name}"
        self.ids[request.node.nodeid] = f"{Path(feature.filename).stem}/{slug(scenario.name)}"
        self.fixed_rules = request.getfixturevalue("kit_driver").fixed_rules

    def pytest_runtest_logreport(self, report) -> None:
        for key, value in report.user_properties:
            if key == "unjudged":
                self.left_out[report.nodeid] = value.split()
        if report.failed:
            self.outcomes[report.nodeid] = "failed"
            self.failures[report.nodeid] = getattr(report, "kit_failures", None) or [{"error": str(report.longrepr)[-2000:]}]
        elif report.skipped:
            if report.nodeid not in self.outcomes:
                reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
                self.reasons[report.nodeid] = reason.removeprefix("Skipped: ")
            self.outcomes.setdefault(report.nodeid, "skipped")
        elif report.when == "call":
            self.outcomes.setdefault(report.nodeid, "passed")

    def scenario_results(self) -> list[dict]:
        """Each scenario's outcome; a failed one with every failing check (the sentences it
        guards, the step, what was checked, expected and got), a skipped one with why."""
        results = []
        for node, outcome in self.outcomes.items():
            entry: dict = {"id": self.ids.get(node, node), "scenario": self.names.get(node, node), "outcome": outcome, "tags": self.tags.get(node, [])}
            if outcome == "failed":
                entry["failures"] = [
                    {**failure, "cites": [f"{document} #{number}" for document, number in failure.get("cites", [])]}
                    for failure in self.failures.get(node, [])
                ]
            elif outcome == "skipped" and node in self.reasons:
                entry["reason"] = self.reasons[node]
            if outcome != "skipped" and self.left_out.get(node):
                entry["checks_left_out"] = self.left_out[node]
            results.append(entry)
        return results

    def headline_failed(self, nodeid: str) -> bool:
        """Whether a failed scenario failed on its own rule: a check citing one of its own
        sentences failed, or a check guarding no sentence of its own kind. A pairing scenario
        whose only failing check is its points (000 #43) did not fail on pairing."""
        from .conftest import scenario_citations

        own = set(scenario_citations(self.tags.get(nodeid, [])))
        for failure in self.failures.get(nodeid, []):
            cites = {tuple(cite) for cite in failure.get("cites", [])}
            if not cites or cites & own or not own:
                return True
        return False

    def by_tag(self) -> dict[str, dict[str, int]]:
        """passed / failed / skipped per source and rule tag. A rule tag (``rule-…``,
        ``variant-…``) counts a failed scenario as failed only when it failed on its own rule
        (:meth:`headline_failed`); its failures on other sentences are in :meth:`by_sentence`."""
        table: dict[str, dict[str, int]] = defaultdict(lambda: {"passed": 0, "failed": 0, "skipped": 0})
        for nodeid, outcome in self.outcomes.items():
            headline = outcome != "failed" or self.headline_failed(nodeid)
            for tag in self.tags.get(nodeid, ["(untagged)"]):
                if tag.startswith(("doc-", "pyramide-choice", "api", "codes", "solver")):
                    table[tag][outcome] += 1
                elif tag.startswith(("rule-", "variant-")):
                    table[tag][outcome if headline else "passed"] += 1
        return dict(sorted(table.items(), key=lambda item: (not item[0].startswith(("doc-", "pyramide", "api", "codes")), item[0])))

    def by_sentence(self) -> dict[str, int]:
        """Failing checks per sentence they guard (``000 #43``), the scenarios' own or not."""
        counts: dict[str, int] = defaultdict(int)
        for failures in self.failures.values():
            for cite in {tuple(cite) for failure in failures for cite in failure.get("cites", [])}:
                counts[f"{cite[0]} #{cite[1]}"] += 1
        return dict(sorted(counts.items(), key=lambda item: (item[0][:3], int(item[0][5:]))))

    def rule_set(self) -> dict[str, int]:
        """Scenarios skipped per option the implementation plays otherwise than the app and under
        whose value they do not hold (``max_recycles``: 12)."""
        from .report import skip_counts

        return skip_counts(self.reasons.values())[1]

    def counts(self) -> dict[str, int]:
        return {outcome: list(self.outcomes.values()).count(outcome) for outcome in ("passed", "failed", "skipped")}

    def render(self, target: str) -> str:
        lines = [f"Pyramide conformance kit — {target}", "", f"  {'tag':<38} passed  failed  skipped"]
        for tag, counts in self.by_tag().items():
            mark = "FAIL" if counts["failed"] else "ok  "
            lines.append(f"  {mark} @{tag:<33} {counts['passed']:>6}  {counts['failed']:>6}  {counts['skipped']:>7}")
        sentences = self.by_sentence()
        if sentences:
            lines += ["", "failing checks by the sentence they guard (scenarios):"]
            lines += [f"  {cite:<10} {count:>5}" for cite, count in sentences.items()]
        from .report import failures_by_difference, group_title, left_out_counts, rule_set_lines, skip_counts

        results = self.scenario_results()
        skipped, rule_set = skip_counts(self.reasons.values())
        if self.fixed_rules:
            lines += ["", "the rules it plays, where they differ from the app's (scenarios that do not hold under them, skipped):"]
            lines += [f"  {line}" for line in rule_set_lines(self.fixed_rules, rule_set)]
        if skipped:
            lines += ["", "skipped, by what the implementation does not offer (scenarios; one needing several counts under each):", *(f"  {count:>5}  {reason}" for reason, count in sorted(skipped.items(), key=lambda item: -item[1]))]
        left_out = left_out_counts(results)
        if left_out:
            lines += ["", "checks left out for what the implementation does not offer, the rest of their scenario judged (scenarios):"]
            lines += [f"  {count:>5}  {name}" for name, count in sorted(left_out.items(), key=lambda item: -item[1])]
        groups = failures_by_difference(results)
        if groups:
            lines += ["", "failed scenarios, by the sentence they first differ on:"]
            for label, failed in groups:
                lines.append(f"  {group_title(label, failed)}")
                lines += [f"      {result['scenario']}" for result in failed]
        counts = self.counts()
        tail = f"{counts['passed']} passed, {counts['failed']} failed" + (f", {counts['skipped']} skipped" if counts["skipped"] else "")
        return "\n".join([*lines, "", tail])


def reachable(base_url: str) -> str | None:
    """None if the API answers like Pyramide's; otherwise one paragraph saying why not (within
    about 4 seconds): ``features/health.py``."""
    from .health import http_problem

    return http_problem(base_url)


def health_problem(args) -> str | None:
    """The implementation's health, checked before pytest starts (so that exit 2 comes within 5 s)."""
    from . import health
    from .driver import DriverUnavailable, SubprocessDriver

    without = frozenset(name.strip() for name in (args.without or "").split(",") if name.strip())
    if args.base_url:
        return health.http_problem(args.base_url, without)
    if args.driver_command:
        try:
            driver = SubprocessDriver(args.driver_command, without)
        except DriverUnavailable as error:
            return f"pyramide-conformance: the adapter is not working, so no scenario was run. {error}."
        problem = health.adapter_problem(driver)
        driver.close(wait=5.0 if problem is None else 0.2)
        return problem
    return None


def list_scenarios() -> int:
    """The scenarios and their tags; then every capability the scenarios need and every value of
    a rules option they deal under, with how many scenarios each: what an implementation may
    declare missing (``--without``, its hello's ``"without"``)."""
    from .capabilities import option_values
    from .traceability import kit_scenarios

    for scenario in kit_scenarios():
        print(f"{scenario.ref}  [{' '.join('@' + tag for tag in sorted(scenario.tags))}]")
    vectors = json.loads((Path(__file__).with_name("vectors.json")).read_text(encoding="utf-8"))["vectors"]
    needs: dict[str, int] = defaultdict(int)
    values: dict[str, int] = defaultdict(int)
    for vector in vectors:
        for capability in vector["requires"]:
            needs[capability] += 1
        for value in option_values(op for step in vector["steps"] for op in step["ops"]):
            values[value] += 1
    print(f"\ncapabilities the {len(vectors)} scenarios need (scenarios; --without CAP skips them):")
    print("\n".join(f"  {count:>5}  {name}" for name, count in sorted(needs.items(), key=lambda item: (-item[1], item[0]))))
    print("\nvalues of the rules options they deal under (scenarios; --without option-…=VALUE skips them):")
    print("\n".join(f"  {count:>5}  {name}" for name, count in sorted(values.items())))
    from .rule_sets import APP_RULES, STATED_BY

    print('\noptions an implementation may play fixed (--rules OPTION=VALUE,…, or its hello\'s "rules"), with the app\'s value:')
    print("\n".join(f"  {key:<24} {json.dumps(value):<6} (000 #{STATED_BY[key]})" for key, value in APP_RULES.items()))
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
    parser.add_argument(
        "--without", metavar="CAP,…", help="capabilities the implementation lacks (taps, scoring, move-counter, undo, messages, option-…, or one value of an option: option-max-recycles=2): their scenarios are skipped"
    )
    parser.add_argument(
        "--rules", metavar="OPTION=VALUE,…", help="the option values the implementation always plays, e.g. max_recycles=2,initial_waste=false: every scenario is dealt under them, and those that do not hold under them are skipped as one rule-set difference"
    )
    parser.add_argument("--report", metavar="FILE.md", help="also write a conformance report: the documents' sentences × passed/failed/skipped, with the first failing example of each")
    parser.add_argument("--baseline", metavar="FILE", help="known failures (--write-baseline): exit 0 unless a check fails that FILE does not list")
    parser.add_argument("--write-baseline", metavar="FILE", help="write this run's failures as a baseline")
    parser.add_argument("--check-adapter", action="store_true", help="with --driver-command: ask the adapter each kind of request once and say what is wrong with its answers")
    parser.add_argument("--list", action="store_true", help="list the scenarios and their tags, and run nothing")
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    args = parser.parse_args(argv)
    if args.list:
        try:
            return list_scenarios()
        except BrokenPipeError:  # `pyramide-conformance --list | head`
            return 0
    if args.check_adapter:
        if not args.driver_command:
            parser.error("--check-adapter needs --driver-command")
        from .check_adapter import check_adapter

        status, text = check_adapter(args.driver_command)
        print(text, file=sys.stderr if status == 2 else sys.stdout)
        return status
    from .driver import CAPABILITIES

    from .capabilities import is_capability

    unknown = [name for name in (args.without or "").split(",") if name.strip() and not is_capability(name.strip())]
    if unknown:
        parser.error(f"--without {','.join(unknown)}: not a capability ({', '.join(CAPABILITIES)})")
    from .rule_sets import parse

    try:
        parse(args.rules or "")
    except ValueError as error:
        parser.error(f"--rules: {error}")
    baseline = None
    if args.baseline:
        from .report import read_baseline

        try:
            baseline = read_baseline(args.baseline)
        except (OSError, ValueError) as error:
            parser.error(f"--baseline: {error}")
    for option, path in (("--json", args.json), ("--report", args.report), ("--write-baseline", args.write_baseline)):
        if path and not Path(path).resolve().parent.is_dir():  # said now, not after the whole run
            parser.error(f"{option} {path}: no such folder to write it in")
    problem = health_problem(args)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2

    import pytest

    pytest_args = [str(FEATURES), "-q", *PYTEST_OPTIONS, "--rootdir", str(FEATURES), "--no-header"]
    for option, value in (
        ("--base-url", args.base_url), ("--driver-command", args.driver_command), ("--without", args.without),
        ("--rules", args.rules), ("-m", args.markers), ("-k", args.keyword), ("--junitxml", args.junitxml),
    ):  # fmt: skip
        if value:
            pytest_args += [option, value]
    summary = Summary()
    code = int(pytest.main(pytest_args, plugins=[summary]))
    print()
    print(summary.render(args.base_url or args.driver_command or "in-process"))
    name = args.base_url or args.driver_command or "in-process"
    scenarios = summary.scenario_results()
    if args.json:
        results = {"target": name, "counts": summary.counts(), "by_tag": summary.by_tag(), "by_sentence": summary.by_sentence()}
        results["rules"] = {"plays": summary.fixed_rules, "not_holding": summary.rule_set()}
        results["scenarios"] = scenarios
        Path(args.json).write_text(json.dumps(results, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    if args.report:
        from .report import render_markdown

        Path(args.report).write_text(render_markdown(name, summary.counts(), scenarios, version(), summary.fixed_rules), encoding="utf-8")
    if args.write_baseline:
        from .report import baseline_of

        Path(args.write_baseline).write_text(json.dumps(baseline_of(scenarios, name), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    if summary.unavailable is not None:
        print(f"\npyramide-conformance: the implementation stopped answering, so the run stopped. {summary.unavailable}", file=sys.stderr)
        return 2
    status = {0: 0, 1: 1, 5: 5}.get(code, 2 if code == 4 else 3)
    if baseline is not None and status in (0, 1):
        from .report import compare

        new, fixed = compare(baseline, scenarios)
        print(f"\nbaseline {args.baseline}: {len(new)} new failing check(s), {len(fixed)} known failing check(s) now passing")
        print(*(f"  new:   {line}" for line in new), sep="\n") if new else None
        print(*(f"  fixed: {line}" for line in fixed), sep="\n") if fixed else None
        return 1 if new else 0
    return status


if __name__ == "__main__":
    sys.exit(main())
