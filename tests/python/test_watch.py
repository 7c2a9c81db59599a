"""recflow run on a directory watch (an unbounded input): files renamed into the directory while the run runs are
read once each; the panes a watermark fires are committed while the run goes on (an epoch per output watermark that
follows rows); Ctrl-C cancels the epoch in progress and leaves the committed ones; stop_after_idle drains (every
window fires) and commits. Waits are bounded polls of the output, never sleeps standing for a result."""
import json
import signal
import subprocess
import time

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


def pipeline(tmp_path, watch_args=""):
    inbox, out = tmp_path / "in", tmp_path / "out"
    inbox.mkdir()
    path = tmp_path / "p.yaml"
    path.write_text(f"""
steps:
  - watch: {{path: {inbox}, format: jsonl, event_time: ts, poll: 20ms{watch_args}}}
  - window: {{fixed: 10s}}
  - combine_per_key: {{keys: [key], aggregates: {{count: "count_all()", sum: "sum(v)"}}}}
  - write: {{path: {out}, format: jsonl, shards: 1}}
""")
    return inbox, out, path


def test_panes_are_committed_while_the_watch_runs_and_ctrl_c_keeps_them(recflow_bin, tmp_path):
    inbox, out, path = pipeline(tmp_path)
    drop(inbox, "a.jsonl", [{"ts": 1000, "key": "a", "v": 1}, {"ts": 2000, "key": "b", "v": 2}])
    (inbox / ".half-written.tmp").write_text("not json")  # hidden: never read
    proc = subprocess.Popen([str(recflow_bin), "run", str(path), "--quiet"], stderr=subprocess.PIPE, text=True)
    try:
        # The watermark (latest event time, no allowance) passes 10 s: [0, 10 s) fires and is committed.
        drop(inbox, "b.jsonl", [{"ts": 12000, "key": "a", "v": 5}])
        wait_for(lambda: committed(out) == {(0, "a"): (1, 1), (0, "b"): (1, 2)}, proc)
        # A file renamed in later is read too (once), its windows committed as the watermark passes them.
        drop(inbox, "c.jsonl", [{"ts": 13000, "key": "a", "v": 7}, {"ts": 21000, "key": "b", "v": 1}])
        wait_for(lambda: committed(out).get((10000, "a")) == (2, 12), proc)
        drop(inbox, "d.jsonl", [{"ts": 22000, "key": "b", "v": 3}])  # [20 s, 30 s) stays open
    finally:
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=HANG_BOUND)
    assert proc.returncode == 130, stderr
    # What was committed stays; the open epoch ([20 s, 30 s), never fired) is not published.
    assert committed(out) == {(0, "a"): (1, 1), (0, "b"): (1, 2), (10000, "a"): (2, 12)}


def test_stop_after_idle_drains_every_window_and_commits(run, tmp_path):
    inbox, out, path = pipeline(tmp_path, ", stop_after_idle: 300ms")
    drop(inbox, "a.jsonl", [{"ts": 1000, "key": "a", "v": 1}, {"ts": 15000, "key": "a", "v": 2}])
    done = run("run", path, "--quiet")
    assert done.returncode == 0, done.stderr
    assert committed(out) == {(0, "a"): (1, 1), (10000, "a"): (1, 2)}


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
