"""The kit's results for a person and for a CI: ``--report FILE.md`` and ``--baseline FILE``.

The **report** is a matrix of the documents' sentences × {passed, failed, skipped}: for each
sentence a scenario guards, how many of its scenarios passed, how many failed on a check citing
it, how many were skipped and for want of which capability, and the first failing example (the
scenario, the step, expected and got). A scenario failing only on its points counts as a failure
of 000 #43, not of the pairing sentence it is about. It is the page an implementer attaches to a
pull request.

The **baseline** is the list of known failures, each scenario (by its vector id) with the steps
that fail in it, as test262's and web-platform-tests' expectation files are: with ``--baseline``
the run passes (exit 0) while no check fails that the baseline does not list, so that a CI can
gate on "no new failures" while known differences are worked on; checks of the baseline that now
pass are listed so that the file can be brought up to date (``--write-baseline``).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Iterable

BASELINE_FORMAT = 1


def _cite_key(cite) -> tuple[str, int]:
    """("000", 43) from ``"000 #43"`` (as --json writes it) or ``("000", 43)``."""
    if isinstance(cite, str):
        document, number = cite.split(" #")
        return (document, int(number))
    return (str(cite[0]), int(cite[1]))


def _label(cite: tuple[str, int]) -> str:
    return f"{cite[0]} #{cite[1]}"


def _short(value: Any, limit: int = 120) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= limit else text[:limit] + "…"


def skip_names(reason: str) -> list[str]:
    """What a skip reason names: the capabilities not offered, or the options of the rules the
    implementation plays under which the scenario does not hold (``rules max_recycles=0``)."""
    from .rule_sets import RULE_SET

    if reason.startswith(RULE_SET):
        return [f"rules {item}" for item in reason.removeprefix(RULE_SET).split(", ")]
    return reason.removeprefix("the implementation does not offer: ").split(", ")


def skip_counts(reasons: Iterable[str]) -> tuple[dict[str, int], dict[str, int]]:
    """The skipped scenarios counted from their reasons: per capability not offered (one needing
    several counts under each), and per option of the rules played under which they do not hold."""
    capabilities: dict[str, int] = defaultdict(int)
    options: dict[str, int] = defaultdict(int)
    for reason in reasons:
        for name in skip_names(reason):
            if name.startswith("rules "):
                options[name.removeprefix("rules ").partition("=")[0]] += 1
            else:
                capabilities[name] += 1
    return dict(capabilities), dict(options)


def left_out_counts(results: Iterable[dict[str, Any]]) -> dict[str, int]:
    """Scenarios judged with the checks of a capability left out, per capability."""
    counts: dict[str, int] = defaultdict(int)
    for result in results:
        for name in result.get("checks_left_out", []):
            counts[name] += 1
    return dict(counts)


def rule_set_lines(fixed: dict[str, Any], blamed: dict[str, int]) -> list[str]:
    """One line per option played otherwise than the app: its value, the app's and the sentence
    stating it, and how many scenarios do not hold under it; then those played as the app."""
    from .rule_sets import APP_RULES, STATED_BY, differences

    lines = []
    for key, value in differences(fixed).items():
        number = STATED_BY[key]
        lines.append(
            f"{key} = {json.dumps(value)}, where the app plays {json.dumps(APP_RULES[key])} (000 #{number} «{_sentence(('000', number))}»): "
            f"{blamed.get(key, 0)} scenario(s) do not hold under it"
        )
    same = {key: value for key, value in fixed.items() if key not in differences(fixed)}
    if same:
        lines.append("as the app: " + ", ".join(f"{key} = {json.dumps(value)}" for key, value in same.items()))
    return lines


def rule_set_rows(fixed: dict[str, Any]) -> dict[tuple[str, int], str]:
    """The sentences of the app's rules an implementation's fixed rules differ from, each with
    what it plays instead (``(000, 56)`` → ``plays max_recycles=0``)."""
    from .rule_sets import STATED_BY, differences

    return {("000", STATED_BY[key]): f"plays {key}={json.dumps(value)}" for key, value in differences(fixed).items()}


def sentence_matrix(results: list[dict[str, Any]], fixed: dict[str, Any] | None = None) -> dict[tuple[str, int], dict[str, Any]]:
    """Sentence → {"passed", "failed", "skipped": counts, "capabilities": {reason: n}, "example": …,
    "differs": what the implementation plays instead of the rule the sentence states, or None}.

    A scenario counts under each sentence it cites: failed when one of its failing checks cites
    that sentence, else passed (its checks of that sentence passed) or skipped. A failing check
    citing a sentence the scenario does not (points → 000 #43) counts there as a failure too."""
    from .conftest import scenario_citations

    matrix: dict[tuple[str, int], dict[str, Any]] = defaultdict(
        lambda: {"passed": 0, "failed": 0, "skipped": 0, "capabilities": defaultdict(int), "example": None, "differs": None}
    )
    for result in results:
        own = [_cite_key(cite) for cite in scenario_citations(result["tags"])]
        failing: dict[tuple[str, int], dict] = {}
        for failure in result.get("failures", []):
            for cite in failure.get("cites") or own:
                failing.setdefault(_cite_key(cite), failure)
        for cite in dict.fromkeys(own + list(failing)):
            row = matrix[cite]
            if result["outcome"] == "skipped":
                row["skipped"] += 1
                for name in skip_names(result.get("reason", "")):
                    row["capabilities"][name] += 1
            elif cite in failing:
                row["failed"] += 1
                if row["example"] is None:
                    row["example"] = {"scenario": result["scenario"], **failing[cite]}
            else:
                row["passed"] += 1
    for cite, plays in rule_set_rows(fixed or {}).items():
        matrix[cite]["differs"] = plays
    return matrix


def first_difference(result: dict[str, Any]) -> str:
    """The sentence a failed scenario first differs on: the first citation of its first failing
    check that cites one (a check cites the sentence it guards), else the scenario's own first
    sentence."""
    from .conftest import scenario_citations

    for failure in result.get("failures", []):
        if failure.get("cites"):
            return _label(_cite_key(failure["cites"][0]))
    own = scenario_citations(result["tags"])
    return _label(_cite_key(own[0])) if own else "no sentence"


def failures_by_difference(results: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """The failed scenarios grouped by the sentence they first differ on, the largest group first:
    24 scenarios failing on their points read as one difference (000 #43), not 24 broken rules."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for result in results:
        if result["outcome"] == "failed":
            groups[first_difference(result)].append(result)

    def order(item: tuple[str, list]) -> tuple:
        label = item[0]
        return (-len(item[1]), label == "no sentence", _cite_key(label) if label != "no sentence" else ("", 0))

    return sorted(groups.items(), key=order)


def _sentence(cite: tuple[str, int]) -> str:
    """The text of the sentence ``cite`` numbers (000's, or 003's and 004's), or ""."""
    from .conftest import _other_sentences, sentences

    document, number = cite
    return sentences().get(str(number), {}).get("000", "") if document == "000" else _other_sentences().get(document, {}).get(str(number), "")


def group_title(label: str, failed: list) -> str:
    """``19 scenarios: 000 #43 «Cada carta retirada…»``: a group of :func:`failures_by_difference`."""
    text = _sentence(_cite_key(label)) if label != "no sentence" else ""
    return f"{len(failed)} scenario{'s' if len(failed) > 1 else ''}: {label}" + (f" «{_short(text, 90)}»" if text else "")


def render_markdown(target: str, counts: dict[str, int], results: list[dict[str, Any]], version: str, fixed: dict[str, Any] | None = None) -> str:
    from .rule_sets import differences

    matrix = sentence_matrix(results, fixed)
    lines = [
        f"# Conformance report: {target}",
        "",
        f"Pyramide conformance kit {version}: **{counts['passed']} passed, {counts['failed']} failed, "
        f"{counts['skipped']} skipped** of {sum(counts.values())} scenarios.",
        "",
        "Each row is a sentence of the rule documents (numbered as in the kit's traceability tables, "
        "docs/conformance-traceability.md) and the scenarios that guard it: passed, failed on a check citing that "
        "sentence, or skipped for want of a capability. A scenario that fails only on its points counts "
        "against the scoring sentence (000 #43), not against the rule it is about.",
    ]
    reasons = [result.get("reason", "") for result in results if result["outcome"] == "skipped"]
    blamed = skip_counts(reasons)[1]
    # (the report's table names the rules' options too, with their values: ``rules max_recycles=0``)
    skipped = Counter(name for reason in reasons for name in skip_names(reason))
    if differences(fixed or {}):
        lines += [
            "", "## The rules it plays", "",
            "Each option it plays otherwise than the app, once: the scenarios that do not hold under its value "
            "(run on Pyramide's engine dealt as it is dealt) are skipped, not failed, and blamed on the option.", "",
        ]  # fmt: skip
        lines += [f"- {line}" for line in rule_set_lines(fixed or {}, blamed)]
    if skipped:
        lines += [
            "", "## Skipped, by what the implementation does not offer", "",
            "A scenario needing several counts under each.", "", "| capability | scenarios |", "|---|---|",
        ]  # fmt: skip
        lines += [f"| {reason} | {count} |" for reason, count in sorted(skipped.items(), key=lambda item: -item[1])]
    left_out = left_out_counts(results)
    if left_out:
        lines += [
            "", "## Checks left out, the rest of their scenario judged", "",
            "A check of what the implementation does not offer (a score, a message…) is left out on its own; "
            "its scenario is judged on its other checks.", "", "| capability | scenarios |", "|---|---|",
        ]  # fmt: skip
        lines += [f"| {name} | {count} |" for name, count in sorted(left_out.items(), key=lambda item: -item[1])]
    titles = {"000": "The Pyramide app's rules (000, Spanish; 002, Italian, says the same)", "003": "The traditional rules and variants (003)", "004": "Another app's rules (004)"}
    for document, title in titles.items():
        rows = sorted(cite for cite in matrix if cite[0] == document)
        if not rows:
            continue
        lines += ["", f"## {title}", "", "| # | sentence | passed | failed | skipped | first failure |", "|---|---|---|---|---|---|"]
        for cite in rows:
            row = matrix[cite]
            text = _sentence(cite)
            mark = "❌ " if row["failed"] else ""
            skipped_cell = str(row["skipped"]) + (f" ({', '.join(sorted(row['capabilities']))})" if row["skipped"] else "")
            example = row["example"]
            if example is None:
                failure = ""
            elif "error" in example:
                failure = f"{_short(example['scenario'])}: {_short(example['step'])}: {_short(example['error'])}"
            else:
                failure = (
                    f"{_short(example['scenario'])}: `{_short(example['step'])}`: {_short(example['what'])}: "
                    f"expected {_short(example['expected'], 60)}, got {_short(example['got'], 60)}"
                )
            lines.append(f"| {mark}{cite[1]} | «{_short(text, 90)}» | {row['passed']} | {row['failed']} | {skipped_cell} | {failure} |")
    beyond: dict[str, dict[str, int]] = defaultdict(lambda: {"passed": 0, "failed": 0, "skipped": 0})
    from .conftest import scenario_citations

    for result in results:
        if not scenario_citations(result["tags"]):
            source = next((tag for tag in ("pyramide-choice", "api", "codes") if tag in result["tags"]), "other")
            beyond[source][result["outcome"]] += 1
    if beyond:
        lines += ["", "## Beyond the documents", "", "| source | passed | failed | skipped |", "|---|---|---|---|"]
        lines += [f"| @{source} | {c['passed']} | {c['failed']} | {c['skipped']} |" for source, c in sorted(beyond.items())]
    groups = failures_by_difference(results)
    if groups:
        lines += ["", "## Failed scenarios, by the sentence they first differ on", ""]
        lines += ["A scenario counts once, under the sentence its first failing check cites.", ""]
        for label, failed in groups:
            lines += [f"### {group_title(label, failed)}", ""]
            for result in failed:
                checks = "; ".join(
                    f"`{_short(failure.get('step', ''))}` ({', '.join(_label(_cite_key(c)) for c in failure.get('cites', [])) or 'no sentence'})"
                    for failure in result.get("failures", [])
                )
                lines.append(f"- {result['scenario']}: {checks}")
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


# -- baseline ----------------------------------------------------------------------------------------


def baseline_of(results: list[dict[str, Any]], target: str) -> dict[str, Any]:
    failures = {
        result["id"]: sorted({failure.get("step", "") for failure in result.get("failures", [])})
        for result in results
        if result["outcome"] == "failed"
    }
    return {"format": BASELINE_FORMAT, "target": target, "failures": dict(sorted(failures.items()))}


def compare(baseline: dict[str, Any], results: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """(new failures, known failures that now pass), each as ``id: step``."""
    known = {(scenario, step) for scenario, steps in baseline.get("failures", {}).items() for step in steps}
    now = {
        (result["id"], failure.get("step", ""))
        for result in results
        if result["outcome"] == "failed"
        for failure in result.get("failures", [])
    }
    ran = {result["id"] for result in results if result["outcome"] != "skipped"}
    new = sorted(f"{scenario}: {step}" for scenario, step in now - known)
    fixed = sorted(f"{scenario}: {step}" for scenario, step in known - now if scenario in ran)
    return new, fixed


def read_baseline(path: str) -> dict[str, Any]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != BASELINE_FORMAT or not isinstance(data.get("failures"), dict):
        raise ValueError(f"{path}: not a baseline of format {BASELINE_FORMAT} (write one with --write-baseline)")
    return data
