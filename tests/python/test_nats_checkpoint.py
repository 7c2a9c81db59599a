"""recflow run --checkpoint on a NATS read against a real nats-server (each test starts its own on a loopback port): a
run killed (SIGKILL, at a named point through RECFLOW_KILL_AT) after an epoch's commit, between a checkpoint's manifest
and its acknowledgements, or right after a checkpoint, then restarted, leaves exactly the windows of an uninterrupted
run — in files (each pane once, the batch run's rows) and with write_nats (each pane's Nats-Msg-Id once, none missing);
a killed run never acknowledged a message its last durable checkpoint does not cover; an unbounded run acknowledges
what its checkpoints cover while it runs, not only at its end; checkpointed runs SIGKILLed at random moments while
events are published, then a caught-up run, publish each of the oracle's panes once; a filtered consumer's position
on a stream shared with other subjects stays a few ranges (trimmed at the consumer's ack floor); a position that is
not stream-sequence ranges is refused naming the checkpoint."""
import json
import signal
import subprocess
import time

import pytest

from test_nats import (COUNT_SUM, SCHEMA, assert_every_message_acknowledged, assert_every_pane_once, batch_counts,
                       by_pane, consumer_info, events, kill_runs_at_random_moments, nats, nats_server, publish,
                       pytestmark)  # noqa: F401 (fixtures)
from test_checkpoint import environment
from tfrecord_util import crc32c

HANG_BOUND = 120  # seconds: a bound on a hang, not a timing
WINDOW = "{fixed: 1s}"


def pipeline(tmp_path, url, name, sink, until_caught_up=True):
    """The events read from the consumer `counts` (AckWait 3 s: a killed run's messages come again to the restart
    after it), counted and summed per key in 1-second windows (about 60 epochs), written to `sink`: "files" (JSON
    Lines under tmp_path/name) or "nats" (subject out.counts of stream OUT)."""
    write = {
        "files": f"write: {{path: {tmp_path / name}, format: jsonl, shards: 1}}",
        "nats": f'write_nats: {{url: "{url}", subject: out.counts, key: [key]}}',
    }[sink]
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"""
steps:
  - name: events
    nats: {{url: "{url}", stream: EVENTS, consumer: counts, subject: "events.>", schema: {SCHEMA},
            event_time: ts, out_of_orderness: 3s, ack_wait: 3s, batch: 100, until_caught_up: {str(until_caught_up).lower()}}}
  - window: {WINDOW}
  - {COUNT_SUM}
  - {write}
""")
    return path


def run_checkpointed(recflow_bin, path, checkpoint, kill_at=None, extra=(), interval="0"):
    return subprocess.run([str(recflow_bin), "run", str(path), "--quiet", "--checkpoint", str(checkpoint),
                           "--checkpoint-interval", interval, *extra], env=environment(kill_at), capture_output=True,
                          text=True, timeout=HANG_BOUND)


def file_rows(out):
    return [json.loads(line) for f in sorted(out.glob("*.jsonl")) for line in f.read_text().splitlines()]


def checkpoint_json(checkpoint):
    return json.loads((checkpoint / "checkpoint").read_bytes().split(b"\n", 1)[1])


def covered(checkpoint):
    """The stream sequences the checkpoint's position of the read covers."""
    entries = checkpoint_json(checkpoint)["positions"].get("events", [])
    return {s for entry in entries for s in range(int(entry.split("-")[0]), int(entry.split("-")[1]) + 1)}


@pytest.fixture
def evs(nats):
    """3 000 events over 30 s of event time, 20 keys, published before the runs."""
    out = events(3000, keys=20, seed=11, spacing=10)
    publish(nats, "EVENTS", "events.>", [(f"events.{e['key']}", json.dumps(e)) for e in out])
    publish(nats, "OUT", "out.counts", [])
    return out


KILL_POINTS = [
    "epoch-committed:2",      # an epoch committed, its checkpoint not written: the restart takes it back out
    "checkpoint-written:4",   # the manifest renamed in, its messages not acknowledged
    "checkpoint-written:10",  # the same, later (earlier checkpoints' messages acknowledged)
    "epoch-committed:14",
]


