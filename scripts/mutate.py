"""Mutation testing of the rules engine, judged by the conformance kit alone (docs/mutation.md).

    python -m scripts.mutate                   # every engine module listed in [tool.mutmut]
    python -m scripts.mutate _play _state      # some of them (make mutate MODULE=_play)
    python -m scripts.mutate --only 'service.engine._codes.x_parse_code__mutmut_*'   # some mutants
    python -m scripts.mutate --summary-only    # the summary of the last run, without running
    python -m scripts.mutate --coverage        # branch coverage of service/engine by the kit alone

mutmut 3 does the work (configuration: ``[tool.mutmut]`` in pyproject.toml): it copies ``service/``
to ``mutants/``, rewrites each function of the engine modules into its mutants behind a trampoline,
finds which scenarios call which function, then forks one worker per mutant that runs only those
scenarios. This script bounds the run in time, shows its progress, and reads mutmut's result files
into a summary per module (table, JSON, Markdown) with the diff of every surviving mutant.

Mutants named in ``docs/mutation-equivalents.json`` (name -> one-line reason) are counted as
"equivalent" and left out of the kill ratio: killed / (generated - equivalent).

A mutant's name is its function and a number, and the numbers change when the function does. After
the engine changed, ``--carry-equivalents OLD/mutants`` (the mutants/ of a run on the code the
equivalents were triaged on) keeps each listed mutant only where the current code has one with the
very same code (its function's syntax tree, docstring aside), under its current name; the others
are dropped, to be triaged again.

This module is also the pytest plugin ``-p scripts.mutate`` that mutmut loads in every run: before
each test it empties the engine's ``lru_cache``s. A mutant's worker is forked from mutmut's main
process, whose caches hold what the *unmutated* engine computed, and within one run a cache would
hide later scenarios from mutmut's map of which scenario calls which function.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "mutants"
EQUIVALENTS = ROOT / "docs" / "mutation-equivalents.json"
BUILD = ROOT / "build"
DEFAULT_MAX_MINUTES = 120  # a full run measured 60-70 minutes on 2 busy cores (docs/mutation.md)
COLUMNS = ("generated", "killed", "survived", "equivalent", "timeout", "no_tests", "suspicious", "not_run")
HEADERS = ("generated", "killed", "survived", "equivalent", "timeout", "no tests", "suspicious", "not run")


# -- the pytest plugin ---------------------------------------------------------------------------


def pytest_runtest_setup(item) -> None:  # noqa: ARG001 - pytest hook signature
    """Empty every cache of the engine before each test: its ``functools.lru_cache``s and the
    replay cache of ``_state`` (see the module doc)."""
    for name, module in list(sys.modules.items()):
        if name == "service.engine" or name.startswith("service.engine."):
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear) and not isinstance(value, type):  # caches, not their classes
                    clear()


# -- configuration -------------------------------------------------------------------------------


def mutmut_config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]


def engine_modules() -> dict[str, str]:
    """``{"_play": "service/engine/_play.py", ...}``: the files [tool.mutmut] only_mutate lists."""
    return {Path(path).stem: path for path in mutmut_config()["only_mutate"]}


def dotted(path: str) -> str:
    return path[: -len(".py")].replace("/", ".")


def module_of(mutant: str) -> str:
    """``service.engine._play.x_is_free__mutmut_3`` -> ``_play``."""
    head = mutant.partition("__mutmut_")[0]
    return head.split(".")[2]


def load_equivalents() -> dict[str, str]:
    if not EQUIVALENTS.exists():
        return {}
    data = json.loads(EQUIVALENTS.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(isinstance(v, str) and v.strip() for v in data.values()):
        raise SystemExit(f"{EQUIVALENTS.relative_to(ROOT)}: expected an object of mutant name -> one-line reason")
    return data


def mutmut_executable() -> str:
    candidate = Path(sys.executable).with_name("mutmut")
    found = str(candidate) if candidate.exists() else shutil.which("mutmut")
    if not found:
        raise SystemExit("mutmut is not installed: make mutate installs it (pip install -e '.[mutate]')")
    return found


# -- the run -------------------------------------------------------------------------------------


def source_snapshot() -> dict:
    """The commit the run judged, and the files of the engine and the kit changed since (read-only git)."""
    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return ""

    changed = git("status", "--porcelain", "--", "service", "features")
    return {"commit": git("rev-parse", "HEAD") or None, "uncommitted": sorted(line[2:].strip() for line in changed.splitlines())}


def kit_fingerprint() -> str:
    """A hash of what judges the mutants: the kit's files, this script and pyproject.toml. mutmut
    tracks the engine's functions itself, but not a scenario that changed."""
    import hashlib

    digest = hashlib.sha256()
    files = [path for path in sorted((ROOT / "features").rglob("*")) if path.is_file() and "__pycache__" not in path.parts]
    for path in [*files, ROOT / "scripts" / "mutate.py", ROOT / "pyproject.toml"]:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def exclusive_lock():
    """One run at a time in this tree: two mutmut runs in the same mutants/ folder spoil each other."""
    import fcntl

    BUILD.mkdir(exist_ok=True)
    handle = open(BUILD / "mutate.lock", "w")  # noqa: SIM115 - held until the process ends
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise SystemExit("another `python -m scripts.mutate` is running in this tree (build/mutate.lock); wait for it") from None
    handle.write(str(os.getpid()))
    handle.flush()
    return handle


