"""The server through its workers' lives, for real (``make serve``'s server on 127.0.0.1, small
limits set by its environment): a worker that exits for any reason (its ``max_requests``, its
memory limit, a reload, SIGTERM, the master told to shrink) is invisible to the clients, and
nothing of the server's is removed but by its main process at its own stop. Before, the first
worker to exit cleanly removed the server's directory (its ``SystemExit`` unwound the main
process's stack, which it had inherited), and every request after it was a 500.

Each test keeps 4 clients busy on kept-alive connections (``tests/lifecycle.Load``), checking
every answer; ``make soak`` does the same for 10 minutes and more.
"""

from __future__ import annotations

import contextlib
import signal
import time
from pathlib import Path

import pytest

from tests.lifecycle import Load, Workers, children, nginx_of, server_directory, signal_process
from tests.server import server_process


@contextlib.contextmanager
def served(**env: str):
    with server_process(workers=2, PYRAMIDE_ACCESS_LOG="off", **env) as (base, process):
        directory = server_directory(process.pid)
        yield int(base.rsplit(":", 1)[1]), process, directory
        assert (directory / "app.sock").exists() and (directory / "nginx.conf").exists()
        process.terminate()
        process.wait(20)
    assert not directory.exists()  # (removed by the main process, at its stop)


#: The longest a test keeps its load up waiting for what it must see happen (recycles): only a
#: server that stopped recycling gets near it.
BOUND = 60.0


def _steady(port: int, seconds: float, during=None, until=lambda load: True) -> Load:
    """4 clients for ``seconds`` (``during`` run meanwhile), then until ``until(load)`` holds (a
    count of requests answered, of recycles: a busy machine sends fewer in the same time, and a
    worker replaced after each request boots between them), within ``BOUND``."""
    with Load(port, clients=4) as load:
        started = time.monotonic()
        if during is not None:
            during()
        while time.monotonic() < started + seconds or (not until(load) and time.monotonic() < started + BOUND):
            time.sleep(0.1)
    return load


def test_workers_recycled_after_their_requests_reloaded_and_stopped_are_invisible():
    """Workers recycled every 30-odd requests, two reloads (SIGHUP: every worker replaced), one
    worker stopped (SIGTERM), the master told to shrink and grow (TTOU, TTIN): every answer right,
    none refused, none lost."""
    with served(PYRAMIDE_MAX_REQUESTS="30") as (port, process, directory), Workers(process.pid) as workers:
        first = workers.now()

        def operator() -> None:
            time.sleep(0.6)
            signal_process(process.pid, signal.SIGHUP)
            time.sleep(0.6)
            signal_process(sorted(workers.now())[0], signal.SIGTERM)
            time.sleep(0.6)
            signal_process(process.pid, signal.SIGTTOU)
            time.sleep(0.4)
            signal_process(process.pid, signal.SIGTTIN)
            time.sleep(0.4)
            signal_process(process.pid, signal.SIGHUP)

        load = _steady(port, 4.0, operator, until=lambda load: load.sent >= 150 and len(workers.seen - first) >= 6)
        assert load.sent >= 150 and not load.failures(), (load.sent, load.failures())
        assert len(workers.seen - first) >= 6, workers.seen  # (recycles, reloads and the rest: it was exercised)
        assert directory.exists()


def test_workers_over_their_memory_limit_are_replaced_invisibly():
    """A memory limit every worker is over after its first request (1 MiB): each is replaced
    after each request, and every answer is still right."""
    with served(PYRAMIDE_MAX_RSS_MB="1") as (port, process, directory), Workers(process.pid) as workers:
        first = workers.now()
        load = _steady(port, 2.0, until=lambda load: load.sent >= 6 and len(workers.seen - first) >= 3)
        assert load.sent >= 6 and not load.failures(), (load.sent, load.failures())
        assert len(workers.seen - first) >= 3, workers.seen


