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
from pathlib import Path

import pytest

from nats_cut_proxy import NatsCutProxy
from node_util import NODE_DIR, run_node

pytestmark = pytest.mark.skipif(shutil.which("nats-server") is None, reason="nats-server is not installed")

COUNT_SUM = 'combine_per_key: {keys: [key], aggregates: {count: "count_all()", sum: "sum(value)"}}'
SCHEMA = "{key: utf8, value: int64, ts: int64}"
T0 = 1_700_000_000_000


class NatsServer:
    """`nats-server -js` on a loopback port with its store under a directory; restart() stops it (by `sig`) and starts
    it again on the same port and store (a server restart mid-stream)."""

    def __init__(self, store):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.store = store
        self.url = f"nats://127.0.0.1:{self.port}"
        self.process = None
        self.start()

    def start(self):
        self.process = subprocess.Popen(["nats-server", "-js", "-a", "127.0.0.1", "-p", str(self.port), "-sd", str(self.store)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:  # poll, with a bound, until it takes connections
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                assert self.process.poll() is None, "nats-server exited"
                assert time.monotonic() < deadline, "nats-server did not listen within 30 s"
                time.sleep(0.02)

    def stop(self, sig=signal.SIGTERM):
        self.process.send_signal(sig)
        self.process.wait(timeout=30)

    def restart(self, sig=signal.SIGTERM):
        self.stop(sig)
        self.start()


@pytest.fixture
def nats_server(tmp_path):
    """A JetStream server on a free loopback port, its store under tmp_path; stopped after the test."""
    server = NatsServer(tmp_path / "store")
    yield server
    server.stop()


@pytest.fixture
def nats(nats_server):
    """The URL of the test's JetStream server."""
    return nats_server.url


def publish_lines(messages):
    return "".join(json.dumps({"subject": s, "data": d}) + "\n" for s, d in messages)


def publish(url, stream, subjects, messages, duplicate_window_s=120):
    """Publishes [(subject, payload text)] with the npm client, creating the stream on `subjects` when missing (with
    that duplicate window)."""
    done = run_node("nats_publish.mjs", url, stream, subjects, str(duplicate_window_s), input=publish_lines(messages))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"published": len(messages)}


def read_stream(url, stream):
    """Every message of `stream` as the npm client reads it: dicts of seq, subject, msg_id, data."""
    done = run_node("nats_read.mjs", url, stream)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def consumer_info(url, stream, consumer):
    """The consumer's num_pending, num_ack_pending and ack_floor as the npm client reads them; None before it exists."""
    done = run_node("nats_consumer.mjs", url, stream, consumer)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def backlog(url, stream, consumer):
    """The consumer's (num_pending, num_ack_pending); None before it exists."""
    info = consumer_info(url, stream, consumer)
    return None if info is None else (info["num_pending"], info["num_ack_pending"])


def wait_for_backlog(nats, job, want, what):
    """Polls, with a bound, until the consumer's backlog is `want` while the run `job` still runs."""
    deadline = time.monotonic() + 60
    while backlog(nats, "EVENTS", "counts") != want:
        assert job.poll() is None, job.stderr.read()
        assert time.monotonic() < deadline, f"the run did not {what} within 60 s: backlog {backlog(nats, 'EVENTS', 'counts')}"


def kill_if_running(proc):
    if proc.poll() is None:
        proc.kill()
        proc.wait()


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


def streaming_pipeline(tmp_path, url, window, consumer="counts", ack_wait="10m", name="stream", source_extra="",
                       sink_url=None, sink_extra=""):
    """The events' windowed counts read from `url` and published to OUT on `sink_url` (default: `url`)."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"""
steps:
  - name: events
    nats: {{url: "{url}", stream: EVENTS, consumer: {consumer}, subject: "events.>", schema: {SCHEMA},
            event_time: ts, out_of_orderness: 3s, ack_wait: {ack_wait}, until_caught_up: true{source_extra}}}
    dead_letter: {tmp_path / f"{name}_bad.jsonl"}
  - window: {window}
    event_time: ts
  - {COUNT_SUM}
  - write_nats: {{url: "{sink_url or url}", subject: out.counts, key: [key]{sink_extra}}}
""")
    return path


def unbounded_pipeline(tmp_path, url, window, **kwargs):
    """streaming_pipeline without until_caught_up: the run never ends by itself."""
    path = streaming_pipeline(tmp_path, url, window, name="unbounded", **kwargs)
    path.write_text(path.read_text().replace(", until_caught_up: true", ""))
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


def caught_up_run_publishes_every_pane_once(run, tmp_path, nats, evs, window):
    """A caught-up run over the consumer publishes the oracle's panes, the output stream then holds each once, and
    every message is acknowledged. (Not num_pending == 0: after a delivery to a killed run's pull nats-server 2.9 can
    count the last message as pending although it is acknowledged.)"""
    done = run("run", streaming_pipeline(tmp_path, nats, window), "--quiet")
    assert done.returncode == 0, done.stderr
    assert_every_pane_once(nats, batch_counts(run, tmp_path, evs, window))
    assert_every_message_acknowledged(nats, len(evs))


def assert_every_message_acknowledged(nats, n):
    """The consumer's ack floor is at the last of the n messages and none waits for its acknowledgement."""
    info = consumer_info(nats, "EVENTS", "counts")
    assert (info["ack_floor"], info["num_ack_pending"]) == (n, 0)


def assert_every_pane_once(nats, want):
    """The output stream holds each of the oracle's panes exactly once (one message per Nats-Msg-Id), nothing else."""
    out = read_stream(nats, "OUT")
    ids = [m["msg_id"] for m in out]
    assert len(ids) == len(set(ids)), "a pane was published twice"
    assert len(ids) == len(want)
    assert by_pane([json.loads(m["data"]) for m in out]) == by_pane(want)



def test_the_reply_to_the_last_acknowledgement_confirms_every_one_before_it(nats):
    # What the source's AckSync rests on: a run's end, and each checkpoint, send a plain "+ACK" per message and ask the
    # server's reply for the last only. 20 000 held messages acknowledged so: right after the reply, none is pending.
    done = run_node("nats_ack_order.mjs", nats, "20000")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"acked": 20000, "num_ack_pending": 0, "ack_floor": 20000}


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
    evs = events(6000, keys=100, seed=5, spacing=10)
    publish(nats, "EVENTS", "events.>", [(f"events.{e['key']}", json.dumps(e)) for e in evs])
    publish(nats, "OUT", "out.counts", [])
    # 1 s windows over 60 s of 100 keys: about 4 500 panes, published a batch at a time.
    pipeline = streaming_pipeline(tmp_path, nats, "{fixed: 1s}", ack_wait="10s")
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
    # The restart gets the killed run's messages again once their AckWait passed (10 s: the restarted run restarts the
    # AckWait of what it holds every 5 s, a margin against pauses of a loaded machine), and publishes every pane; the
    # stream's duplicate window drops the ones the killed run had published.
    done = run("run", pipeline, "--quiet")
    assert done.returncode == 0, done.stderr
    assert_every_pane_once(nats, want)
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


