"""The ``pyramide`` command."""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from service import __version__
from service.cli import SOLVE_KEYS, STATS_KEYS, main
from service.engine import WON, GameState, Move, play
from tests import reference_one_pass
from tests.server import wait_for_line

SOLVER_DOC = Path(__file__).resolve().parents[2] / "docs" / "solver.md"


def shown_in_docs(command: str) -> str:
    """What ``docs/solver.md`` shows ``.venv/bin/<command>`` printing."""
    doc = SOLVER_DOC.read_text(encoding="utf-8")
    return doc.split(f"$ .venv/bin/{command}\n", 1)[1].split("```", 1)[0]


def test_solve_a_lost_deal_prints_what_docs_solver_md_shows(capsys):
    assert main(["solve", "PYR1-N-AAAAAHW"]) == 0
    assert capsys.readouterr().out == shown_in_docs("pyramide solve PYR1-N-AAAAAHW")


def test_solve_a_won_deal_prints_its_line(capsys):
    assert main(["solve", "pyr1-n-aaaaaac"]) == 0
    out = capsys.readouterr().out
    assert "PYR1-N-AAAAAAC: winnable" in out and "a winning line of" in out


def test_solve_the_shortest_line_prints_what_docs_solver_md_shows(capsys):
    assert main(["solve", "PYR1-0-AAAAACF", "--shortest"]) == 0
    assert capsys.readouterr().out == shown_in_docs("pyramide solve PYR1-0-AAAAACF --shortest")


def test_a_bad_code_is_an_error(capsys):
    assert main(["solve", "PYR1-N-AAA"]) == 2
    assert "7 for a seed, 48 for a full layout" in capsys.readouterr().err


def test_a_budget_too_small_says_unknown(capsys):
    assert main(["solve", "PYR1-N-AAAAAAC", "--budget", "3"]) == 3
    assert "unknown" in capsys.readouterr().out


def test_stats_over_reproducible_deals(capsys):
    from service.cli import wilson_interval

    assert main(["stats", "--rules", "N", "--deals", "40", "--workers", "2"]) == 0
    out = capsys.readouterr().out
    assert "rules N: 40 deals (seeds 0…39)" in out and "unknown 0" in out and "95% CI" in out
    assert main(["stats", "--rules", "N", "--deals", "40", "--workers", "1"]) == 0
    assert capsys.readouterr().out == out  # the same deals, the same verdicts, on any number of cores
    low, high = wilson_interval(50, 100)
    assert round(low, 4) == 0.4038 and round(high, 4) == 0.5962


def test_stats_refuses_unknown_rules(capsys):
    assert main(["stats", "--rules", "XYZ"]) == 2


def test_the_check_against_the_reference_solver_prints_what_docs_solver_md_shows(capsys):
    reference_one_pass.main(["DT0", "--deals", "40"])
    assert capsys.readouterr().out == shown_in_docs("python -m tests.reference_one_pass DT0 --deals 40")


# -- a command that behaves like a tool: version, usage errors, exit statuses, JSON, Ctrl-C ----------

ROOT = SOLVER_DOC.parent.parent


def command(*args: str, **options) -> subprocess.CompletedProcess:
    """``pyramide ARGS`` run as a process, as the entry point runs it (``sys.exit(main())``)."""
    options = {"capture_output": True, "text": True, "timeout": 60, **options}
    return subprocess.run([sys.executable, "-m", "service.cli", *args], cwd=ROOT, **options)


def documented_keys(keys: str) -> list[str]:
    """The JSON keys a help text lists (``winnable, unwinnable, unknown`` on one line counts three)."""
    names = []
    for line in keys.splitlines()[1:]:
        if line.startswith("  ") and not line.startswith("    "):
            names += re.findall(r"[a-z_0-9]+(?=,|\s|$)", line.split("  ")[1])
    return names


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"pyramide {__version__}\n"


