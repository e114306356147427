"""The conformance matrix, ``docs/conformance-matrix.md``: a row per sentence of the rule documents,
a column per implementation the kit judged, each cell what the scenarios guarding that sentence
gave there (as wpt.fyi shows a test per browser, and compat-table a feature per engine). It is
built from the results committed in ``docs/conformance-results/`` (one file per implementation,
the ``--json`` results made slim: each scenario's id, its outcome and the sentences its failing
checks cite; its tags are the vectors'):

    python -m scripts.conformance_matrix           # the page, from the committed results
    python -m scripts.conformance_matrix --check   # exit 1 when the page is not what they give
    python -m scripts.conformance_matrix --run     # judge every implementation again, then the page

``--run`` starts Pyramide's server itself (for the HTTP and JavaScript columns; nginx if there is
one) and needs node for the JavaScript runner, soliterm, and guile-3.0 with Debian's aisleriot (``make
test`` installs them all).
``tests/kit/test_conformance_matrix.py`` fails when the page is out of date, and when a committed
result is not what the implementation does now.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "conformance-results"
PAGE = ROOT / "docs" / "conformance-matrix.md"
#: The same page as the web client serves it (``GET /conformance.html``, linked from the client).
HTML = ROOT / "service" / "web" / "conformance.html"
VECTORS = ROOT / "features" / "vectors.json"

#: (column, results file, how the kit is run: its arguments after ``pyramide-conformance``, or the
#: JavaScript runner's command; ``{url}`` is a live server's, ``{out}`` the results file)
IMPLEMENTATIONS: tuple[tuple[str, str, list[str]], ...] = (
    ("Pyramide, in-process", "pyramide-in-process.json", ["kit"]),
    ("Pyramide over HTTP", "pyramide-http.json", ["kit", "--base-url", "{url}"]),
    ("JavaScript runner, over HTTP", "pyramide-js.json", ["node", "features/js/runner.mjs", "--base-url", "{url}", "--json", "{out}"]),
    ("Pyramide's engine, adapter (no HTTP)", "pyramide-adapter.json", ["kit", "--driver-command", "python -m features.adapters.pyramide_engine"]),
    ("soliterm (AisleRiot's rules)", "soliterm.json", ["kit", "--driver-command", "python -m features.adapters.soliterm_pyramid"]),
    ("AisleRiot's Thirteen (Debian's compiled game)", "aisleriot.json", ["kit", "--driver-command", "python -m features.adapters.aisleriot_thirteen"]),
)


def slim(full: dict) -> dict:
    """A ``--json`` result as committed: the target, the counts, and per scenario its id, outcome
    and the sentences its failing checks cite (none cited: its own)."""
    scenarios = []
    for result in full["scenarios"]:
        cites = sorted({cite for failure in result.get("failures", []) for cite in failure.get("cites") or []})
        scenarios.append([result["id"], result["outcome"], cites] if cites else [result["id"], result["outcome"]])
    slimmed = {"target": full["target"], "counts": full["counts"], "scenarios": sorted(scenarios)}  # (by id: runs order them apart)
    plays = (full.get("rules") or {}).get("plays") or {}
    if plays:  # the rules it plays fixed (its hello's "rules", or --rules)
        slimmed["rules"] = plays
    return slimmed


def _results(slimmed: dict, tags: dict[str, list[str]]) -> list[dict]:
    """The committed result as ``features.report.sentence_matrix`` reads a run's."""
    results = []
    for entry in slimmed["scenarios"]:
        scenario_id, outcome = entry[0], entry[1]
        result = {"id": scenario_id, "scenario": scenario_id, "outcome": outcome, "tags": tags.get(scenario_id, [])}
        if outcome == "failed":
            result["failures"] = [{"cites": entry[2] if len(entry) > 2 else []}]
        results.append(result)
    return results


def _cell(row: dict | None) -> str:
    if row is not None and row.get("differs"):
        return f"≠ {row['differs']}"
    if row is None or not (row["passed"] or row["failed"] or row["skipped"]):
        return ""
    if row["failed"]:
        return f"✗ {row['failed']} of {row['passed'] + row['failed']}"
    if row["passed"]:
        return f"✓ {row['passed']}"
    return "– skipped"