def unbounded_run_holding_every_message(recflow_bin, tmp_path, nats, evs):
    """An unbounded run (10 s windows, panes to OUT) started once `evs` are published, returned once it read them all
    (every message delivered to it and unacknowledged)."""
    publish(nats, "EVENTS", "events.>", [(f"events.{e['key']}", json.dumps(e)) for e in evs])
    publish(nats, "OUT", "out.counts", [])
    unbounded = unbounded_pipeline(tmp_path, nats, "{fixed: 10s}")
    proc = subprocess.Popen([str(recflow_bin), "run", str(unbounded), "--quiet"], stderr=subprocess.PIPE, text=True)
    try:
        wait_for_backlog(nats, proc, (0, len(evs)), "read the messages")
    except BaseException:
        kill_if_running(proc)
        raise
    return proc


def test_a_first_ctrl_c_drains_an_unbounded_run_which_publishes_every_pane_and_acknowledges_every_message(
        run, recflow_bin, tmp_path, nats):
    evs = events(500, keys=3, seed=9)
    proc = unbounded_run_holding_every_message(recflow_bin, tmp_path, nats, evs)
    try:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 0, proc.stderr.read()
        assert "draining" in proc.stderr.read()
    finally:
        kill_if_running(proc)
    # The drain ended the input as its end would: every window fired, its pane was published, and the run, committed,
    # acknowledged every message it read.
    assert_every_pane_once(nats, batch_counts(run, tmp_path, evs, "{fixed: 10s}"))
    assert_every_message_acknowledged(nats, len(evs))


