"""recflow run --checkpoint on a directory watch, stopped and started again (docs/streaming.md, "Generations"): a
drained run's checkpoint is marked drained, and a run started on it is the next generation — fresh windows and
watermark, reading on from the files the drained run read, never those again — so rows in windows the drained run
already fired are on time (the run succeeds, nothing is late), its files carry the generation in their epoch tags
(`part-g0001e…`) and the drained generation's files stay as they were. A run killed inside generation 1 and restarted
stays in it and leaves exactly the files of an uninterrupted generation 1; a version 2 checkpoint (no generation)
still resumes.

The expectation, by hand: each generation fires its own panes, so a window both generations saw has two results —
one per generation, each over the rows that generation read — as two Beam jobs, the second started after the first
drained, would have."""
import json
import signal
import subprocess
import time

import pytest

from test_checkpoint import environment, files
from tfrecord_util import crc32c

HANG_BOUND = 60  # seconds: a bound on a hang, not a timing

W = 10_000  # the window size (ms)
# Generation 0's files: each closes the windows before it; the drain fires the last one ([30 s, 40 s)).
FIRST = {
    "a1.jsonl": [(10_500, "a", 1), (11_000, "b", 2)],
    "a2.jsonl": [(20_500, "a", 3)],
    "a3.jsonl": [(30_500, "a", 4), (30_600, "b", 5)],
}
# Landed after generation 0 drained: rows in windows it fired ([10 s, 20 s) and [30 s, 40 s), with a key it saw
# there and one it did not), then a file that closes them; generation 1's drain fires [50 s, 60 s).
SECOND = {
    "b1.jsonl": [(15_000, "a", 10), (15_500, "a", 11), (16_000, "b", 20)],
    "b2.jsonl": [(35_000, "b", 30), (35_500, "c", 40)],
    "b3.jsonl": [(50_500, "a", 50)],
}
# Per generation, the panes (window start, key, count, sum) computed from the rows above.
GEN0 = {(10_000, "a", 1, 1), (10_000, "b", 1, 2), (20_000, "a", 1, 3), (30_000, "a", 1, 4), (30_000, "b", 1, 5)}
GEN1 = {(10_000, "a", 2, 21), (10_000, "b", 1, 20), (30_000, "b", 1, 30), (30_000, "c", 1, 40), (50_000, "a", 1, 50)}


def land(inbox, files):
    """Renames each file into the watched directory whole (written hidden first), in name order."""
    inbox.mkdir(exist_ok=True)
    for name, rows in sorted(files.items()):
        hidden = inbox / f".{name}.tmp"
        hidden.write_text("".join(json.dumps({"ts": ts, "key": key, "v": v}) + "\n" for ts, key, v in rows))
        hidden.rename(inbox / name)