def _format_duration(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds), 60)
    return f"{minutes}m{seconds:02d}s"


class Progress:
    """mutmut redraws one status line (``\\r``) ten times a second; print it at a readable pace."""

    def __init__(self, every: float, started: float) -> None:
        self.every = every
        self.started = started
        self.last = 0.0
        self.testing_since: float | None = None
        self.done_at_start: int | None = None
        self.pending = ""
        self.status = ""

    def feed(self, text: str) -> None:
        self.pending += text
        *parts, self.pending = self.pending.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        for part in parts:
            self.line(part)

    def line(self, line: str) -> None:
        text = line.strip()
        if not text:
            return
        body = text[2:] if text[:1] in "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏" else text
        if "🎉" in body and "/" in body.split()[0]:
            self.status = body
            if self.testing_since is not None and self.done_at_start is None:
                self.done_at_start = int(body.split()[0].split("/")[0])  # --keep starts with the results it kept
            now = time.monotonic()
            if now - self.last >= self.every:
                self.last = now
                print(f"[{_format_duration(now - self.started)}] {body}{self.eta(body, now)}", flush=True)
            return
        if text in ("Mutant results", "--------------") or text.split(" ")[-1].startswith("service."):
            return  # mutmut's per-mutant list after a run by name: the summary below says it better
        if text.startswith("Running mutation testing"):
            self.testing_since = time.monotonic()
        if body.startswith(("Running stats", "Running clean tests", "Running forced fail test", "Generating", "Listing")):
            if body == self.status:
                return  # the same phase, redrawn with the next spinner frame
            self.status = text = body
        print(text, flush=True)

    def eta(self, body: str, now: float) -> str:
        try:
            done, total = (int(n) for n in body.split()[0].split("/"))
        except ValueError:
            return ""
        if self.testing_since is None or done >= total:
            return ""
        if self.done_at_start is None or done == self.done_at_start:
            return ""
        rate = (done - self.done_at_start) / max(now - self.testing_since, 1e-6)
        return f"  (about {_format_duration((total - done) / rate)} left)"

    def close(self) -> None:
        if self.pending:
            self.line(self.pending)
        if self.status:
            print(f"[{_format_duration(time.monotonic() - self.started)}] {self.status}", flush=True)


def run_mutmut(globs: list[str], *, max_minutes: float, jobs: int | None, every: float) -> tuple[int, bool]:
    """Run ``mutmut run`` until it ends or the time is up; (exit code, whether the time ran out)."""
    command = [mutmut_executable(), "run", *(["--max-children", str(jobs)] if jobs else []), *globs]
    print("$", " ".join(command), flush=True)
    started = time.monotonic()
    deadline = started + max_minutes * 60
    progress = Progress(every, started)
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        start_new_session=True,  # its own process group: the time bound stops mutmut and its workers
    )
    assert process.stdout is not None
    out_of_time = False
    stop_sent_at: float | None = None
    fd = process.stdout.fileno()
    while True:
        ready, _, _ = select.select([fd], [], [], 1.0)
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            progress.feed(chunk.decode("utf-8", errors="replace"))
        now = time.monotonic()
        if now > deadline and stop_sent_at is None:
            out_of_time = True
            stop_sent_at = now
            print(f"\nTime bound of {max_minutes:g} minutes reached: stopping mutmut (results so far are kept)", flush=True)
            _signal_group(process, signal.SIGINT)  # mutmut stops its workers and saves what it has
        elif stop_sent_at is not None and now - stop_sent_at > 60:
            _signal_group(process, signal.SIGKILL)
            stop_sent_at = float("inf")
    progress.close()
    return process.wait(), out_of_time