def test_help_lists_the_exit_statuses(capsys):
    for argv in (["--help"], ["solve", "--help"], ["stats", "--help"]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert "exit status:" in out
        for status in ("0", "1", "2", "3", "130"):
            assert re.search(rf"^  {status} +\S", out, re.MULTILINE), (argv, status)
    for argv, keys in ((["solve", "--help"], SOLVE_KEYS), (["stats", "--help"], STATS_KEYS)):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert all(re.search(rf"^  (\S+, )*{key}\b", out, re.MULTILINE) for key in documented_keys(keys))


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["stats", "--deals", "-3"], "argument --deals: must be at least 1: -3"),
        (["stats", "--deals", "0"], "argument --deals: must be at least 1: 0"),
        (["stats", "--deals", "many"], "argument --deals: not a whole number"),
        (["stats", "--budget", "0"], "argument --budget: must be at least 1"),
        (["stats", "--budget", "-10"], "argument --budget: must be at least 1"),
        (["stats", "--workers", "0"], "argument --workers: must be at least 1"),
        (["stats", "--start", "-1"], "argument --start: must be at least 0"),
        (["stats", "--start", str(26**7)], "argument --start: seeds go from 0 to"),
        (["stats", "--start", str(26**7 - 5), "--deals", "10"], "past the last one"),
        (["stats", "--rules", "XYZ"], "argument --rules: Unknown rules “XYZ”"),
        (["stats", "--rules", "DT99999"], "argument --rules:"),
        (["solve", "PYR1-N-AAA"], "argument code: The deal part has 3 letters"),
        (["solve", "PY1-N-AAAAAAJ"], "argument code: PY1-N-AAAAAAJ is a Pyramide app code"),
        (["solve", "PYR1-N-AAAAAHW", "--budget", "0"], "argument --budget: must be at least 1"),
        (["solve"], "the following arguments are required: code"),
        ([], "the following arguments are required"),
    ],
)
def test_argument_errors_are_usage_errors(argv, says, capsys):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and says in err and err.startswith("usage: pyramide")


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["solve", "PYR1-DKT-AAAAAAA"], "argument code: The solver does not search games under these rules (DKT)"),
        (["stats", "--rules", "at2"], "argument --rules: The solver does not search games under these rules (AT2)"),
    ],
)
def test_rules_no_search_models_are_usage_errors(argv, says, capsys, monkeypatch):
    """Every preset is searched (issue 22); a shape no search models (as if the general search did
    not read these rules) is a usage error, as the API's ``solver_unsupported``."""
    from service.engine._solver import general

    monkeypatch.setattr(general, "models", lambda rules: False)
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and says in err and err.startswith("usage: pyramide")


