"""``pyramide stats`` on Dask: any cluster gives the same result; chunks, kept in a state file, let a
stopped run go on where it stopped and end as a run never stopped (docs/solver.md)."""

from __future__ import annotations

import json
import os
import signal
import sys

import pytest
from distributed import LocalCluster

from service import cli
from service.cli import main
from service.stats import FIRST_CHUNK, MAX_CHUNK


@pytest.fixture(scope="module")
def scheduler():
    """A cluster of 2 worker processes, reached as any cluster is, by its scheduler's address."""
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None,
        scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
    ) as cluster:  # fmt: skip
        yield cluster.scheduler_address


RUN = ["stats", "--rules", "N", "--deals", "60", "--start", "500"]


def result(capsys, *argv: str, status: int = 0) -> str:
    assert main([*RUN, *argv]) == status
    return capsys.readouterr().out


def test_the_same_result_on_any_cluster(scheduler, capsys):
    remote = result(capsys, "--scheduler", scheduler)
    assert remote.startswith("rules N: 60 deals (seeds 500…559)\n")
    assert result(capsys, "--workers", "1") == remote  # a local cluster of its own, of one process
    assert json.loads(result(capsys, "--scheduler", scheduler, "--json"))["done"] == 60


def test_chunks_shrink_to_single_deals_at_the_end(scheduler, capsys, tmp_path):
    state = tmp_path / "run.jsonl"
    result(capsys, "--scheduler", scheduler, "--resume", str(state))
    header, *chunks = [json.loads(line) for line in state.read_text().splitlines()]
    assert header == {"format": "pyramide stats state 1", "rules": "N", "start": 500, "deals": 60, "budget": 2_000_000}
    sizes = [chunk["stop"] - chunk["first"] for chunk in sorted(chunks, key=lambda chunk: chunk["first"])]
    assert sum(sizes) == 60 and max(sizes) <= MAX_CHUNK
    # the first round small (the first results at once), then at most a quarter of what is left per
    # worker, down to one deal
    assert sizes[0] == FIRST_CHUNK and sizes[-3:] == [1, 1, 1]


def test_a_run_stopped_by_ctrl_c_goes_on_where_it_stopped_and_ends_as_one_never_stopped(scheduler, capsys, tmp_path, monkeypatch):
    whole = result(capsys, "--scheduler", scheduler)
    state = tmp_path / "run.jsonl"
    update = cli.Progress.update

    def ctrl_c_once_a_chunk_is_done(progress):  # a real SIGINT, to this process, from the bar's first move
        os.kill(os.getpid(), signal.SIGINT)
        monkeypatch.setattr(cli.Progress, "update", update)
        update(progress)

    monkeypatch.setattr(cli.Progress, "update", ctrl_c_once_a_chunk_is_done)
    stopped = result(capsys, "--scheduler", scheduler, "--resume", str(state), status=130)
    assert ", interrupted: a partial result of the 60 deals asked" in stopped.splitlines()[0]
    kept = sum(json.loads(line)["stop"] - json.loads(line)["first"] for line in state.read_text().splitlines()[1:])
    assert 0 < kept < 60
    # the same file, with or without the parameters: the rest is solved, the result is the whole run's
    assert main(["stats", "--resume", str(state), "--scheduler", scheduler]) == 0
    out, err = capsys.readouterr()
    assert out == whole and f"{kept} of the 60 deals were done, solving the rest" in err
    assert result(capsys, "--scheduler", scheduler, "--resume", str(state)) == whole  # done: nothing left to solve


def test_a_kept_chunk_is_not_solved_again_and_a_line_cut_short_is(scheduler, capsys, tmp_path):
    state = tmp_path / "run.jsonl"
    whole = result(capsys, "--scheduler", scheduler, "--resume", str(state))
    header, first, *rest = state.read_text().splitlines()
    chunk = json.loads(first)
    # a chunk kept with other counts: the run adds them up as kept, so it did not solve it again
    forged = {**chunk, "winnable": chunk["winnable"] + chunk["unwinnable"], "unwinnable": 0}
    state.write_text("\n".join([header, json.dumps(forged), *rest[:-1]]) + "\n" + rest[-1][:10])
    again = result(capsys, "--scheduler", scheduler, "--resume", str(state))
    won = int(whole.splitlines()[1].split()[1].rstrip(","))
    assert again.splitlines()[1].startswith(f"winnable {won + chunk['unwinnable']}, ")
    # the line cut short was dropped and its chunk solved again: the file is whole lines, every seed once
    lines = state.read_text().splitlines()
    assert state.read_text().endswith("\n") and sum(json.loads(line)["stop"] - json.loads(line)["first"] for line in lines[1:]) == 60


def test_a_state_file_of_another_run_or_of_nothing_is_refused(scheduler, capsys, tmp_path):
    state = tmp_path / "run.jsonl"
    result(capsys, "--scheduler", scheduler, "--resume", str(state))
    assert main(["stats", "--rules", "N", "--deals", "61", "--resume", str(state)]) == 2
    assert f"{state} keeps another run (--deals 60)" in capsys.readouterr().err
    other = tmp_path / "notes.txt"
    other.write_text("my notes\n")
    assert main(["stats", "--resume", str(other)]) == 2
    assert "is not a state file of pyramide stats" in capsys.readouterr().err
    assert other.read_text() == "my notes\n"


def test_workers_are_the_local_clusters_only(capsys):
    assert main([*RUN, "--scheduler", "tcp://127.0.0.1:1", "--workers", "2"]) == 2
    assert "a --scheduler's cluster has its own workers" in capsys.readouterr().err


def test_without_dask_stats_says_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "service.stats", None)  # import service.stats fails, as without distributed
    assert main(RUN) == 1
    said = capsys.readouterr().err
    assert said.startswith("pyramide stats: error: it runs on Dask, which is not installed") and cli.install_hint("dask") in said
