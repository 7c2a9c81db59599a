"""recflow run --checkpoint on a NATS read against a real nats-server (each test starts its own on a loopback port),
stopped and started again (docs/streaming.md, "Generations"): a run drained by SIGTERM marks its checkpoint drained; a
run started on it is generation 1 — fresh windows and watermark, reading on from the drained run's position — so
events published after the drain into windows generation 0 already published are on time, and its panes' Nats-Msg-Ids
carry the generation: the stream's duplicate window keeps them beside generation 0's panes of the same windows and
keys, every id once. A run killed inside generation 1 and restarted publishes each of its panes once.

The expectation, by hand: each generation publishes its own panes, over the events it read (generation 0 the first
six, generation 1 the six published after its drain), so a window and key both saw have two messages — one per
generation — as two Beam jobs, the second started after the first drained, would have."""
import json
import signal
import subprocess
import time

import pytest

from test_nats import (COUNT_SUM, SCHEMA, T0, assert_every_message_acknowledged, nats, nats_server,
                       publish, pytestmark, read_stream)  # noqa: F401 (fixtures)
from test_checkpoint import environment
from test_nats_checkpoint import checkpoint_json, covered

HANG_BOUND = 120  # seconds: a bound on a hang, not a timing

# (ms after T0, key, value), on one subject in this order. With 10-second windows and 3 s of out-of-orderness the
# last event of each list moves the watermark past every window before its own, whose pane the drain publishes.
FIRST = [(1_000, "a", 1), (2_000, "b", 2), (12_000, "a", 3), (15_000, "b", 4), (21_000, "a", 5), (40_000, "c", 6)]
# Published after generation 0 drained: events in windows generation 0 published ([0 s, 10 s) and [40 s, 50 s), keys
# it saw there), one more window, then the event closing them.
SECOND = [(5_000, "a", 10), (5_500, "a", 11), (16_000, "b", 20), (41_000, "a", 30), (42_000, "c", 40),
          (70_000, "d", 50)]
# Per generation, its panes (window start after T0, key, count, sum) computed from the events above.
GEN0 = {(0, "a", 1, 1), (0, "b", 1, 2), (10_000, "a", 1, 3), (10_000, "b", 1, 4), (20_000, "a", 1, 5),
        (40_000, "c", 1, 6)}
GEN1 = {(0, "a", 2, 21), (10_000, "b", 1, 20), (40_000, "a", 1, 30), (40_000, "c", 1, 40), (70_000, "d", 1, 50)}


def publish_events(nats, events):
    publish(nats, "EVENTS", "events.>",
            [("events.all", json.dumps({"key": key, "value": value, "ts": T0 + ms})) for ms, key, value in events])


def pipeline(tmp_path, url, caught_up=False):
    path = tmp_path / "p.yaml"
    path.write_text(f"""
steps:
  - name: events
    nats: {{url: "{url}", stream: EVENTS, consumer: counts, subject: "events.>", schema: {SCHEMA},
            event_time: ts, out_of_orderness: 3s, ack_wait: 3s, until_caught_up: {str(caught_up).lower()}}}
  - window: {{fixed: 10s}}
  - {COUNT_SUM}
  - write_nats: {{url: "{url}", subject: out.counts, key: [key]}}
""")
    return path


def command(recflow_bin, tmp_path, nats, caught_up=False):
    return [str(recflow_bin), "run", str(pipeline(tmp_path, nats, caught_up)), "--quiet", "--checkpoint",
            str(tmp_path / "ckpt"), "--checkpoint-interval", "0"]


def published(nats):
    """The output stream's messages: [(Nats-Msg-Id, pane)], a pane as (window start after T0, key, count, sum)."""
    out = []
    for m in read_stream(nats, "OUT"):
        row = json.loads(m["data"])
        out.append((m["msg_id"], (row["window_start"] - T0, row["key"], row["count"], row["sum"])))
    return out