@pytest.mark.parametrize("code", ["PYR1-DKT-AAAAAAC", "PYR1-AT2-AAAAAAC", "PYR1-P-AAAAAAA", "PYR1-E-AAAAAAB"])
def test_every_preset_is_solved_on_the_command_line(code, capsys):
    assert main(["solve", code, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["code"] == code and answer["result"] == "winnable" and answer["line"]


def test_the_process_exits_with_the_status(tmp_path):
    assert command("stats", "--deals", "0").returncode == 2
    assert command("solve", "PYR1-N-AAAAAAC", "--budget", "3").returncode == 3
    done = command("--version")
    assert (done.returncode, done.stdout) == (0, f"pyramide {__version__}\n")


def test_ctrl_c_during_solve_is_status_130_without_a_traceback(monkeypatch, capsys):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("service.cli.solve", interrupted)
    assert main(["solve", "PYR1-N-AAAAAHW"]) == 130
    assert capsys.readouterr() == ("", "pyramide solve: interrupted\n")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_output_that_cannot_be_written_is_a_failure():
    with open("/dev/full", "w") as full:
        done = command("solve", "PYR1-N-AAAAAHW", stdout=full, capture_output=False, stderr=subprocess.PIPE)
    assert done.returncode == 1
    assert done.stderr == "pyramide solve: error: [Errno 28] No space left on device\n"


def test_solve_json_is_one_object_with_the_documented_keys(capsys):
    assert main(["solve", "PYR1-N-AAAAAAC", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert list(answer) == documented_keys(SOLVE_KEYS)
    assert answer["code"] == "PYR1-N-AAAAAAC" and answer["result"] == "winnable"
    state = GameState.new(answer["code"])
    for move in answer["line"]:  # the moves as the API writes them: they replay to a won game
        state = play(state, Move.from_json(move)).state
    assert state.status == WON
    assert main(["solve", "PYR1-N-AAAAAAC", "--json", "--budget", "3"]) == 3
    assert json.loads(capsys.readouterr().out)["result"] == "unknown"


def test_solve_json_prints_what_docs_solver_md_shows(capsys):
    assert main(["solve", "PYR1-N-AAAAAHW", "--json"]) == 0
    assert capsys.readouterr().out == shown_in_docs("pyramide solve PYR1-N-AAAAAHW --json")


def test_stats_json_agrees_with_the_text(capsys):
    assert main(["stats", "--rules", "ct", "--deals", "24", "--start", "100", "--workers", "2", "--json"]) == 0
    out, err = capsys.readouterr()
    answer = json.loads(out)
    assert list(answer) == documented_keys(STATS_KEYS)
    assert answer["rules"] == "CT" and answer["start"] == 100 and answer["deals"] == answer["done"] == 24
    assert answer["partial"] is False and answer["budget"] == 2_000_000
    assert answer["winnable"] + answer["unwinnable"] + answer["unknown"] == 24
    assert answer["decided"] == answer["winnable"] + answer["unwinnable"]
    assert answer["win_rate"] == answer["winnable"] / answer["decided"]
    assert main(["stats", "--rules", "CT", "--deals", "24", "--start", "100", "--workers", "1"]) == 0
    text = capsys.readouterr().out
    assert f"winnable {answer['winnable']}, unwinnable {answer['unwinnable']}, unknown {answer['unknown']}" in text
    low, high = answer["ci95"]
    assert f"95% CI {100 * low:.2f}–{100 * high:.2f}%" in text


def test_stats_prints_what_docs_solver_md_shows(capsys):
    for shown in ("pyramide stats --rules N --deals 40", "pyramide stats --rules N --deals 40 --json"):
        assert main(shown.split()[1:]) == 0
        assert capsys.readouterr().out == shown_in_docs(shown)


def test_stats_progress_off_a_terminal_is_a_line_per_tenth_on_stderr(capsys):
    assert main(["stats", "--deals", "40", "--workers", "2", "--json"]) == 0
    out, err = capsys.readouterr()
    json.loads(out)  # nothing but the result on stdout
    lines = err.splitlines()
    assert len(lines) == 10 and "\r" not in err
    assert lines[0].startswith("rules N:  10%|") and "4/40" in lines[0] and "40/40" in lines[-1]


@pytest.mark.skipif(os.name != "posix", reason="Ctrl-C is simulated with a pseudo-terminal and SIGINT")
def test_ctrl_c_during_stats_stops_cleanly_and_prints_the_partial_result(capsys):
    import pty

    # stderr on a pseudo-terminal, as in a shell, so the progress bar is on; openpty's reports a
    # size of 0 × 0, as some CI terminals do, and the bar must show all the same
    main_end, terminal = pty.openpty()
    deals = 1_000_000  # hours of work: the run can only end by the interrupt
    process = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "stats", "--deals", str(deals), "--workers", "2"],
        cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=terminal,
        start_new_session=True,  # its own process group, which Ctrl-C signals as a whole
    )  # fmt: skip
    os.close(terminal)
    shown = bytearray()

    def read_the_terminal() -> None:
        try:
            while chunk := os.read(main_end, 4096):
                shown.extend(chunk)
        except OSError:  # EIO: every process holding the terminal has ended
            pass

    reader = threading.Thread(target=read_the_terminal, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 60
        while not re.search(rb"\| *[1-9]\d*/%d " % deals, bytes(shown)):  # some deals done
            assert process.poll() is None and time.monotonic() < deadline, bytes(shown)
            time.sleep(0.02)
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C does: the main process and its workers
        out, _ = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    reader.join(timeout=10)
    os.close(main_end)
    err = bytes(shown).decode()
    assert process.returncode == 130, (out, err)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    # on the terminal: the bar, then one line saying where it stopped; nothing from the workers
    *bar, said = [line for line in re.split(r"[\r\n]+", err) if line.strip()]
    assert all(line.startswith("rules N: ") for line in bar) and said.startswith("pyramide stats: interrupted after "), err
    first, counts, rate = out.decode().splitlines()
    partial = rf"rules N: (\d+) deals \(seeds 0…\d+\), interrupted: a partial result of the {deals} deals asked"
    done = int(re.fullmatch(partial, first)[1])
    assert 0 < done < deals and f"(seeds 0…{done - 1})" in first
    assert f"interrupted after {done} of {deals} deals (--start {done} goes on from there)" in err
    # the counts are those of the first deals, exactly as a run over just those deals counts them
    assert main(["stats", "--deals", str(done), "--workers", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [counts, rate]
    # the workers are gone with the group: the cluster's processes end once the run has ended
    # (one may still be on its way out when the run's exit status is read: waited for, bounded)
    deadline = time.monotonic() + 30
    while _group_alive(process.pid):
        assert time.monotonic() < deadline, f"processes of the run outlived it: {_group_members(process.pid)}"
        time.sleep(0.05)


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


def _group_members(group: int) -> list[str]:
    """The command lines of the processes still in process group ``group`` (Linux's /proc)."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[2]) == group:
                members.append((stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode()[:200])
        except (OSError, ValueError, IndexError):
            pass
    return members


# -- pyramide serve: --host/--port, and a bad environment said plainly (issue 21) --------------------


def _pyramide(*args: str, env: dict[str, str], timeout: float = 20) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "service.cli", *args], env={**os.environ, **env}, capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("env, said", [
    ({"PORT": "abc"}, "PORT='abc': not a whole number: 'abc'"),
    ({"PORT": "70000"}, "PORT='70000': a port goes from 0 to 65535: 70000"),
    ({"WEB_CONCURRENCY": "0"}, "WEB_CONCURRENCY='0': must be at least 1: 0"),
])  # fmt: skip
def test_serve_with_a_bad_environment_is_a_usage_error_not_a_traceback(env, said):
    result = _pyramide("serve", env=env)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip() == f"pyramide serve: error: {said}"


def test_serve_refuses_a_bad_port_option(capsys):
    assert main(["serve", "--port", "abc"]) == 2
    assert "argument --port: not a whole number: 'abc'" in capsys.readouterr().err


def test_serve_listens_where_host_and_port_say():
    import socket
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "PORT": "abc", "WEB_CONCURRENCY": "1", "PYRAMIDE_ACCESS_LOG": "off"}  # the options win over PORT
    server = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--host", "127.0.0.1", "--port", str(port)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
    try:
        listening, said = wait_for_line(server, b"listening on")
        assert listening, said
        base = f"http://127.0.0.1:{port}"
        assert f"web client: {base}/  —  docs explorer: {base}/docs" in said  # (the banner names both)
        with urllib.request.urlopen(f"{base}/healthz", timeout=30) as reply:
            assert json.load(reply)["status"] == "ok"
        # a second server on the same port says so, once, and what to do; nothing of nginx's
        second = subprocess.run([sys.executable, "-m", "service.cli", "serve", "--port", str(port)], env=env,
                                capture_output=True, text=True, timeout=60)  # fmt: skip
        assert second.returncode == 1 and second.stdout == "", second
        assert second.stderr == (
            f"pyramide serve: 127.0.0.1:{port} is in use (another server is listening there): stop it, "
            f"or serve on another port: PORT={port + 1} make serve (pyramide serve --port {port + 1})\n"
        )
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:  # nothing of it left behind
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


# -- A first user's rough edges (issue 39) ---------------------------------------------------------------


def test_a_reader_that_stops_early_is_no_error_to_report():
    """`pyramide solve … | head -1`: the reader closed the pipe with all it wanted; no "Broken pipe".
    (The pipe is closed before the command writes: its write fails, as when head has left.)"""
    reader, writer = os.pipe()
    os.close(reader)
    process = subprocess.Popen([sys.executable, "-m", "service.cli", "solve", "PYR1-N-AAAAAHW"], stdout=writer, stderr=subprocess.PIPE)
    os.close(writer)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 1 and err == b"", err


def test_every_usage_error_names_its_command():
    """argparse's own errors and ours read alike: ``pyramide solve: error: …``."""
    for argv, prefix in (
        (["solve", "PYR1-N-AAAAAHW", "--budget", "0"], "pyramide solve: error: argument --budget"),
        (["solve", "NOT-A-CODE"], "pyramide solve: error: argument code"),
        (["stats", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "pyramide stats: error: argument --workers"),
    ):
        done = command(*argv)
        assert done.returncode == 2 and done.stderr.splitlines()[-1].startswith(prefix), (argv, done.stderr)


def test_serve_help_lists_its_own_exit_statuses():
    said = command("serve", "--help").stdout
    assert "the port is in use" in said and "budget ran out" not in said and "stats prints" not in said


def test_a_missing_dask_says_how_to_install_it_where_it_runs(monkeypatch):
    """In a clone's .venv (no pip of its own) the way is `make install`; elsewhere pip
    (tests/solver/test_stats_dask.py checks the message that says it)."""
    from service import cli

    root = Path(cli.__file__).resolve().parent.parent
    monkeypatch.setattr(cli.sys, "prefix", str(root / ".venv"))
    assert cli.install_hint("dask") == f"`make install` in {root} installs it"
    monkeypatch.setattr(cli.sys, "prefix", "/usr/local")
    assert cli.install_hint("dask") == 'pip install "pyramide[dask]" installs it'


def test_a_solution_has_one_json_form_for_the_api_and_the_cli(capsys):
    """``Solution.to_json``: the API's ``POST /v1/solve`` answer is the CLI's ``--json`` less the code."""
    from service.api import create_app

    state = GameState.new("PYR1-N-AAAAAGU")
    api = create_app().test_client().post("/v1/solve", json={"state": state.to_json(), "budget": 100_000}).json
    assert main(["solve", "PYR1-N-AAAAAGU", "--budget", "100000", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert cli.pop("code") == "PYR1-N-AAAAAGU" and cli == api and api["result"] == "winnable"