def test_a_second_signal_cancels_the_drain_and_the_messages_are_delivered_again(run, recflow_bin, tmp_path, nats):
    evs = events(500, keys=3, seed=9)
    proc = unbounded_run_holding_every_message(recflow_bin, tmp_path, nats, evs)
    try:
        # Both signals wait while the run is stopped, so the second one comes before the drain can end: the
        # termination thread takes SIGINT first (the drain), then SIGTERM (the cancel).
        proc.send_signal(signal.SIGSTOP)
        proc.send_signal(signal.SIGINT)
        proc.send_signal(signal.SIGTERM)
        proc.send_signal(signal.SIGCONT)
        assert proc.wait(timeout=60) == 143, proc.stderr.read()
    finally:
        kill_if_running(proc)
    # Nothing was committed, so nothing was acknowledged; the messages were given back (-NAK), so the next run gets
    # them at once, not after their 10 minutes of AckWait (the run fixture gives up after 2 minutes). Panes leave as
    # they fire, so the cancelled drain may have published some: the rerun's carry the same Nats-Msg-Id, and the
    # stream keeps each pane once.
    assert consumer_info(nats, "EVENTS", "counts")["ack_floor"] == 0
    caught_up_run_publishes_every_pane_once(run, tmp_path, nats, evs, "{fixed: 10s}")


def test_stop_after_idle_ends_a_nats_read_and_the_run_acknowledges_what_it_read(run, tmp_path, nats):
    evs = events(300, keys=3, seed=4)
    publish(nats, "EVENTS", "events.>", [(f"events.{e['key']}", json.dumps(e)) for e in evs])
    publish(nats, "OUT", "out.counts", [])
    # Without the flag the unbounded run never ends (the run fixture gives up after 2 minutes).
    done = run("run", unbounded_pipeline(tmp_path, nats, "{fixed: 10s}"), "--stop-after-idle", "5", "--quiet")
    assert done.returncode == 0, done.stderr
    assert_every_pane_once(nats, batch_counts(run, tmp_path, evs, "{fixed: 10s}"))
    assert_every_message_acknowledged(nats, len(evs))


def test_publishing_where_no_stream_listens_fails_naming_the_subject_and_the_row(run, tmp_path, nats):
    publish(nats, "EVENTS", "events.>", [("events.a", json.dumps({"key": "a", "value": 1, "ts": T0}))])
    pipeline = streaming_pipeline(tmp_path, nats, "{fixed: 10s}")
    pipeline.write_text(pipeline.read_text().replace("subject: out.counts", "subject: nowhere.counts"))
    done = run("run", pipeline, "--quiet")
    assert done.returncode == 1
    assert (f"step 'write_nats': {nats}: publishing row 0 on nowhere.counts "
            f"(Nats-Msg-Id nowhere.counts|w{T0}-{T0 + 10000}|p0|[\"a\"]): no JetStream stream takes the subject") in done.stderr


