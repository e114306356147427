"""The kit checks the implementation's health before any scenario: a dead URL, an HTTP server that
is not Pyramide's API, a base URL ending in /v1, an adapter that exits or prints a stray line on
its standard output each end the run with exit status 2, in one paragraph that shows what came
back. None of them is reported as a rule failure. That each does so within 5 seconds is a time, so
the benchmark measures it (``python -m tests.bench kit``); here the kit must stop on its own
deadline, which the paragraph names, and never on the tests' bound."""

from __future__ import annotations

import http.server
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from wsgiref.simple_server import WSGIRequestHandler, make_server

import pytest

from features.driver import SubprocessDriver
from features.health import adapter_problem, observation_problems

ROOT = Path(__file__).resolve().parents[2]
ADAPTER = f"{sys.executable} -m features.adapters.pyramide_engine"


def conformance(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "features.cli", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


def assert_one_paragraph_exit_2(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 2, (result.returncode, result.stdout[-1500:], result.stderr[-1500:])
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.endswith("\n"), result.stderr
    assert "no scenario was run" in result.stderr
    return result.stderr


@pytest.fixture
def http_server():
    """A loopback HTTP server answering what ``answer`` (a dict) says: status, content type, body."""
    answer = {"status": 404, "type": "text/html", "body": "<html><body>Not Found</body></html>"}

    class Handler(http.server.BaseHTTPRequestHandler):
        def _reply(self):
            body = answer["body"].encode()
            self.send_response(answer["status"])
            self.send_header("Content-Type", answer["type"])
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = _reply  # noqa: N815 - http.server's names

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", answer
    server.shutdown()


@pytest.fixture
def pyramide_server():
    """Pyramide's own app over real HTTP (wsgiref, loopback)."""
    from service.api import create_app

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args):
            pass

    server = make_server("127.0.0.1", 0, create_app(), handler_class=Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def test_a_dead_url():
    result = conformance("--base-url", "http://127.0.0.1:9")
    paragraph = assert_one_paragraph_exit_2(result)
    assert "GET http://127.0.0.1:9/v1/rules got no answer" in paragraph and "refused" in paragraph


def test_an_http_server_that_is_not_pyramide_shows_its_status_and_body(http_server):
    url, _ = http_server
    result = conformance("--base-url", url)
    paragraph = assert_one_paragraph_exit_2(result)
    assert f"GET {url}/v1/rules (hello) answered HTTP 404 (text/html)" in paragraph
    assert "<html><body>Not Found</body></html>" in paragraph


def test_a_server_that_answers_200_but_not_the_protocol(http_server):
    url, answer = http_server
    answer.update(status=200, type="application/json", body='{"hello": "world"}')
    result = conformance("--base-url", url)
    paragraph = assert_one_paragraph_exit_2(result)
    assert 'answered HTTP 200 (application/json)' in paragraph and '{"hello": "world"}' in paragraph


def test_a_base_url_ending_in_v1_says_what_to_write(pyramide_server):
    result = conformance("--base-url", pyramide_server + "/v1")
    paragraph = assert_one_paragraph_exit_2(result)
    assert "answered HTTP 404" in paragraph
    assert f"must not end in /v1 (the kit adds /v1/… itself): try --base-url {pyramide_server}." in paragraph


def test_a_healthy_server_passes_the_health_check(pyramide_server):
    from features.health import http_problem

    assert http_problem(pyramide_server) is None


def adapter(tmp_path: Path, body: str) -> str:
    script = tmp_path / "adapter.py"
    script.write_text(textwrap.dedent(body), encoding="utf-8")
    return f"{sys.executable} {script}"


#: The broken adapters of issue 20's "must show", which ``python -m tests.bench kit`` also times.
BROKEN_ADAPTERS = {
    "exits": """
        import sys
        print("Traceback (most recent call last): engine.so not found", file=sys.stderr)
        sys.exit(3)
    """,
    "prints a stray line": """
        import json, runpy, sys
        print("Loading engine v2.1...", flush=True)
        runpy.run_module("features.adapters.pyramide_engine", run_name="__main__")
    """,
    "never answers": """
        import time
        time.sleep(60)
    """,
}


def test_an_adapter_that_exits_shows_its_status_and_the_end_of_its_stderr(tmp_path):
    command = adapter(tmp_path, BROKEN_ADAPTERS["exits"])
    result = conformance("--driver-command", command)
    paragraph = assert_one_paragraph_exit_2(result)
    assert "It exited with status 3 when asked 'hello'" in paragraph
    assert "Its standard error ended with: Traceback (most recent call last): engine.so not found" in paragraph


def test_an_adapter_that_prints_a_stray_line_shows_it_verbatim(tmp_path):
    command = adapter(tmp_path, BROKEN_ADAPTERS["prints a stray line"])
    result = conformance("--driver-command", command)
    paragraph = assert_one_paragraph_exit_2(result)
    assert "Asked 'hello', it wrote a line that is not a JSON object: 'Loading engine v2.1...'" in paragraph


def test_an_adapter_that_never_answers_is_stopped_in_time(tmp_path):
    command = adapter(tmp_path, BROKEN_ADAPTERS["never answers"])
    result = conformance("--driver-command", command)
    paragraph = assert_one_paragraph_exit_2(result)
    # stopped by the kit's own deadline for hello (features/driver.py), not by this test's bound
    assert 'It gave no answer to {"cmd": "hello"} within 3.5 s.' in paragraph


def test_an_adapter_busy_starting_up_past_the_deadline_is_waited_for(tmp_path):
    """hello's deadline (3.5 s; 1 s here) counts while the adapter does nothing: one still using
    the CPU to start (here 2.5 s of it, as on a loaded machine) is waited for; the one above,
    asleep, was not."""
    command = adapter(tmp_path, f"""
        import runpy, sys, time
        sys.path.insert(0, {str(ROOT)!r})
        started = time.process_time()
        while time.process_time() - started < 2.5:
            pass
        runpy.run_module("features.adapters.pyramide_engine", run_name="__main__")
    """)
    driver = SubprocessDriver(command, hello_timeout=1.0)
    try:
        assert driver.hello_error is None and adapter_problem(driver) is None
    finally:
        driver.close()


def test_an_adapter_whose_deal_is_not_a_game_is_told_what_is_wrong(tmp_path):
    command = adapter(tmp_path, """
        import json, sys
        for line in sys.stdin:
            request = json.loads(line)
            if request["cmd"] == "hello":
                print(json.dumps({"name": "x", "capabilities": []}), flush=True)
            else:
                print(json.dumps({"ok": True, "state": {"pyramid": [[1]], "stock": [], "waste": [], "score": "0", "moves": 0, "status": "on"}}), flush=True)
    """)
    result = conformance("--driver-command", command)
    paragraph = assert_one_paragraph_exit_2(result)
    assert "does not look like the protocol's" in paragraph
    assert '"score" is not a whole number' in paragraph and '"status" is' in paragraph


def test_the_reference_adapter_is_healthy():
    driver = SubprocessDriver(ADAPTER)
    try:
        assert adapter_problem(driver) is None
    finally:
        driver.close()


def test_an_implementation_without_scoring_may_leave_the_score_out():
    state = {"pyramid": [["JD"]], "stock": [], "waste": [], "score": None, "moves": 0, "status": "playing"}
    assert observation_problems(state, frozenset({"scoring"})) == []
    assert observation_problems(state) == ['"score" is not a whole number but \'null\' (or declare \'scoring\' missing)']


def test_an_adapter_that_dies_mid_run_stops_the_run_with_status_2(tmp_path):
    """Healthy at first, it exits after 60 requests: the run stops there (exit 2, one paragraph),
    instead of reporting every scenario after it as a rule failure."""
    command = adapter(tmp_path, """
        import json, sys
        from features.adapters.pyramide_engine import Adapter

        adapter = Adapter()
        for number, line in enumerate(sys.stdin):
            if number == 60:
                print("engine crashed: segmentation fault", file=sys.stderr)
                sys.exit(139)
            print(json.dumps(adapter.answer(json.loads(line))), flush=True)
    """)
    result = subprocess.run(
        [sys.executable, "-m", "features.cli", "--driver-command", command], cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**__import__("os").environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert result.returncode == 2, result.stdout[-2000:]
    assert "the implementation stopped answering, so the run stopped" in result.stderr
    assert "exited with status 139" in result.stderr and "engine crashed: segmentation fault" in result.stderr
    failed = int(result.stdout.rsplit(" failed", 1)[0].rsplit(" ", 1)[-1])
    assert failed == 1, result.stdout[-1500:]


def test_check_adapter_passes_the_reference_adapter_and_names_each_wrong_answer(tmp_path):
    good = subprocess.run(
        [sys.executable, "-m", "features.cli", "--driver-command", ADAPTER, "--check-adapter"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert good.returncode == 0 and good.stdout.rstrip().endswith("every answer is right"), good.stdout
    # an adapter writing the stock bottom first, and answering a refusal with the message as the code
    command = adapter(tmp_path, """
        import json, sys
        from features.adapters.pyramide_engine import Adapter

        adapter = Adapter()
        for line in sys.stdin:
            request = json.loads(line)
            answer = adapter.answer(request)
            if answer.get("state"):
                answer["state"]["stock"] = answer["state"]["stock"][::-1]
            if answer.get("ok") is False:
                answer["refused"] = answer["message"]
            if request.get("move") == "KD":
                answer["state"]["score"] = str(answer["state"]["score"])  # (a string: not the protocol's)
            print(json.dumps(answer), flush=True)
    """)
    bad = subprocess.run(
        [sys.executable, "-m", "features.cli", "--driver-command", command, "--check-adapter"], cwd=ROOT, capture_output=True, text=True,
        timeout=60, env={**__import__("os").environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "WRONG  {\"cmd\": \"new_game\", \"layout\": <the documents deal>}" in bad.stdout
    assert "\"stock\" should be the layout's" in bad.stdout and "(stock: top first; waste: top last)" in bad.stdout
    assert "\"refused\" should be the machine code \"sum_not_13\"" in bad.stdout
    assert "\"score\" is not a whole number but '10'" in bad.stdout  # (its shape; its value is a rule's)


def test_a_hello_whose_lists_hold_other_than_names_is_a_broken_adapter(tmp_path):
    command = adapter(tmp_path, """
        import json, sys
        for line in sys.stdin:
            print(json.dumps({"name": "x", "capabilities": [], "without": [["scoring"]]}), flush=True)
    """)
    result = conformance("--driver-command", command)
    paragraph = assert_one_paragraph_exit_2(result)
    assert "not a list of strings" in paragraph and "Traceback" not in result.stderr


def test_check_adapter_names_an_answer_of_another_shape_without_a_traceback(tmp_path):
    command = adapter(tmp_path, """
        import json, sys
        from features.adapters.pyramide_engine import Adapter

        adapter = Adapter()
        for line in sys.stdin:
            answer = adapter.answer(json.loads(line))
            if "events" in answer:
                answer["events"] = ["x"]  # events that are not objects
            print(json.dumps(answer), flush=True)
    """)
    bad = subprocess.run(
        [sys.executable, "-m", "features.cli", "--driver-command", command, "--check-adapter"], cwd=ROOT, capture_output=True, text=True,
        timeout=60, env={**__import__("os").environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert bad.returncode == 1 and "Traceback" not in bad.stdout + bad.stderr, bad.stdout + bad.stderr
    assert "not of the protocol's shape (AttributeError" in bad.stdout, bad.stdout


@pytest.mark.parametrize("option", ["--json", "--report", "--write-baseline"])
def test_an_output_file_that_cannot_be_written_is_said_before_the_run(tmp_path, option):
    path = tmp_path / "no-such-folder" / "out"
    result = conformance(option, str(path))
    assert result.returncode == 2 and f"{option} {path}: no such folder to write it in" in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
