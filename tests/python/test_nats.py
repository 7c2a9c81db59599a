"""recflow run against a real NATS JetStream server: each test starts its own `nats-server -js` on a free loopback port
with its own store directory. The npm `nats` client (tests/node, independent of recflow's nats.c) publishes the input
and reads the output: windowed counts read from a stream equal the batch run over the same events (the differential
test), a run SIGKILLed while it publishes and then restarted leaves every pane in the output stream exactly once, and
a malformed message goes to dead letters naming its subject, stream sequence and the error."""
import json
import os
import random
import select
import shutil
import signal
import socket
import subprocess
import time

import pytest

from node_util import NODE_DIR, run_node

pytestmark = pytest.mark.skipif(shutil.which("nats-server") is None, reason="nats-server is not installed")

COUNT_SUM = 'combine_per_key: {keys: [key], aggregates: {count: "count_all()", sum: "sum(value)"}}'
SCHEMA = "{key: utf8, value: int64, ts: int64}"
T0 = 1_700_000_000_000


@pytest.fixture
def nats(tmp_path):
    """A JetStream server on a free loopback port, its store under tmp_path; yields its URL, stops it after."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(["nats-server", "-js", "-a", "127.0.0.1", "-p", str(port), "-sd", str(tmp_path / "store")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:  # poll, with a bound, until it takes connections
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert server.poll() is None, "nats-server exited"
            assert time.monotonic() < deadline, "nats-server did not listen within 30 s"
            time.sleep(0.02)
    yield f"nats://127.0.0.1:{port}"
    server.terminate()
    server.wait(timeout=30)


def publish(url, stream, subjects, messages):
    """Publishes [(subject, payload text)] with the npm client, creating the stream on `subjects` when missing."""
    lines = "".join(json.dumps({"subject": s, "data": d}) + "\n" for s, d in messages)
    done = run_node("nats_publish.mjs", url, stream, subjects, input=lines)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"published": len(messages)}


def read_stream(url, stream):
    """Every message of `stream` as the npm client reads it: dicts of seq, subject, msg_id, data."""
    done = run_node("nats_read.mjs", url, stream)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def backlog(url, stream, consumer):
    """The consumer's (num_pending, num_ack_pending) as the npm client reads them; None before it exists."""
    done = run_node("nats_consumer.mjs", url, stream, consumer)
    assert done.returncode == 0, done.stderr
    info = json.loads(done.stdout)
    return None if info is None else (info["num_pending"], info["num_ack_pending"])


def next_line(proc, others, seconds=120):
    """proc's next stdout line, polled with a bound while the processes `others` still run."""
    deadline = time.monotonic() + seconds
    while not select.select([proc.stdout], [], [], 0.1)[0]:
        for other in others:
            assert other.poll() is None, f"{other.args[0]} exited with {other.returncode}"
        assert time.monotonic() < deadline, f"no line from {proc.args[1]} within {seconds} s"
    return proc.stdout.readline().strip()


def events(n, keys, seed, spacing=20):
    """n events `spacing` ms apart and a few seconds out of order (at most 3 s behind the newest)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        key = f"k{rng.randrange(keys)}"
        out.append({"key": key, "value": rng.randrange(100), "ts": T0 + i * spacing - rng.randrange(3000)})
    return out


def streaming_pipeline(tmp_path, url, window, consumer="counts", ack_wait="10m", name="stream"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"""
steps:
  - name: events
    nats: {{url: "{url}", stream: EVENTS, consumer: {consumer}, subject: "events.>", schema: {SCHEMA},
            event_time: ts, out_of_orderness: 3s, ack_wait: {ack_wait}, until_caught_up: true}}
    dead_letter: {tmp_path / f"{name}_bad.jsonl"}
  - window: {window}
    event_time: ts
  - {COUNT_SUM}
  - write_nats: {{url: "{url}", subject: out.counts, key: [key]}}