def test_a_nats_server_restarted_mid_stream_is_reconnected_to_and_the_output_is_complete(run, recflow_bin, tmp_path,
                                                                                         nats_server):
    nats = nats_server.url
    evs = events(4000, keys=20, seed=11)
    first, second = evs[:2000], evs[2000:]
    publish(nats, "EVENTS", "events.>", [(f"events.{e['key']}", json.dumps(e)) for e in first])
    publish(nats, "OUT", "out.counts", [])
    # Its pulls expire after 5 minutes: one lost with the server is not noticed by its expiry within the test's bounds,
    # so the run must issue it again because it reconnected.
    unbounded = unbounded_pipeline(tmp_path, nats, "{fixed: 10s}", source_extra=", expires: 5m")
    job = subprocess.Popen([str(recflow_bin), "run", str(unbounded), "--quiet"], stderr=subprocess.PIPE, text=True)
    try:
        # Holding every message, the run waits on a pull the server keeps; the server is killed (it cannot end that
        # pull with a status, as a graceful stop does) and started again on the same port and store.
        wait_for_backlog(nats, job, (0, len(first)), "read the first messages")
        nats_server.restart(signal.SIGKILL)
        publish(nats, "EVENTS", "events.>", [(f"events.{e['key']}", json.dumps(e)) for e in second])
        wait_for_backlog(nats, job, (0, len(evs)), "read the messages published after the restart")
        job.send_signal(signal.SIGINT)
        assert job.wait(timeout=60) == 0, job.stderr.read()
    finally:
        kill_if_running(job)
    # Drained, the run published the panes of every message, before and after the restart, and acknowledged them all.
    assert_every_pane_once(nats, batch_counts(run, tmp_path, evs, "{fixed: 10s}"))
    assert_every_message_acknowledged(nats, len(evs))


def test_publishes_whose_acknowledgements_were_lost_with_the_connection_are_sent_again_and_kept_once(run, tmp_path,
                                                                                                    nats_server):
    nats = nats_server.url
    evs = events(2000, keys=5, seed=23)
    publish(nats, "EVENTS", "events.>", [(f"events.{e['key']}", json.dumps(e)) for e in evs])
    publish(nats, "OUT", "out.counts", [])
    want = batch_counts(run, tmp_path, evs, "{fixed: 10s}")
    # write_nats publishes through a proxy that cuts its connection right after the 3rd pane reached the server: the
    # stream takes that pane but its acknowledgement never comes back, and what the sink sent after it is lost with
    # the connection. The sink reconnects, sends again every message of the batch not acknowledged within its timeout,
    # and the stream's duplicate window drops the second copy of the 3rd. (Without the re-send the run fails: "no
    # acknowledgement within 2000 ms".)
    proxy = NatsCutProxy(nats_server.port, "out.counts", 3)
    try:
        pipeline = streaming_pipeline(tmp_path, nats, "{fixed: 10s}", sink_url=proxy.url, sink_extra=", timeout: 2s")
        done = run("run", pipeline, "--quiet")
    finally:
        proxy.close()
    assert proxy.cut.is_set(), "the proxy did not cut the connection"
    assert done.returncode == 0, done.stderr
    assert len(want) > 3
    assert_every_pane_once(nats, want)
    assert_every_message_acknowledged(nats, len(evs))


# bench/nats_kill_trials.sh runs the proof with these: 20 trials while 100 000 events are published.
KILL_TRIALS = int(os.environ.get("RECFLOW_NATS_KILL_TRIALS", "3"))
KILL_EVENTS = int(os.environ.get("RECFLOW_NATS_KILL_EVENTS", "5000"))
KILL_SEED = int(os.environ.get("RECFLOW_NATS_KILL_SEED", "41"))