@pytest.mark.parametrize("kill_at", KILL_POINTS)
def test_a_killed_and_restarted_run_writes_each_window_once_in_files(recflow_bin, run, tmp_path, nats, evs, kill_at):
    path = pipeline(tmp_path, nats, "out", "files")
    killed = run_checkpointed(recflow_bin, path, tmp_path / "ckpt", kill_at)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    # Only what the last durable checkpoint covers may have been acknowledged; the rest comes again.
    info = consumer_info(nats, "EVENTS", "counts")
    assert info["ack_floor"] <= max(covered(tmp_path / "ckpt"), default=0)
    assert info["num_ack_pending"] > 0
    done = run_checkpointed(recflow_bin, path, tmp_path / "ckpt")
    assert done.returncode == 0, done.stderr
    got = file_rows(tmp_path / "out")
    panes = [(r["window_start"], r["key"]) for r in got]
    assert len(panes) == len(set(panes)), "a window was written twice"
    assert by_pane(got) == by_pane(batch_counts(run, tmp_path, evs, WINDOW))
    assert_every_message_acknowledged(nats, len(evs))


@pytest.mark.parametrize("kill_at", ["checkpoint-written:1", "checkpoint-written:4", "checkpoint-written:10"])
def test_a_killed_and_restarted_run_publishes_each_pane_once(recflow_bin, run, tmp_path, nats, evs, kill_at):
    path = pipeline(tmp_path, nats, "out", "nats")
    killed = run_checkpointed(recflow_bin, path, tmp_path / "ckpt", kill_at)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    done = run_checkpointed(recflow_bin, path, tmp_path / "ckpt")
    assert done.returncode == 0, done.stderr
    assert_every_pane_once(nats, batch_counts(run, tmp_path, evs, WINDOW))
    assert_every_message_acknowledged(nats, len(evs))


def test_an_uninterrupted_checkpointed_run_and_its_rerun_write_each_window_once(recflow_bin, run, tmp_path, nats, evs):
    path = pipeline(tmp_path, nats, "out", "files")
    done = run_checkpointed(recflow_bin, path, tmp_path / "ckpt")
    assert done.returncode == 0, done.stderr
    want = by_pane(batch_counts(run, tmp_path, evs, WINDOW))
    assert by_pane(file_rows(tmp_path / "out")) == want
    assert len(covered(tmp_path / "ckpt")) == len(evs)  # the run's end saved everything it read
    assert_every_message_acknowledged(nats, len(evs))
    done = run_checkpointed(recflow_bin, path, tmp_path / "ckpt")  # nothing new: nothing added
    assert done.returncode == 0, done.stderr
    assert by_pane(file_rows(tmp_path / "out")) == want


