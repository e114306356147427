"""Run the adversary's broken engines against the conformance kit: ``make adversary``.

    python -m tests.adversary [NAME ...] [--jobs N] [--max-minutes M] [--timeout S] [--json FILE] [--list]

The kit is first run without a mutant (it must pass, or no verdict means anything), then each
mutant in a process of its own (``worker.py``): its liveness check, then the kit, ``--jobs`` at a
time. A line is printed as each one finishes, with the count and an estimate of the time left; at
the end, a summary: live, caught, survived, not live, and each survivor with the rule it breaks.

Exit status: 0 every mutant live and caught; 1 one survived, is not live, or its run failed;
2 usage, the kit failing without a mutant, or the run stopped by ``--max-minutes`` (what was run
is reported).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = "-"


@dataclass
class Job:
    name: str
    out: Path
    log: Path
    process: subprocess.Popen
    started: float = field(default_factory=time.monotonic)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tests.adversary", description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("names", nargs="*", metavar="NAME", help="the mutants to run (default: all)")
    parser.add_argument("--jobs", "-j", type=int, default=2, help="mutants run at a time (default 2)")
    parser.add_argument("--max-minutes", type=float, default=45, help="start no mutant after this (default 45)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds one mutant may take (default 600)")
    parser.add_argument("--json", type=Path, default=ROOT / "build" / "adversary.json", help="the result file")
    parser.add_argument("--list", action="store_true", help="list the mutants, their rules and how they break; run nothing")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    return args


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=30)
    except OSError:
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def kit_version() -> dict:
    """Which kit and engine judged: the commit, and whether ``service/`` or ``features/`` differ from it."""
    changes = _git("status", "--porcelain", "--", "service", "features")
    return {"commit": _git("rev-parse", "HEAD"), "dirty": None if changes is None else bool(changes), "root": str(ROOT)}


def start(name: str, work: Path) -> Job:
    safe = "reference" if name == REFERENCE else name
    out, log = work / f"{safe}.json", work / f"{safe}.log"
    out.unlink(missing_ok=True)
    with log.open("w") as handle:
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.adversary.worker", name, str(out)],
            cwd=ROOT,
            stdout=handle,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
            start_new_session=True,  # its own process group, so a timeout ends it whole
        )
    return Job(name, out, log, process)


def collect(job: Job, timed_out: bool) -> dict:
    seconds = round(time.monotonic() - job.started, 1)
    if timed_out:
        return {"mutant": job.name, "verdict": "error", "error": f"timed out after {seconds} s", "seconds": seconds}
    try:
        result = json.loads(job.out.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        tail = job.log.read_text(encoding="utf-8", errors="replace")[-1500:] if job.log.exists() else ""
        return {"mutant": job.name, "verdict": "error", "error": f"worker exit {job.process.returncode}: {tail}", "seconds": seconds}
    kit = result["kit"]
    if kit["exit"] == 1 and kit["failed"]:
        verdict = "caught"
    elif kit["exit"] == 0:
        verdict = "survived"
    else:
        verdict = "error"
        result["error"] = f"the kit's exit status {kit['exit']}: {kit['collection_errors'][:1]}"
    result["verdict"] = verdict
    result["only_self_refused"] = verdict == "caught" and all(f["self_refused"] for f in kit["failures"])
    result["wall_seconds"] = seconds
    return result


def _minutes(seconds: float) -> str:
    return f"{int(seconds // 60)}:{int(seconds % 60):02d}"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from .mutants import MUTANTS

    if args.list:
        for mutant in MUTANTS.values():
            print(f"{mutant.name}\n    rule: «{mutant.rule}»\n    how:  {mutant.how}")
        return 0
    unknown = [name for name in args.names if name not in MUTANTS]
    if unknown:
        print(f"unknown mutant(s): {', '.join(unknown)} (--list lists them)", file=sys.stderr)
        return 2
    names = list(dict.fromkeys(args.names)) or list(MUTANTS)
    work = args.json.parent / "adversary"
    work.mkdir(parents=True, exist_ok=True)
    version = kit_version()
    print(
        f"adversary: {len(names)} broken engines against the kit at {version['commit'] or '?'}"
        f"{' (service/ or features/ changed since)' if version['dirty'] else ''}, {args.jobs} at a time; "
        f"logs in {work}",
        flush=True,
    )

    began = time.monotonic()
    queue = [REFERENCE, *names]
    running: list[Job] = []
    results: dict[str, dict] = {}
    reference: dict | None = None
    stopped = None
    done_seconds: list[float] = []
    try:
        while queue or running:
            while queue and len(running) < args.jobs and stopped is None:
                if time.monotonic() - began > args.max_minutes * 60:
                    stopped = f"stopped after {args.max_minutes:g} minutes (--max-minutes): {len(queue)} not run"
                    break
                running.append(start(queue.pop(0), work))
            if stopped is not None and not running:
                break
            time.sleep(0.2)
            for job in list(running):
                timed_out = job.process.poll() is None and time.monotonic() - job.started > args.timeout
                if timed_out:
                    os.killpg(job.process.pid, 9)
                    job.process.wait()
                elif job.process.poll() is None:
                    continue
                running.remove(job)
                result = collect(job, timed_out)
                if job.name == REFERENCE:
                    reference = result
                    if result["verdict"] != "survived":
                        print(f"the kit fails without a mutant ({result.get('error') or _failures(result)}): "
                              f"no verdict would mean anything; see {job.log}", file=sys.stderr, flush=True)  # fmt: skip
                        for other in running:
                            os.killpg(other.process.pid, 9)
                        return 2
                    print(f"reference: the kit passes without a mutant ({result['kit']['passed']} scenarios, "
                          f"{result['wall_seconds']} s)", flush=True)  # fmt: skip
                    continue
                results[job.name] = result
                done_seconds.append(result.get("wall_seconds", result["seconds"]))
                left = len(queue) + len(running)
                eta = sum(done_seconds) / len(done_seconds) * left / args.jobs
                flag = _flag(result)
                print(
                    f"[{len(results):3d}/{len(names)}] {flag:<10} {job.name:<42} {result.get('wall_seconds', result['seconds']):5.1f} s"
                    f"   elapsed {_minutes(time.monotonic() - began)}, ~{_minutes(eta)} left",
                    flush=True,
                )
    except KeyboardInterrupt:
        for job in running:
            os.killpg(job.process.pid, 9)
        stopped = "interrupted"

    return report(names, results, reference, version, began, stopped, args)


def _failures(result: dict) -> str:
    kit = result.get("kit") or {}
    return f"{kit.get('failed', '?')} scenarios failed"


def _flag(result: dict) -> str:
    if result["verdict"] == "error":
        return "ERROR"
    if result.get("live") is False:
        return "NOT-LIVE"
    if result["verdict"] == "survived":
        return "SURVIVED"
    return "caught*" if result["only_self_refused"] else "caught"


def report(names, results, reference, version, began, stopped, args) -> int:
    from .mutants import MUTANTS

    seconds = round(time.monotonic() - began, 1)
    ran = [results[name] for name in names if name in results]
    live = [r for r in ran if r.get("live")]
    not_live = [r for r in ran if r.get("live") is False]
    caught = [r for r in ran if r["verdict"] == "caught"]
    survived = [r for r in ran if r["verdict"] == "survived"]
    errors = [r for r in ran if r["verdict"] == "error"]
    self_refused = [r for r in caught if r["only_self_refused"]]
    summary = {
        "mutants": len(names),
        "run": len(ran),
        "live": len(live),
        "not_live": len(not_live),
        "caught": len(caught),
        "caught_only_by_refusing_own_state": len(self_refused),
        "survived": len(survived),
        "errors": len(errors),
        "seconds": seconds,
        "jobs": args.jobs,
        "stopped": stopped,
    }
    document = {"kit": version, "reference": reference, "summary": summary, "mutants": ran}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(document, ensure_ascii=False, indent=1, default=str), encoding="utf-8")

    print()
    print(
        f"{len(names)} mutants, {len(ran)} run in {_minutes(seconds)}: {len(live)} live, {len(caught)} caught, "
        f"{len(survived)} survived, {len(not_live)} not live, {len(errors)} errors"
    )
    if self_refused:
        print(f"caught* ({len(self_refused)}): caught only in scenarios where the engine refused a state it had returned "
              "(a break on the tap path that its own log replays otherwise):")  # fmt: skip
        for r in self_refused:
            print(f"  {r['mutant']}")
    for title, group in (("survived", survived), ("not live (a defect of the mutant)", not_live), ("errors", errors)):
        if group:
            print(f"{title}:")
            for r in group:
                mutant = MUTANTS[r["mutant"]]
                print(f"  {mutant.name}\n    rule: «{mutant.rule}»\n    how:  {mutant.how}")
                if r.get("error"):
                    print(f"    error: {r['error'][:300]}")
    if stopped:
        print(stopped)
    print(f"results: {args.json}")
    if stopped:
        return 2
    return 0 if len(caught) == len(names) and not not_live else 1