def _signal_group(process: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(process.pid, sig)  # the group this script started for mutmut (start_new_session)
    except ProcessLookupError:
        pass


def forget_interrupted(modules: dict[str, str]) -> None:
    """After an interrupted run, let ``--keep`` test again what was cut off rather than count it."""
    for path in modules.values():
        meta = MUTANTS / (path + ".meta")
        if not meta.exists():
            continue
        data = json.loads(meta.read_text(encoding="utf-8"))
        codes = data["exit_code_by_key"]
        changed = {key for key, code in codes.items() if code in (2, -2, 130, -15)}
        if changed:
            codes.update(dict.fromkeys(changed, None))
            meta.write_text(json.dumps(data, indent=4), encoding="utf-8")


# -- the summary ---------------------------------------------------------------------------------


def category(status: str) -> str:
    return {
        "killed": "killed",
        "survived": "survived",
        "timeout": "timeout",
        "no tests": "no_tests",
        "suspicious": "suspicious",
        "segfault": "suspicious",
    }.get(status, "not_run")  # not checked, check was interrupted by user, skipped, caught by type check


def collect(modules: dict[str, str], equivalents: dict[str, str]) -> dict:
    from mutmut.stats import status_by_exit_code

    summary: dict = {"modules": {}, "stale_equivalents": []}
    known: set[str] = set()
    for module, path in modules.items():
        meta = MUTANTS / (path + ".meta")
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"] if meta.exists() else {}
        row = dict.fromkeys(COLUMNS, 0)
        names: dict[str, list[str]] = {"survived": [], "equivalent": [], "timeout": [], "no_tests": [], "suspicious": [], "not_run": []}
        for name in sorted(codes, key=_natural):
            known.add(name)
            kind = category(status_by_exit_code[codes[name]])
            if name in equivalents:
                if kind == "killed":
                    summary["stale_equivalents"].append(name)  # listed as equivalent, yet the kit kills it
                else:
                    kind = "equivalent"
            row["generated"] += 1
            row[kind] += 1
            if kind in names:
                names[kind].append(name)
        denominator = row["generated"] - row["equivalent"]
        row["kill_ratio"] = round(row["killed"] / denominator, 4) if denominator else None
        summary["modules"][module] = {**row, **{f"{kind}_names": value for kind, value in names.items()}}
    total = {column: sum(m[column] for m in summary["modules"].values()) for column in COLUMNS}
    denominator = total["generated"] - total["equivalent"]
    total["kill_ratio"] = round(total["killed"] / denominator, 4) if denominator else None
    summary["total"] = total
    prefixes = tuple(dotted(path) + "." for path in modules.values())
    summary["stale_equivalents"] += sorted(
        name for name in equivalents if name.startswith(prefixes) and name not in known
    )  # listed, but no such mutant any more
    return summary


def _natural(name: str) -> tuple[str, int]:
    head, _, number = name.rpartition("__mutmut_")
    return head, int(number) if number.isdigit() else 0


def _ratio(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f} %"


def table_rows(summary: dict) -> list[list[str]]:
    rows = [[module, *(str(row[c]) for c in COLUMNS), _ratio(row["kill_ratio"])] for module, row in summary["modules"].items()]
    total = summary["total"]
    rows.append(["total", *(str(total[c]) for c in COLUMNS), _ratio(total["kill_ratio"])])
    return rows


def text_table(summary: dict) -> str:
    header = ["module", *HEADERS, "kill ratio"]
    rows = table_rows(summary)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(r, widths))) for r in [header, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.insert(len(lines) - 1, lines[1])
    return "\n".join(lines)


def markdown(summary: dict) -> str:
    header = ["module", *HEADERS, "kill ratio"]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|"]
    for row in table_rows(summary):
        cells = [f"**{c}**" if row[0] == "total" else c for c in row]
        if row[0] != "total":
            cells[0] = f"`{row[0]}`"
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "Kill ratio = killed / (generated - equivalent).", ""]
    for kind, title in (("survived", "Surviving mutants"), ("no_tests", "Mutants no scenario reaches"), ("timeout", "Timeouts"), ("suspicious", "Suspicious")):
        names = [name for row in summary["modules"].values() for name in row[f"{kind}_names"]]
        if names:
            lines += [f"{title} ({len(names)}):", ""] + [f"- `{name}`" for name in names] + [""]
    return "\n".join(lines)