def pipeline(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(f"""
steps:
  - watch: {{path: {tmp_path / "in"}, format: jsonl, event_time: ts, poll: 20ms}}
  - window: {{fixed: 10s}}
  - combine_per_key: {{keys: [key], aggregates: {{count: "count_all()", sum: "sum(v)"}}}}
  - write: {{path: {tmp_path / "out"}, format: jsonl, shards: 1}}
""")
    return path


def command(recflow_bin, tmp_path, *extra):
    return [str(recflow_bin), "run", str(pipeline(tmp_path)), "--quiet", "--checkpoint", str(tmp_path / "ckpt"),
            "--checkpoint-interval", "0", *extra]


def run_idle(recflow_bin, tmp_path, kill_at=None):
    """A run that drains once no file came for 0.3 s (or is killed at `kill_at`)."""
    return subprocess.run(command(recflow_bin, tmp_path, "--stop-after-idle", "0.3"), env=environment(kill_at),
                          capture_output=True, text=True, timeout=HANG_BOUND)


def panes(out, generation):
    """The panes in the files of `generation` (by their epoch tags): {(window start, key, count, sum)}."""
    tag = "part-e" if generation == 0 else f"part-g{generation:04d}e"
    rows = [json.loads(line) for name, data in files(out).items() if name.startswith(tag)
            for line in data.decode().splitlines()]
    got = [(r["window_start"], r["key"], r["count"], r["sum"]) for r in rows]
    assert len(got) == len(set(got)), f"a pane of generation {generation} was written twice"
    return set(got)


def manifest(tmp_path):
    return json.loads((tmp_path / "ckpt" / "checkpoint").read_bytes().split(b"\n", 1)[1])


def drain_by_sigterm(recflow_bin, tmp_path, generation, fired):
    """Starts a run, waits (polled, with a bound) until its files of `generation` hold the panes `fired` — the
    windows its last file closed, so it read every file landed — then SIGTERMs it: it drains, exit 0."""
    job = subprocess.Popen(command(recflow_bin, tmp_path), env=environment(), stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + HANG_BOUND
        while panes(tmp_path / "out", generation) != fired:
            assert job.poll() is None, job.stderr.read()
            assert time.monotonic() < deadline, f"generation {generation} did not fire {fired} within {HANG_BOUND} s"
            time.sleep(0.05)
        job.send_signal(signal.SIGTERM)
        assert job.wait(timeout=HANG_BOUND) == 0, job.stderr.read()
        return job.stderr.read()
    finally:
        if job.poll() is None:
            job.kill()
            job.wait()


def test_a_run_started_on_a_drained_checkpoint_is_the_next_generation_and_finds_nothing_late(recflow_bin, tmp_path):
    land(tmp_path / "in", FIRST)
    drain_by_sigterm(recflow_bin, tmp_path, 0, {p for p in GEN0 if p[0] < 30_000})
    out = tmp_path / "out"
    assert panes(out, 0) == GEN0
    assert (manifest(tmp_path)["generation"], manifest(tmp_path)["drained"]) == (0, True)
    drained = files(out)

    land(tmp_path / "in", SECOND)
    stderr = drain_by_sigterm(recflow_bin, tmp_path, 1, {p for p in GEN1 if p[0] < 50_000})
    assert "late" not in stderr, stderr
    # Generation 1 read only the new files (a file read again would add its rows to its windows), from fresh windows
    # (its rows in windows generation 0 fired are on time); generation 0's files are as the drain left them.
    assert panes(out, 1) == GEN1
    assert {name: data for name, data in files(out).items() if name in drained} == drained
    assert all(name.startswith("part-g0001e") for name in set(files(out)) - set(drained)), sorted(files(out))
    assert (out / "_SUCCESS").exists()
    checkpoint = manifest(tmp_path)
    assert (checkpoint["generation"], checkpoint["drained"]) == (1, True)
    assert sorted(checkpoint["positions"]["watch"]) == sorted([*FIRST, *SECOND])
    # The union per window: each generation's pane of it.
    both = sorted(GEN0 | GEN1)
    assert sorted(panes(out, 0) | panes(out, 1)) == both
    assert [p for p in both if p[0] == 10_000] == [(10_000, "a", 1, 1), (10_000, "a", 2, 21), (10_000, "b", 1, 2),
                                                  (10_000, "b", 1, 20)]

    # Started again with nothing new: generation 2 reads nothing and adds no file.
    before = files(out)
    done = run_idle(recflow_bin, tmp_path)
    assert done.returncode == 0, done.stderr
    assert files(out) == before
    assert (manifest(tmp_path)["generation"], manifest(tmp_path)["drained"]) == (2, True)


@pytest.fixture
def reference(recflow_bin, tmp_path):
    """The files of an uninterrupted generation 0 and generation 1 (both drained once idle)."""
    ref = tmp_path / "ref"
    ref.mkdir()
    land(ref / "in", FIRST)
    done = run_idle(recflow_bin, ref)
    assert done.returncode == 0, done.stderr
    land(ref / "in", SECOND)
    done = run_idle(recflow_bin, ref)
    assert done.returncode == 0, done.stderr
    assert panes(ref / "out", 0) == GEN0 and panes(ref / "out", 1) == GEN1
    return files(ref / "out")


@pytest.mark.parametrize("kill_at", [
    "watch-file:2",          # generation 1 read a file, nothing committed
    "epoch-committed:1",     # its first epoch committed, no checkpoint yet
    "checkpoint-written:1",  # right after its first checkpoint
    "epoch-committed:3",     # its drain's epoch committed, its checkpoint not written
    "checkpoint-written:3",  # its drained checkpoint written: the restart is generation 2
])
def test_a_run_killed_inside_generation_1_and_restarted_leaves_the_files_of_an_uninterrupted_one(
        recflow_bin, tmp_path, reference, kill_at):
    land(tmp_path / "in", FIRST)
    done = run_idle(recflow_bin, tmp_path)
    assert done.returncode == 0, done.stderr
    land(tmp_path / "in", SECOND)
    killed = run_idle(recflow_bin, tmp_path, kill_at)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert manifest(tmp_path)["generation"] == 1
    done = run_idle(recflow_bin, tmp_path)
    assert done.returncode == 0, done.stderr
    assert files(tmp_path / "out") == reference
    assert manifest(tmp_path)["drained"]


def test_a_version_2_checkpoint_resumes_as_generation_0(recflow_bin, tmp_path, reference):
    land(tmp_path / "in", FIRST)
    killed = run_idle(recflow_bin, tmp_path, "checkpoint-written:1")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    # The same checkpoint as a recflow of version 2 wrote it: no generation, no drained mark.
    checkpoint = manifest(tmp_path)
    assert (checkpoint.pop("generation"), checkpoint.pop("drained")) == (0, False)
    json_text = json.dumps(checkpoint, separators=(",", ":")).encode()
    (tmp_path / "ckpt" / "checkpoint").write_bytes(
        b"recflow-checkpoint 2 %d %08x\n" % (len(json_text), crc32c(json_text)) + json_text)
    done = run_idle(recflow_bin, tmp_path)
    assert done.returncode == 0, done.stderr
    assert files(tmp_path / "out") == {n: d for n, d in reference.items() if n.startswith("part-e")}
    assert (manifest(tmp_path)["generation"], manifest(tmp_path)["drained"]) == (0, True)