def test_an_unbounded_run_acknowledges_what_its_checkpoints_cover_while_it_runs(recflow_bin, run, tmp_path, nats, evs):
    path = pipeline(tmp_path, nats, "out", "files", until_caught_up=False)
    job = subprocess.Popen([str(recflow_bin), "run", str(path), "--quiet", "--checkpoint", str(tmp_path / "ckpt"),
                            "--checkpoint-interval", "0"], stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + HANG_BOUND
        while True:  # polled, with a bound, until checkpoints' messages are acknowledged while the run goes on
            info = consumer_info(nats, "EVENTS", "counts")
            if info is not None and info["ack_floor"] > 0:
                break
            assert job.poll() is None, job.stderr.read()
            assert time.monotonic() < deadline, f"nothing acknowledged within {HANG_BOUND} s: {info}"
            time.sleep(0.05)
        assert info["ack_floor"] <= max(covered(tmp_path / "ckpt"))
        job.send_signal(signal.SIGTERM)  # drains: the last windows fire and commit, what it read is acknowledged
        assert job.wait(timeout=HANG_BOUND) == 0, job.stderr.read()
    finally:
        if job.poll() is None:
            job.kill()
            job.wait()
    # The drain's checkpoint covers the first k messages (read in order): exactly those are acknowledged, their windows
    # written; the rest (not read, or given back by the drain) wait for a run of another checkpoint.
    read = covered(tmp_path / "ckpt")
    k = len(read)
    assert read == set(range(1, k + 1))
    info = consumer_info(nats, "EVENTS", "counts")
    assert info["ack_floor"] == k and info["num_ack_pending"] + info["num_pending"] == len(evs) - k
    assert by_pane(file_rows(tmp_path / "out")) == by_pane(batch_counts(run, tmp_path, evs[:k], WINDOW))


def test_a_filtered_consumers_position_stays_a_few_ranges_on_a_stream_shared_with_other_subjects(
        recflow_bin, run, tmp_path, nats):
    # Every event's message is followed by one of another subject the consumer filters out: each message read is a
    # range of its own unless the position is trimmed at the consumer's ack floor.
    evs = events(3000, keys=20, seed=12, spacing=100)
    publish(nats, "EVENTS", "events.>", [m for e in evs for m in ((f"events.in.{e['key']}", json.dumps(e)),
                                                                  ("events.other", "{}"))])
    path = pipeline(tmp_path, nats, "out", "files")
    path.write_text(path.read_text().replace('subject: "events.>"', 'subject: "events.in.>"'))
    killed = run_checkpointed(recflow_bin, path, tmp_path / "ckpt", "checkpoint-written:20")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    # 20 checkpoints in, the position is one range up to an ack floor behind it by a few checkpoints, then one range per
    # message read since (the filtered-in messages have odd sequences); untrimmed it would be a range per message read.
    entries = checkpoint_json(tmp_path / "ckpt")["positions"]["events"]
    read = sorted(s for s in covered(tmp_path / "ckpt") if s % 2 == 1)
    floor = int(entries[0].split("-")[1])
    assert len(read) >= 500 and entries[0].startswith("1-") and floor >= read[-1] / 2, entries
    assert len(entries) <= len(read) / 2, entries
    done = run_checkpointed(recflow_bin, path, tmp_path / "ckpt")  # resumes on the trimmed position
    assert done.returncode == 0, done.stderr
    got = file_rows(tmp_path / "out")
    assert len({(r["window_start"], r["key"]) for r in got}) == len(got), "a window was written twice"
    assert by_pane(got) == by_pane(batch_counts(run, tmp_path, evs, WINDOW))
    info = consumer_info(nats, "EVENTS", "counts")
    assert info["num_ack_pending"] == 0 and info["ack_floor"] >= 2 * len(evs) - 1, info


def test_a_position_that_is_not_stream_sequence_ranges_is_refused_naming_the_checkpoint(recflow_bin, tmp_path, nats,
                                                                                       evs):
    path = pipeline(tmp_path, nats, "out", "files")
    killed = run_checkpointed(recflow_bin, path, tmp_path / "ckpt", "checkpoint-written:2")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    manifest = tmp_path / "ckpt" / "checkpoint"
    body = manifest.read_bytes().split(b"\n", 1)[1].replace(b'"events":["', b'"events":["x')
    manifest.write_bytes(b"recflow-checkpoint 2 %d %08x\n" % (len(body), crc32c(body)) + body)
    done = run_checkpointed(recflow_bin, path, tmp_path / "ckpt")
    assert done.returncode == 1, done.stderr
    assert str(manifest) in done.stderr and "step 'events'" in done.stderr and "'x" in done.stderr, done.stderr


def test_checkpointed_runs_killed_at_random_moments_while_events_are_published_publish_each_pane_once(
        recflow_bin, run, tmp_path, nats):
    # `bench/nats_kill_trials.sh 20 100000 41 checkpoint` runs it at full size (test_nats.py's KILL_* settings).
    unbounded = pipeline(tmp_path, nats, "trials", "nats", until_caught_up=False)
    evs = kill_runs_at_random_moments(recflow_bin, tmp_path, nats, [
        "run", unbounded, "--quiet", "--checkpoint", tmp_path / "ckpt", "--checkpoint-interval", "0"])
    done = run_checkpointed(recflow_bin, pipeline(tmp_path, nats, "final", "nats"), tmp_path / "ckpt")
    assert done.returncode == 0, done.stderr
    assert_every_pane_once(nats, batch_counts(run, tmp_path, evs, WINDOW))
    assert_every_message_acknowledged(nats, len(evs))