def survivor_diffs(summary: dict, equivalents: dict[str, str]) -> str:
    """``mutmut show NAME`` for every survivor (and every equivalent one, with its reason)."""
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    chunks = []
    for row in summary["modules"].values():
        for kind in ("survived", "equivalent"):
            for name in row[f"{kind}_names"]:
                try:
                    diff = get_diff_for_mutant(name, path=_source_of(name))
                except Exception as error:  # noqa: BLE001 - report it and go on
                    diff = f"(no diff: {error})"
                note = f"  [equivalent: {equivalents[name]}]" if kind == "equivalent" else ""
                chunks.append(f"# {name}: {kind}{note}\n{diff.rstrip()}\n")
    return "\n".join(chunks)


def _source_of(name: str) -> str:
    return engine_modules()[module_of(name)]


def report(modules: dict[str, str], args: argparse.Namespace, run: dict) -> dict:
    os.chdir(ROOT)  # mutmut's readers work from the project root
    equivalents = load_equivalents()
    summary = collect(modules, equivalents)
    summary["run"] = run
    print()
    print(text_table(summary))
    print("\nKill ratio = killed / (generated - equivalent).")
    survivors = [name for row in summary["modules"].values() for name in row["survived_names"]]
    print(f"\nSurviving mutants ({len(survivors)}):" if survivors else "\nNo surviving mutant.")
    for name in survivors:
        print("  " + name)
    if summary["stale_equivalents"]:
        print(f"\nWarning: {EQUIVALENTS.relative_to(ROOT)} lists mutants that were killed or no longer exist:")
        for name in summary["stale_equivalents"]:
            print("  " + name)
    for target, content in (
        (args.json, lambda: json.dumps(summary, indent=2, ensure_ascii=False) + "\n"),
        (args.markdown, lambda: markdown(summary)),
        (args.survivors, lambda: survivor_diffs(summary, equivalents)),
    ):
        if target:
            path = Path(target)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content(), encoding="utf-8")
            print(f"wrote {path}")
    return summary


# -- kit-only coverage ---------------------------------------------------------------------------


