"""recflow run on a directory watch (an unbounded input): files renamed into the directory while the run runs are
read once each; the panes a watermark fires are committed while the run goes on (an epoch per output watermark that
follows rows); SIGINT or SIGTERM drains (every open window fires, the outputs commit, exit 0) and a second signal
during the drain cancels it, keeping the committed epochs; stop_after_idle (or --stop-after-idle) drains once idle.
Waits are bounded polls of the output, never sleeps standing for a result."""
import json
import signal
import subprocess
import time

import pytest

HANG_BOUND = 60  # seconds: a bound on a hang, not a timing


def drop(directory, name, rows):
    """Writes `rows` under a hidden name and renames the file in (complete when it appears)."""
    hidden = directory / f".{name}.tmp"
    hidden.write_text("".join(json.dumps(r) + "\n" for r in rows))
    hidden.rename(directory / name)


def committed(out):
    """The rows of the committed dataset at `out` (files named by a _SUCCESS'd commit), by window and key."""
    if not (out / "_SUCCESS").exists():
        return {}
    rows = [json.loads(line) for f in sorted(out.glob("*.jsonl")) for line in f.read_text().splitlines()]
    return {(r["window_start"], r["key"]): (r["count"], r["sum"]) for r in rows}


def wait_for(condition, proc):
    deadline = time.monotonic() + HANG_BOUND
    while not condition():
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < deadline, "the condition did not come within the hang bound"
        time.sleep(0.05)


def pipeline(tmp_path, watch_args="", poll="20ms"):
    inbox, out = tmp_path / "in", tmp_path / "out"
    inbox.mkdir()
    path = tmp_path / "p.yaml"
    path.write_text(f"""
steps:
  - watch: {{path: {inbox}, format: jsonl, event_time: ts, poll: {poll}{watch_args}}}
  - window: {{fixed: 10s}}
  - combine_per_key: {{keys: [key], aggregates: {{count: "count_all()", sum: "sum(v)"}}}}
  - write: {{path: {out}, format: jsonl, shards: 1}}
""")
    return inbox, out, path


def start_with_committed_epochs(recflow_bin, tmp_path, poll="20ms"):
    """Starts a watch run and waits until its first two epochs are committed, with [20 s, 30 s) open (key b: 1, 1)."""
    inbox, out, path = pipeline(tmp_path, poll=poll)
    drop(inbox, "a.jsonl", [{"ts": 1000, "key": "a", "v": 1}, {"ts": 2000, "key": "b", "v": 2}])
    (inbox / ".half-written.tmp").write_text("not json")  # hidden: never read
    proc = subprocess.Popen([str(recflow_bin), "run", str(path), "--quiet"], stderr=subprocess.PIPE, text=True)
    # The watermark (latest event time, no allowance) passes 10 s: [0, 10 s) fires and is committed.
    drop(inbox, "b.jsonl", [{"ts": 12000, "key": "a", "v": 5}])
    wait_for(lambda: committed(out) == {(0, "a"): (1, 1), (0, "b"): (1, 2)}, proc)
    # A file renamed in later is read too (once), its windows committed as the watermark passes them; the same
    # file opens [20 s, 30 s), which no watermark closes.
    drop(inbox, "c.jsonl", [{"ts": 13000, "key": "a", "v": 7}, {"ts": 21000, "key": "b", "v": 1}])
    wait_for(lambda: committed(out).get((10000, "a")) == (2, 12), proc)
    return proc, out


EPOCHS = {(0, "a"): (1, 1), (0, "b"): (1, 2), (10000, "a"): (2, 12)}


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_drains_the_watch_every_open_window_fires_and_the_run_commits(recflow_bin, tmp_path, sig):
    proc, out = start_with_committed_epochs(recflow_bin, tmp_path)
    proc.send_signal(sig)
    _, stderr = proc.communicate(timeout=HANG_BOUND)
    assert proc.returncode == 0, stderr
    assert "draining" in stderr, stderr
    # The open window fired when the drain moved the watermark to the end, and was committed.
    assert committed(out) == {**EPOCHS, (20000, "b"): (1, 1)}


def test_a_second_signal_during_the_drain_cancels_and_keeps_the_committed_epochs(recflow_bin, tmp_path):
    # The drain is seen when the watch's poll (2 s) ends, so the second signal, sent once the first was taken (its
    # line on stderr), comes while the run drains.
    proc, out = start_with_committed_epochs(recflow_bin, tmp_path, poll="2s")
    proc.send_signal(signal.SIGTERM)
    assert "SIGTERM: draining" in proc.stderr.readline()
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=HANG_BOUND)
    assert proc.returncode == 130, stderr
    # What was committed stays; the epoch in progress ([20 s, 30 s)) is not published.
    assert committed(out) == EPOCHS


def test_stop_after_idle_drains_every_window_and_commits(run, tmp_path):
    inbox, out, path = pipeline(tmp_path, ", stop_after_idle: 300ms")
    drop(inbox, "a.jsonl", [{"ts": 1000, "key": "a", "v": 1}, {"ts": 15000, "key": "a", "v": 2}])
    done = run("run", path, "--quiet")
    assert done.returncode == 0, done.stderr
    assert committed(out) == {(0, "a"): (1, 1), (10000, "a"): (1, 2)}


def test_stop_after_idle_on_the_command_line_drains_a_watch_that_states_none(run, tmp_path):
    inbox, out, path = pipeline(tmp_path)
    drop(inbox, "a.jsonl", [{"ts": 1000, "key": "a", "v": 1}, {"ts": 15000, "key": "a", "v": 2}])
    done = run("run", path, "--quiet", "--stop-after-idle", "0.3")
    assert done.returncode == 0, done.stderr
    assert committed(out) == {(0, "a"): (1, 1), (10000, "a"): (1, 2)}
    assert run("run", path, "--stop-after-idle", "-1").returncode == 2


def test_watch_arguments_are_checked(run, tmp_path):
    inbox, _, path = pipeline(tmp_path)
    done = run("run", path, "--quiet")  # an empty directory and no schema file
    assert done.returncode == 2 and "give schema: FILE" in done.stderr, done.stderr
    drop(inbox, "a.jsonl", [{"ts": 1000, "key": "a", "v": 1}])
    path.write_text(path.read_text().replace("event_time: ts", "event_time: when"))
    done = run("run", path, "--quiet")
    assert done.returncode == 2 and "no event time column 'when'" in done.stderr, done.stderr


def test_a_bad_event_time_fails_the_run_naming_the_file(run, tmp_path):
    inbox, out, path = pipeline(tmp_path, ", stop_after_idle: 300ms")
    drop(inbox, "a.jsonl", [{"ts": "now", "key": "a", "v": 1}, {"ts": "soon", "key": "a", "v": 2}])
    done = run("run", path, "--quiet")
    assert done.returncode == 1 and "a.jsonl" in done.stderr and "'now' is not an ISO-8601 time" in done.stderr, done.stderr
    assert not out.exists()
