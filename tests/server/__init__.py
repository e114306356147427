"""Start the real server (gunicorn, as ``make serve`` does) on a free loopback port, for tests."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


#: How long a server may take to say it listens: only a server that hangs gets near it (it says
#: so in about a second; several times that on a machine busy on every core).
STARTED = 120


def wait_for_line(process: subprocess.Popen, marker: bytes) -> tuple[bool, str]:
    """Whether the server printed a line holding ``marker``, and all it printed until then, read
    from its pipe as it comes (in a thread, so that a server that hangs costs ``STARTED`` seconds,
    not forever). After that line the pipe is no longer read."""
    said = bytearray()
    found = threading.Event()

    def read() -> None:
        for line in process.stdout:
            said.extend(line)
            if marker in line:
                found.set()
                return
        said.extend(b"(the server ended)")
        found.set()

    threading.Thread(target=read, daemon=True).start()
    found.wait(STARTED)
    return marker in said, bytes(said).decode(errors="replace")


@contextlib.contextmanager
def server_process(workers: int = 2, module: str = "service.api.serve", **env: str) -> Iterator[tuple[str, subprocess.Popen]]:
    """The server's base URL, and its main process (gunicorn's master: its workers are its children)."""
    port = free_port()
    environment = {**os.environ, "PORT": str(port), "HOST": "127.0.0.1", "WEB_CONCURRENCY": str(workers), **env}
    process = subprocess.Popen(
        [sys.executable, "-m", module], env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    base = f"http://127.0.0.1:{port}"
    try:
        listening, said = wait_for_line(process, b"listening on")
        if not listening:
            raise RuntimeError(f"the server did not say it listens within {STARTED} s:\n{said}")
        with urllib.request.urlopen(base + "/healthz", timeout=STARTED) as response:
            assert response.status == 200
        yield base, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


@contextlib.contextmanager
def running_server(workers: int = 2, module: str = "service.api.serve", **env: str) -> Iterator[str]:
    with server_process(workers, module, **env) as (base, _):
        yield base