def coverage(output: str | None) -> int:
    """Branch coverage of service/engine by the kit alone: the very pytest selection mutmut uses."""
    config = mutmut_config()
    data_file = BUILD / "coverage-kit" / ".coverage"
    data_file.parent.mkdir(parents=True, exist_ok=True)
    python = sys.executable
    run = [python, "-m", "coverage", "run", "--branch", f"--data-file={data_file}", "--source=service/engine",
           "-m", "pytest", "-q", *config["pytest_add_cli_args"], *config["pytest_add_cli_args_test_selection"]]  # fmt: skip
    print("$", " ".join(run), flush=True)
    result = subprocess.run(run, cwd=ROOT)
    if result.returncode != 0:
        print("the kit failed: no coverage report")
        return result.returncode
    mutated = ", ".join(sorted(engine_modules()))
    report_command = [python, "-m", "coverage", "report", f"--data-file={data_file}", "--show-missing", "--precision=1"]
    text = subprocess.run(report_command, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    include = "--include=" + ",".join(engine_modules().values())
    mutated_only = subprocess.run([*report_command, include], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    stmts, miss, branches, partial, cover = mutated_only.strip().splitlines()[-1].split()[1:6]
    text += (
        f"\nThe mutated modules alone: {stmts} statements ({miss} missed), {branches} branches"
        f" ({partial} partial), {cover} covered.\n"
    )
    text = (
        "Branch coverage of service/engine by the conformance kit alone "
        f"(pytest {' '.join(config['pytest_add_cli_args_test_selection'])}, in-process).\n"
        f"Mutated modules: {mutated}. Missing: line numbers, and branches as from->to (exit = leaves the function).\n\n"
        + text
    )
    print(text)
    if output:
        Path(output).parent.mkdir(parents=True, exist_ok=True)
        Path(output).write_text(text, encoding="utf-8")
        print(f"wrote {output}")
    return 0


# -- the command line ----------------------------------------------------------------------------


def mutant_codes(root: Path) -> dict[str, str]:
    """``{mutant name: its code}`` for every mutant in ``root`` (a mutants/ folder): the mutated
    function's name without its number, and its syntax tree without its docstring, so that the same
    mutation of the same function compares equal whatever its number."""
    codes = {}
    for path in engine_modules().values():
        source = root / path
        if not source.exists():
            continue
        module = dotted(path)
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or "__mutmut_" not in node.name:
                continue
            if node.body and isinstance(node.body[0], ast.Expr) and isinstance(getattr(node.body[0], "value", None), ast.Constant):
                node.body = node.body[1:] or [ast.Pass()]
            name = node.name
            node.name = name.partition("__mutmut_")[0]
            codes[f"{module}.{name}"] = ast.unparse(node)
    return codes


def carry_equivalents(old_root: Path) -> int:
    """Re-key docs/mutation-equivalents.json from the mutants in ``old_root`` to those in mutants/."""
    old, new = mutant_codes(old_root), mutant_codes(MUTANTS)
    by_code: dict[str, list[str]] = {}
    for name, code in new.items():
        if "__mutmut_orig" not in name:
            by_code.setdefault(code, []).append(name)
    equivalents = load_equivalents()
    carried: dict[str, str] = {}
    dropped = []
    for name, reason in equivalents.items():
        if module_of(name) not in {Path(path).stem for path in engine_modules().values()}:
            continue
        if name not in old:  # not in the old run's modules: keep as it is
            carried[name] = reason
            continue
        matches = by_code.get(old[name], [])
        if len(matches) == 1:
            carried[matches[0]] = reason
        else:
            dropped.append(name)
    EQUIVALENTS.write_text(json.dumps(carried, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    renamed = sum(1 for name in carried if name not in equivalents)
    print(f"{len(carried)} equivalents kept ({renamed} under a new name), {len(dropped)} dropped (their code changed):")
    for name in dropped:
        print("  " + name)
    # For the triage to come: the dropped ones whose mutation (the line it changes, before and after)
    # is found again in the same function, with their old reason, to be reviewed, never carried blindly.
    old_changes, new_changes = mutant_changes(old_root), mutant_changes(MUTANTS)
    by_change: dict[tuple, list[str]] = {}
    for name, change in new_changes.items():
        by_change.setdefault(change, []).append(name)
    suggested = {}
    for name in dropped:
        matches = by_change.get(old_changes.get(name), [])
        if len(matches) == 1:
            suggested[matches[0]] = equivalents[name]
    BUILD.mkdir(exist_ok=True)
    (BUILD / "mutation-suggested.json").write_text(json.dumps(suggested, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(suggested)} of them found again with the same change: build/mutation-suggested.json, to review")
    return 0


def mutant_changes(root: Path) -> dict[str, tuple]:
    """``{mutant name: (function, the lines it removes, the lines it adds)}``, against the function's
    original in ``root``."""
    codes = mutant_codes(root)
    changes = {}
    for name, code in codes.items():
        if "__mutmut_orig" in name:
            continue
        original = codes.get(name.partition("__mutmut_")[0] + "__mutmut_orig")
        if original is None:
            continue
        before, after = original.splitlines(), code.splitlines()
        removed = tuple(line for line in before if line not in after)
        added = tuple(line for line in after if line not in before)
        changes[name] = (name.partition("__mutmut_")[0], removed, added)
    return changes


def main(argv: list[str] | None = None) -> int:
    modules = engine_modules()
    parser = argparse.ArgumentParser(prog="python -m scripts.mutate", description=__doc__.split("\n\n")[0])
    parser.add_argument("module", nargs="*", help=f"engine modules to mutate (default: all of {', '.join(modules)})")
    parser.add_argument("--max-minutes", type=float, default=DEFAULT_MAX_MINUTES,
                        help="stop mutmut after this long and report what was tested (default: %(default)s)")  # fmt: skip
    parser.add_argument("--jobs", type=int, default=None, help="parallel workers (default: one per CPU)")
    parser.add_argument("--keep", action="store_true",
                        help="reuse mutants/ and the results of a previous run (default: start afresh, reproducible)")  # fmt: skip
    parser.add_argument("--only", nargs="+", metavar="NAME", default=[],
                        help="run only these mutants (mutmut's names, or globs of them, e.g. "
                             "'service.engine._state.xǁGameStateǁnew__mutmut_*'); with --keep, the others keep their results")  # fmt: skip
    parser.add_argument("--summary-only", action="store_true", help="do not run: summarize the results in mutants/")
    parser.add_argument("--json", default=str(BUILD / "mutation-summary.json"), help="write the summary as JSON here")
    parser.add_argument("--markdown", default=str(BUILD / "mutation-summary.md"), help="write the summary as Markdown here")
    parser.add_argument("--survivors", default=str(BUILD / "mutation-survivors.txt"),
                        help="write the diff of every surviving mutant here")  # fmt: skip
    parser.add_argument("--progress-every", type=float, default=10.0, help="seconds between progress lines")
    parser.add_argument("--coverage", action="store_true",
                        help="instead: branch coverage of service/engine by the kit alone")  # fmt: skip
    parser.add_argument("--coverage-output", default=str(BUILD / "coverage-kit.txt"), help="write the coverage report here")
    parser.add_argument("--carry-equivalents", metavar="OLD_MUTANTS",
                        help="instead: re-key the listed equivalents from the mutants/ of a run on older code to mutants/")  # fmt: skip
    args = parser.parse_args(argv)

    if args.carry_equivalents:
        return carry_equivalents(Path(args.carry_equivalents))
    if args.coverage:
        return coverage(args.coverage_output)

    chosen = {}
    for name in args.module:
        key = Path(name).stem if name.endswith(".py") else name.rpartition(".")[2]
        key = key if key in modules else f"_{key}"
        if key not in modules:
            parser.error(f"unknown module {name!r}: choose among {', '.join(modules)}")
        chosen[key] = modules[key]
    for name in args.only:
        if "__mutmut_" not in name and not name.endswith("*"):
            parser.error(f"--only {name!r}: expected a mutant's name or a glob of them (service.engine._MODULE.NAME__mutmut_*)")
        key = name.split(".")[2] if name.startswith("service.engine.") and name.count(".") >= 3 else None
        if key not in modules:
            parser.error(f"--only {name!r}: not a mutant of {', '.join(modules)}")
        chosen.setdefault(key, modules[key])
    selected = chosen or modules

    run: dict = {"modules": sorted(selected), "complete": True, **source_snapshot()}
    if not args.summary_only:
        lock = exclusive_lock()  # noqa: F841 - released when the process ends
        if not args.keep and MUTANTS.exists():
            shutil.rmtree(MUTANTS)
        elif args.keep:
            kept = MUTANTS / "kit-fingerprint.txt"
            if kept.exists() and kept.read_text().strip() != kit_fingerprint():
                print("--keep: the kit (features/), this script or pyproject.toml changed since the results in mutants/")
                print("were measured; run without --keep to measure afresh")
                return 1
            forget_interrupted(selected)
        MUTANTS.mkdir(exist_ok=True)
        (MUTANTS / "kit-fingerprint.txt").write_text(kit_fingerprint() + "\n")
        globs = list(args.only) if args.only else [] if not chosen else [dotted(path) + ".*" for path in selected.values()]
        started = time.monotonic()
        code, out_of_time = run_mutmut(globs, max_minutes=args.max_minutes, jobs=args.jobs, every=args.progress_every)
        wall = time.monotonic() - started
        print(f"\nmutmut ran for {_format_duration(wall)} (wall time)")
        run.update(wall_seconds=round(wall), complete=not out_of_time and code == 0, mutmut_exit_code=code)
        if code != 0 and not out_of_time:
            print(f"mutmut failed (exit code {code}); see its output above")
            if not any((MUTANTS / (p + ".meta")).exists() for p in selected.values()):
                return 1
    elif not MUTANTS.exists():
        print("no mutants/ folder: run python -m scripts.mutate first")
        return 1
    summary = report(selected, args, run)
    if not run["complete"]:
        not_run = summary["total"]["not_run"]
        print(f"\nThe run is incomplete ({not_run} mutants not tested): raise --max-minutes, or go on with --keep")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