def render(results: dict[str, dict]) -> str:
    """The page: every sentence the traceability tables number, in their order."""
    sys.path.insert(0, str(ROOT))
    from features.conftest import _other_sentences, sentences
    from features.report import sentence_matrix

    vectors = json.loads(VECTORS.read_text(encoding="utf-8"))["vectors"]
    tags = {vector["id"]: vector["tags"] for vector in vectors}
    columns = [(name, sentence_matrix(_results(results[file], tags), results[file].get("rules")), results[file]["counts"]) for name, file, _ in IMPLEMENTATIONS]
    rows = [("000", int(number), text["000"]) for number, text in sentences().items()]
    for document, numbered in _other_sentences().items():
        rows += [(document, int(number), text) for number, text in numbered.items()]
    lines = [
        "# The conformance matrix",
        "",
        "Every sentence of the rule documents that states a rule (000/002 for the app's rules, 003 and",
        "004 for their presets; numbered as in [the kit's traceability tables](conformance-traceability.md)),",
        "and what the kit's scenarios guarding it gave on each implementation judged: ✓ n, all n passed;",
        "✗ f of n, f of the n run failed on a check citing it (a failure is blamed on the sentence its",
        "check cites); – skipped, none could run (the implementation lacks a capability they need, or plays",
        "rules under which they do not hold); ≠ plays …, the implementation plays another rule than the one",
        "the sentence states (its fixed rules, declared: docs/conformance.md § Fixed rules);",
        "empty, no scenario guards it. Written by `python -m scripts.conformance_matrix` from the results",
        "in `docs/conformance-results/` (each implementation's `--json`, made slim); `make test` fails",
        "when this page or a result is out of date. What each failure is, sentence by sentence, is in",
        "each implementation's report ([soliterm's](conformance-soliterm.md), [AisleRiot's](conformance-aisleriot.md)).",
        "",
        "| implementation | passed | failed | skipped | run as |",
        "|---|---:|---:|---:|---|",
    ]
    for (name, file, _), (_, _, counts) in zip(IMPLEMENTATIONS, columns):
        lines.append(f"| {name} | {counts['passed']} | {counts['failed']} | {counts['skipped']} | `{results[file]['target']}` |")
    lines += ["", "| sentence | " + " | ".join(name for name, _, _ in columns) + " |", "|---|" + "---|" * len(columns)]
    for document, number, text in rows:
        quoted = text if len(text) <= 90 else text[:90].rstrip() + "…"
        cells = [_cell(matrix.get((document, number))) for _, matrix, _ in columns]
        lines.append(f"| {document} #{number} «{quoted.replace('|', '/')}» | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _inline(text: str) -> str:
    """A line of the page's markdown as HTML: escaped, `code` and [links](…) (a link to another
    docs page is kept as text: the web client serves this page alone)."""
    import html
    import re

    text = html.escape(text, quote=False)
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
    return re.sub(r"\[([^\]]+)\]\(([^)]+)\)", r"\1", text)


def render_html(page: str) -> str:
    """The markdown page as one HTML page for the web client: its heading, paragraphs and tables."""
    body: list[str] = []
    paragraph: list[str] = []
    table: list[list[str]] = []

    def flush() -> None:
        if paragraph:
            body.append("<p>" + _inline(" ".join(paragraph)) + "</p>")
            paragraph.clear()
        if table:
            head, *rows = table
            body.append("<table><thead><tr>" + "".join(f"<th>{_inline(cell)}</th>" for cell in head) + "</tr></thead><tbody>")
            body.extend("<tr>" + "".join(f"<td>{_inline(cell)}</td>" for cell in row) + "</tr>" for row in rows)
            body.append("</tbody></table>")
            table.clear()

    for line in page.splitlines():
        if line.startswith("# "):
            flush()
            body.append(f"<h1>{_inline(line[2:])}</h1>")
        elif line.startswith("|"):
            if paragraph:
                flush()
            cells = [cell.strip() for cell in line.strip("|").split(" | ")]
            if not all(set(cell) <= set("-:") for cell in cells):
                table.append(cells)
        elif not line.strip():
            flush()
        else:
            paragraph.append(line)
    flush()
    return "\n".join(
        [
            "<!doctype html>",
            '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
            "<title>Pyramide: the conformance matrix</title>",
            '<link rel="stylesheet" href="style.css"></head>',
            '<body class="matrix"><p><a href="/">← the game</a></p>',
            *body,
            "</body></html>",
            "",
        ]
    )


def load() -> dict[str, dict]:
    return {file: json.loads((RESULTS / file).read_text(encoding="utf-8")) for _, file, _ in IMPLEMENTATIONS}


def run_all() -> None:
    """Judge every implementation again and write its slim results."""
    from tests.server import running_server  # (the server as the tests start it)

    env = {**os.environ, "PYRAMIDE_SOLVE_SECONDS": "600"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    with running_server(PYRAMIDE_SOLVE_SECONDS="600", PYRAMIDE_ACCESS_LOG="off") as base:
        RESULTS.mkdir(parents=True, exist_ok=True)
        for name, file, how in IMPLEMENTATIONS:
            with tempfile.TemporaryDirectory() as scratch:
                out = str(Path(scratch) / "full.json")
                args = [arg.replace("{url}", base).replace("{out}", out) for arg in how]
                command = [sys.executable, "-m", "features.cli", *args[1:], "--json", out] if args[0] == "kit" else args
                done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
                print(f"{name}: {done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-500:]}", flush=True)
                full = json.loads(Path(out).read_text(encoding="utf-8"))
                shown = ["pyramide-conformance", *how[1:]] if how[0] == "kit" else [a for a in how if a not in ("--json", "{out}")]
                full["target"] = " ".join(shown).replace("{url}", "URL")
                (RESULTS / file).write_text(json.dumps(slim(full), ensure_ascii=False) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.conformance_matrix", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the page is not what the committed results give")
    parser.add_argument("--run", action="store_true", help="judge every implementation again first")
    args = parser.parse_args(argv)
    if args.run:
        run_all()
    page = render(load())
    pages = ((PAGE, page), (HTML, render_html(page)))
    if args.check:
        stale = [path for path, text in pages if not path.exists() or path.read_text(encoding="utf-8") != text]
        for path in stale:
            print(f"{path.relative_to(ROOT)} is out of date: python -m scripts.conformance_matrix", file=sys.stderr)
        return 1 if stale else 0
    for path, text in pages:
        path.write_text(text, encoding="utf-8")
        print(f"{path.relative_to(ROOT)}: {len(text.splitlines())} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