def kill_runs_at_random_moments(recflow_bin, tmp_path, nats, command):
    """Publishes KILL_EVENTS events (returned) while KILL_TRIALS runs of `command` (the arguments after the binary: an
    unbounded run) are each SIGKILLed at a random moment."""
    evs = events(KILL_EVENTS, keys=100, seed=KILL_SEED, spacing=10)
    publish(nats, "EVENTS", "events.>", [])
    publish(nats, "OUT", "out.counts", [], duplicate_window_s=3600)  # longer than all the trials
    rng = random.Random(KILL_SEED)
    messages = tmp_path / "messages.jsonl"
    messages.write_text(publish_lines([(f"events.{e['key']}", json.dumps(e)) for e in evs]))
    with messages.open() as lines:
        publisher = subprocess.Popen(["node", str(NODE_DIR / "nats_publish.mjs"), nats, "EVENTS", "events.>"],
                                     stdin=lines, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(KILL_TRIALS):
            job = subprocess.Popen([str(recflow_bin), *map(str, command)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            try:
                job.wait(timeout=rng.uniform(0.3, 3.0))  # a random moment: the unbounded run does not end by itself
            except subprocess.TimeoutExpired:
                pass
            assert job.poll() is None, job.stderr.read()
            job.send_signal(signal.SIGKILL)
            job.wait(timeout=60)
        published, errors = publisher.communicate(timeout=600)
        assert publisher.returncode == 0, errors
        assert json.loads(published) == {"published": len(evs)}
    finally:
        kill_if_running(publisher)
    return evs


def test_runs_killed_at_random_moments_while_events_are_published_leave_exactly_the_oracles_windows(
        run, recflow_bin, tmp_path, nats):
    unbounded = unbounded_pipeline(tmp_path, nats, "{fixed: 1s}", ack_wait="10s")
    evs = kill_runs_at_random_moments(recflow_bin, tmp_path, nats, ["run", unbounded, "--quiet"])
    # The last run catches up with everything the killed runs left unacknowledged and publishes every window; the
    # stream's duplicate window drops the panes the killed runs had published.
    caught_up_run_publishes_every_pane_once(run, tmp_path, nats, evs, "{fixed: 1s}")


def test_a_pull_the_consumer_refuses_fails_the_run_naming_the_409(run, tmp_path, nats):
    publish(nats, "EVENTS", "events.>", [("events.a", json.dumps({"key": "a", "value": i, "ts": T0})) for i in range(20)])
    # An existing consumer is used as it is: this one takes pulls of at most 10 messages, the source asks for 20 (what
    # it is owed: a caught-up run asks no more; its batch is 256).
    config = {"durable_name": "counts", "ack_policy": "explicit", "filter_subject": "events.>", "max_batch": 10}
    done = run_node("nats_add_consumer.mjs", nats, "EVENTS", json.dumps(config))
    assert done.returncode == 0, done.stderr
    done = run("run", streaming_pipeline(tmp_path, nats, "{fixed: 10s}"), "--quiet")
    assert done.returncode == 1
    assert (f"{nats}/EVENTS, consumer counts: the server refused the pull: 409 Exceeded MaxRequestBatch of 10"
            in done.stderr), done.stderr


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "streaming" / "window-counts.yaml"


def example_windows(evs, window):
    """The example's rows computed here: per key, 60-second fixed windows or sessions with a 60-second gap."""
    rows = []
    for key in sorted({e["key"] for e in evs}):
        windows = []  # [start, end, count, sum], in time order
        for e in sorted((e for e in evs if e["key"] == key), key=lambda e: e["ts"]):
            start = e["ts"] - e["ts"] % 60000 if window == "fixed" else e["ts"]
            if windows and (windows[-1][0] == start if window == "fixed" else e["ts"] < windows[-1][1]):
                windows[-1][1] = max(windows[-1][1], start + 60000)
                windows[-1][2] += 1
                windows[-1][3] += e["value"]
            else:
                windows.append([start, start + 60000, 1, float(e["value"])])
        rows += [{"window_start": w[0], "window_end": w[1], "key": key, "count": w[2], "sum": w[3]} for w in windows]
    return sorted(rows, key=lambda r: (r["window_start"], r["key"]))


@pytest.mark.parametrize("window", ["fixed", "sessions"])
def test_the_window_counts_example_writes_each_windows_count_and_sum(run, tmp_path, nats, window):
    rng = random.Random(3)
    ts = T0
    evs = []
    for _ in range(400):  # gaps of up to 90 s, so some sessions end and others run on
        ts += rng.choice([500, 2000, 9000, 30000, 90000])
        evs.append({"key": rng.choice(["red", "green", "blue"]), "value": rng.randrange(-50, 100), "ts": ts})
    publish(nats, "EVENTS", "events.>", [(f"events.{e['key']}", json.dumps(e)) for e in evs])
    out = tmp_path / "counts"
    args = ["--set", f"nats={nats}", "--set", "subject=events.>", "--set", f"out={out}", "--quiet"]
    if window == "sessions":
        args += ["--set", "window=sessions"]
    done = run("run", EXAMPLE, *args)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for f in sorted(out.glob("*.jsonl")) for line in f.read_text().splitlines()]
    assert sorted(rows, key=lambda r: (r["window_start"], r["key"])) == example_windows(evs, window)
    assert all(list(r) == ["window_start", "window_end", "key", "count", "sum"] for r in rows)
    assert backlog(nats, "EVENTS", "window-counts") == (0, 0)