def run_then_sigterm(recflow_bin, tmp_path, nats, fired, kill_at=None):
    """Starts an unbounded run, waits (polled, with a bound) until the output stream holds `fired` messages — the
    panes of the windows the last event closed, so the run read every event — then SIGTERMs it (it drains). Returns
    its exit status and stderr; with `kill_at`, the run may die at that point before or during the drain."""
    job = subprocess.Popen(command(recflow_bin, tmp_path, nats), env=environment(kill_at), stderr=subprocess.PIPE,
                           text=True)
    try:
        deadline = time.monotonic() + HANG_BOUND
        while job.poll() is None and len(published(nats)) < fired:
            assert time.monotonic() < deadline, f"{fired} panes were not published within {HANG_BOUND} s"
            time.sleep(0.05)
        if job.poll() is None:
            job.send_signal(signal.SIGTERM)
        return job.wait(timeout=HANG_BOUND), job.stderr.read()
    finally:
        if job.poll() is None:
            job.kill()
            job.wait()


def assert_generations(nats):
    """The output stream holds generation 0's panes under ids without a generation, then generation 1's under ids
    with `|g1|`, every id once."""
    out = published(nats)
    ids = [msg_id for msg_id, _ in out]
    assert len(ids) == len(set(ids)), "a Nats-Msg-Id was published twice"
    assert {pane for msg_id, pane in out if "|g" not in msg_id} == GEN0
    assert {pane for msg_id, pane in out if msg_id.startswith("out.counts|g1|w")} == GEN1
    assert len(out) == len(GEN0) + len(GEN1)


def test_a_run_started_on_a_drained_checkpoint_publishes_generation_1_panes_beside_generation_0s(recflow_bin, tmp_path,
                                                                                                nats):
    publish_events(nats, FIRST)
    publish(nats, "OUT", "out.counts", [])
    status, stderr = run_then_sigterm(recflow_bin, tmp_path, nats, len(GEN0) - 1)
    assert status == 0, stderr
    assert {pane for _, pane in published(nats)} == GEN0
    assert (checkpoint_json(tmp_path / "ckpt")["generation"], checkpoint_json(tmp_path / "ckpt")["drained"]) == (0, True)
    assert covered(tmp_path / "ckpt") == set(range(1, len(FIRST) + 1))
    assert_every_message_acknowledged(nats, len(FIRST))

    publish_events(nats, SECOND)
    status, stderr = run_then_sigterm(recflow_bin, tmp_path, nats, len(GEN0) + len(GEN1) - 1)
    assert status == 0, stderr
    assert "late" not in stderr, stderr
    # Generation 1 read only what was published after the drain (an event read again would be counted again), from
    # fresh windows (its events in windows generation 0 published are on time), under ids of its own.
    assert_generations(nats)
    checkpoint = checkpoint_json(tmp_path / "ckpt")
    assert (checkpoint["generation"], checkpoint["drained"]) == (1, True)
    assert covered(tmp_path / "ckpt") == set(range(1, len(FIRST) + len(SECOND) + 1))
    assert_every_message_acknowledged(nats, len(FIRST) + len(SECOND))
    # The union per window and key: each generation's pane of it.
    both = sorted(pane for _, pane in published(nats))
    assert [p for p in both if p[0] == 0] == [(0, "a", 1, 1), (0, "a", 2, 21), (0, "b", 1, 2)]
    assert [p for p in both if p[0] == 40_000] == [(40_000, "a", 1, 30), (40_000, "c", 1, 6), (40_000, "c", 1, 40)]


@pytest.mark.parametrize("kill_at", [
    "checkpoint-written:1",  # generation 1's first checkpoint written, its messages not acknowledged
    "checkpoint-written:2",  # a later one (the drained one when one pull brought every event)
])
def test_a_run_killed_inside_generation_1_and_restarted_publishes_each_pane_once(recflow_bin, tmp_path, nats, kill_at):
    publish_events(nats, FIRST)
    publish(nats, "OUT", "out.counts", [])
    status, stderr = run_then_sigterm(recflow_bin, tmp_path, nats, len(GEN0) - 1)
    assert status == 0, stderr
    publish_events(nats, SECOND)
    status, stderr = run_then_sigterm(recflow_bin, tmp_path, nats, len(GEN0) + len(GEN1) - 1, kill_at)
    assert status == -signal.SIGKILL, stderr
    assert checkpoint_json(tmp_path / "ckpt")["generation"] == 1
    # The restart reads on until caught up (the killed run's messages come again after their AckWait), then drains.
    done = subprocess.run(command(recflow_bin, tmp_path, nats, caught_up=True), env=environment(), capture_output=True,
                          text=True, timeout=HANG_BOUND)
    assert done.returncode == 0, done.stderr
    assert_generations(nats)
    assert_every_message_acknowledged(nats, len(FIRST) + len(SECOND))