""")
    return path


def batch_counts(run, tmp_path, evs, window):
    """The same windows and counts in batch mode over a JSON Lines file of the events (rows as dicts)."""
    data = tmp_path / "events.jsonl"
    data.write_text("".join(json.dumps(e) + "\n" for e in evs))
    out = tmp_path / "batch_out"
    path = tmp_path / "batch.yaml"
    path.write_text(f"""
steps:
  - read: {{path: {data}}}
  - window: {window}
    event_time: ts
  - {COUNT_SUM}
  - write: {{path: {out}, format: jsonl, shards: 1}}
""")
    done = run("run", path, "--quiet")
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for f in sorted(out.glob("*.jsonl")) for line in f.read_text().splitlines()]


def by_pane(rows):
    return sorted(rows, key=lambda r: (r["window_start"], r["key"], r["pane_index"]))


def test_windowed_counts_from_jetstream_equal_the_batch_run(run, tmp_path, nats):
    evs = events(2000, keys=5, seed=17)
    publish(nats, "EVENTS", "events.>", [(f"events.{e['key']}", json.dumps(e)) for e in evs])
    publish(nats, "OUT", "out.counts", [])
    done = run("run", streaming_pipeline(tmp_path, nats, "{fixed: 10s}"), "--quiet")
    assert done.returncode == 0, done.stderr
    out = read_stream(nats, "OUT")
    got = [json.loads(m["data"]) for m in out]
    want = batch_counts(run, tmp_path, evs, "{fixed: 10s}")
    assert len(want) >= 20
    assert by_pane(got) == by_pane(want)
    # Each message's id names its origin: the subject, the window, the pane and the key.
    for m, row in zip(out, got):
        assert m["msg_id"] == f'out.counts|w{row["window_start"]}-{row["window_end"]}|p{row["pane_index"]}|["{row["key"]}"]'
    # Everything read was acknowledged after the commit: nothing left, a second run finds nothing and publishes nothing.
    assert backlog(nats, "EVENTS", "counts") == (0, 0)
    again = run("run", streaming_pipeline(tmp_path, nats, "{fixed: 10s}", name="again"), "--quiet")
    assert again.returncode == 0, again.stderr
    assert len(read_stream(nats, "OUT")) == len(out)


def test_a_run_killed_while_publishing_and_restarted_publishes_every_pane_once(run, recflow_bin, tmp_path, nats):
    evs = events(20000, keys=100, seed=5, spacing=10)
    publish(nats, "EVENTS", "events.>", [(f"events.{e['key']}", json.dumps(e)) for e in evs])
    publish(nats, "OUT", "out.counts", [])
    # 1 s windows over 200 s of 100 keys: about 12 600 panes, published a batch (4096 rows) at a time.
    pipeline = streaming_pipeline(tmp_path, nats, "{fixed: 1s}", ack_wait="1s")
    observer = subprocess.Popen(["node", str(NODE_DIR / "nats_stop_on_first.mjs"), nats, "out.counts"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert next_line(observer, [observer]) == "ready"
        first = subprocess.Popen([str(recflow_bin), "run", str(pipeline), "--quiet"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        observer.stdin.write(f"{first.pid}\n")
        observer.stdin.flush()
        # The observer stops the run at its first published pane; it is then killed as a crash would.
        assert next_line(observer, [observer, first]) == "stopped"
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=60)
    finally:
        observer.kill()
        observer.wait()
    want = batch_counts(run, tmp_path, evs, "{fixed: 1s}")
    published = len(read_stream(nats, "OUT"))
    assert 1 <= published < len(want), "the run was not stopped while it published"
    # The restart gets the killed run's messages again once their AckWait (1 s) passed, and publishes every pane;
    # the stream's duplicate window drops the ones the killed run had published.
    done = run("run", pipeline, "--quiet")
    assert done.returncode == 0, done.stderr
    out = read_stream(nats, "OUT")
    ids = [m["msg_id"] for m in out]
    assert len(ids) == len(set(ids)) == len(want)
    assert by_pane([json.loads(m["data"]) for m in out]) == by_pane(want)
    assert backlog(nats, "EVENTS", "counts") == (0, 0)


def test_a_malformed_message_goes_to_dead_letters_naming_subject_sequence_and_error(run, tmp_path, nats):
    good = [{"key": "a", "value": 1, "ts": T0 + 1000}, {"key": "a", "value": 2, "ts": T0 + 2000}]
    publish(nats, "EVENTS", "events.>", [
        ("events.a", json.dumps(good[0])),
        ("events.b", "{not json"),
        ("events.a", json.dumps({"key": "a", "value": "three", "ts": T0 + 1500})),
        ("events.a", json.dumps(good[1])),
    ])
    publish(nats, "OUT", "out.counts", [])
    done = run("run", streaming_pipeline(tmp_path, nats, "{fixed: 10s}"), "--quiet")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(m["data"]) for m in read_stream(nats, "OUT")]
    assert [(r["key"], r["count"], r["sum"]) for r in rows] == [("a", 2, 3)]
    letters = [json.loads(line) for line in (tmp_path / "stream_bad.jsonl").read_text().splitlines()]
    assert [(d["step"], d["file"]) for d in letters] == [("events", f"{nats}/EVENTS")] * 2
    assert "subject events.b, stream sequence 2: invalid JSON" in letters[0]["error"]
    assert letters[0]["row"] == "{not json"
    assert "subject events.a, stream sequence 3:" in letters[1]["error"]
    assert "value" in letters[1]["error"]
    # The malformed messages were acknowledged with the others (they are in the committed dead letters).
    assert backlog(nats, "EVENTS", "counts") == (0, 0)


def test_ctrl_c_stops_an_unbounded_run_and_its_messages_are_delivered_again(run, recflow_bin, tmp_path, nats):
    evs = events(500, keys=3, seed=9)
    publish(nats, "EVENTS", "events.>", [(f"events.{e['key']}", json.dumps(e)) for e in evs])
    publish(nats, "OUT", "out.counts", [])
    unbounded = streaming_pipeline(tmp_path, nats, "{fixed: 10s}", name="unbounded")
    unbounded.write_text(unbounded.read_text().replace(", until_caught_up: true", ""))
    proc = subprocess.Popen([str(recflow_bin), "run", str(unbounded), "--quiet"], stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while backlog(nats, "EVENTS", "counts") != (0, len(evs)):  # poll, with a bound, until it holds every message
            assert proc.poll() is None, proc.stderr.read()
            assert time.monotonic() < deadline, "the run did not read the messages within 60 s"
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130, proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # Nothing was committed, so nothing was acknowledged; the messages were given back (-NAK), so the next run gets
    # them at once, not after their 10 minutes of AckWait (the run fixture gives up after 2 minutes). Panes leave as
    # they fire, so the stopped run may have published some: the rerun's carry the same Nats-Msg-Id, and the stream
    # keeps each pane once.
    done = run("run", streaming_pipeline(tmp_path, nats, "{fixed: 10s}"), "--quiet")
    assert done.returncode == 0, done.stderr
    want = batch_counts(run, tmp_path, evs, "{fixed: 10s}")
    out = read_stream(nats, "OUT")
    assert len({m["msg_id"] for m in out}) == len(out)
    assert by_pane([json.loads(m["data"]) for m in out]) == by_pane(want)
    assert backlog(nats, "EVENTS", "counts") == (0, 0)


def test_publishing_where_no_stream_listens_fails_naming_the_subject_and_the_row(run, tmp_path, nats):
    publish(nats, "EVENTS", "events.>", [("events.a", json.dumps({"key": "a", "value": 1, "ts": T0}))])
    pipeline = streaming_pipeline(tmp_path, nats, "{fixed: 10s}")
    pipeline.write_text(pipeline.read_text().replace("subject: out.counts", "subject: nowhere.counts"))
    done = run("run", pipeline, "--quiet")
    assert done.returncode == 1
    assert (f"step 'write_nats': {nats}: publishing row 0 on nowhere.counts "
            f"(Nats-Msg-Id nowhere.counts|w{T0}-{T0 + 10000}|p0|[\"a\"]): no JetStream stream takes the subject") in done.stderr