def test_a_worker_killed_mid_request_costs_at_most_what_it_was_answering():
    """SIGKILL (the kernel's OOM killer, an operator's kill -9): nginx sends again, on another
    connection, what the killed worker had not begun to answer (every endpoint is stateless, so a
    POST sent twice is the same POST); only an answer it was in the middle of writing can be cut.
    So at most one failure a client a kill, and the server goes on whole."""
    with served() as (port, process, directory), Workers(process.pid) as workers:
        kills = 3
        orphans: set[int] = set()

        def operator() -> None:
            for _ in range(kills):
                time.sleep(0.5)
                victim = max(workers.now())
                orphans.update(children(victim))  # (its replay process, and multiprocessing's tracker)
                signal_process(victim, signal.SIGKILL)

        load = _steady(port, 2.5, operator)
        assert sum(load.failures().values()) <= 4 * kills, load.failures()
        assert all(outcome[0] == 0 for outcome in load.failures()), load.failures()  # (cut, never a wrong answer or a 5xx)
        after = _steady(port, 0.5, until=lambda load: load.sent >= 10)
        assert after.sent >= 10 and not after.failures(), after.failures()
        # the killed workers' processes end with them (within the second their watch takes), no orphans
        deadline = time.monotonic() + 10
        while (running := {pid for pid in orphans if _running(pid)}) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert orphans and not running, (orphans, running)


def _running(pid: int) -> bool:
    """Whether ``pid`` is a process still running (not gone, nor a zombie waiting to be reaped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


@pytest.mark.parametrize("kind", ["max_requests", "memory"])
def test_without_nginx_a_worker_exit_is_invisible_too(kind):
    """gunicorn alone (``PYRAMIDE_NGINX=off``): its workers' exits leave its socket and the
    places it shares as they were."""
    env = {"max_requests": {"PYRAMIDE_MAX_REQUESTS": "20"}, "memory": {"PYRAMIDE_MAX_RSS_MB": "1"}}[kind]
    with server_process(workers=2, PYRAMIDE_ACCESS_LOG="off", PYRAMIDE_NGINX="off", **env) as (base, process):
        with Workers(process.pid) as workers:
            first = workers.now()
            load = _steady(int(base.rsplit(":", 1)[1]), 1.5, until=lambda load: load.sent >= 10 and len(workers.seen - first) >= 2)
        assert load.sent >= 10 and not load.failures(), (load.sent, load.failures())
        assert len(workers.seen - first) >= 2


def test_a_killed_nginx_worker_leaks_no_limit():
    """nginx's worker killed (SIGKILL) with long bodies in flight: its master starts another, and
    nothing it counted stays taken (the long-body limit is a rate, forgotten as time passes; a
    count of requests in flight, ``limit_conn``, stayed taken for good): the same client's long
    bodies are answered again, and so is everything else."""
    import json
    import socket

    from tests.bench.bench_replay import long_game

    state = long_game(2_000)
    body = json.dumps({"state": state.to_json(), "move": {"type": "draw"} if state.stock else {"type": "recycle"}}).encode()
    head = f"POST /v1/moves HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
    with served() as (port, process, directory):
        nginx = nginx_of(process.pid)
        worker = next(iter(children(nginx)))
        held = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(12)]
        for sock in held:
            sock.sendall(head + body[: len(body) // 2])
        time.sleep(0.3)
        signal_process(worker, signal.SIGKILL)
        for sock in held:
            sock.close()
        deadline = time.monotonic() + 10
        while worker in children(nginx) or not children(nginx):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(1.5)  # (the rate's burst restored)
        for _ in range(3):
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                sock.sendall(head.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n") + body)
                answer = b""
                while chunk := sock.recv(65536):
                    answer += chunk
            assert answer.startswith(b"HTTP/1.1 200 "), answer[:300]
            time.sleep(0.3)
        load = _steady(port, 0.5, until=lambda load: load.sent >= 10)
        assert load.sent >= 10 and not load.failures(), load.failures()
