"""Dead letters in a checkpointed NATS run against a real nats-server (each test starts its own on a loopback port):
malformed messages (the read's letters) and events too late for their window (the grouping's, past allowed lateness)
go to one dead-letter file; a run SIGKILLed after an epoch's commit, after an epoch's files, after a checkpoint, or
with an hour between checkpoints (committed epochs taken back), then restarted, leaves each malformed message's letter
exactly once (naming its subject and stream sequence), every line whole, and the windows of an uninterrupted run; each
late event is dead-lettered once or, when the restart's redelivery brought it before the watermark passed its window
(the read's watermark starts again from the messages it reads), in its window once — never both, never neither."""
import json
import signal

import pytest

from test_nats import batch_counts, by_pane, events, nats, nats_server, publish, pytestmark  # noqa: F401 (fixtures)
from test_nats_checkpoint import file_rows, pipeline, run_checkpointed

WINDOW = "{fixed: 1s}"
MALFORMED = {700: "{not json", 2200: '{"key": "k1", "value": "seven", "ts": 1}'}  # by index among the messages
LATE = (1500, 2500)  # events whose window closed seconds before they come


@pytest.fixture
def messages(nats):
    """3 000 events over 30 s of event time, with two malformed messages and two events 10 s behind the others
    (allowed lateness 0) among them, published before the runs: the events, the bad messages' stream sequences and
    the late ones'."""
    evs = events(3000, keys=20, seed=11, spacing=10)
    out, malformed, late, on_time = [], set(), set(), []
    for i, e in enumerate(evs):
        if i in MALFORMED:
            out.append((f"events.{e['key']}", MALFORMED[i]))
            malformed.add(len(out))
        if i in LATE:
            out.append((f"events.{e['key']}", json.dumps({"key": "late", "value": i, "ts": e["ts"] - 10_000})))
            late.add(len(out))
        out.append((f"events.{e['key']}", json.dumps(e)))
        on_time.append(e)
    publish(nats, "EVENTS", "events.>", out)
    publish(nats, "OUT", "out.counts", [])
    return on_time, malformed, late


def letters_pipeline(tmp_path, url, name):
    """test_nats_checkpoint.pipeline (JSON Lines files) with the read's and the grouping's letters in one file."""
    letters = tmp_path / f"{name}-letters.jsonl"
    path = pipeline(tmp_path, url, name, "files")
    text = path.read_text().replace("  - window:", f"    dead_letter: {letters}\n  - window:")
    text = text.replace("  - write:", f"    name: counts\n    dead_letter: {letters}\n  - write:")
    assert text.count("dead_letter") == 2 and text.index("name: counts") > text.index("combine_per_key")
    path.write_text(text)
    return path, letters


def assert_each_bad_message_once(letters, out, on_time, malformed):
    """Every line of `letters` a whole letter; each malformed message's once (its subject and stream sequence in the
    error); each late event (key "late", its index as value) once, either dead-lettered (its row naming its subject and
    sequence) or, when a restart's redelivery brought it before the watermark passed its window, in a window of its
    own; the other windows (`out`'s rows) the batch run's over the events on time. Returns the late events'
    letters."""
    text = letters.read_text()
    assert text.endswith("\n")
    got = [json.loads(line) for line in text.splitlines()]
    bad = [d for d in got if d["step"] == "events"]
    assert sorted(int(d["error"].split("stream sequence ")[1].split(":")[0]) for d in bad) == sorted(malformed), got
    assert all(d["error"].startswith("subject events.k") for d in bad), bad
    dropped = [d for d in got if d["step"] == "counts"]
    assert len(bad) + len(dropped) == len(got), got
    for d in dropped:
        assert d["error"].startswith("late data:") and d["row"]["key"] == "late", d
        assert d["row"]["nats_subject"].startswith("events.k") and d["row"]["nats_sequence"] > 0, d
    windowed = [r for r in out if r["key"] == "late"]
    assert all(r["count"] == 1 for r in windowed), windowed
    assert sorted([d["row"]["value"] for d in dropped] + [r["sum"] for r in windowed]) == sorted(LATE)
    rest = [r for r in out if r["key"] != "late"]
    assert len({(r["window_start"], r["key"]) for r in rest}) == len(rest), "a window was written twice"
    assert by_pane(rest) == by_pane(on_time)
    return dropped


def test_an_uninterrupted_run_writes_each_bad_messages_letter_once(recflow_bin, run, tmp_path, nats, messages):
    evs, malformed, late = messages
    path, letters = letters_pipeline(tmp_path, nats, "out")
    done = run_checkpointed(recflow_bin, path, tmp_path / "ckpt")
    assert done.returncode == 0, done.stderr
    dropped = assert_each_bad_message_once(letters, file_rows(tmp_path / "out"),
                                           batch_counts(run, tmp_path, evs, WINDOW), malformed)
    assert sorted(d["row"]["nats_sequence"] for d in dropped) == sorted(late)  # read in order: both late
    saved = json.loads((tmp_path / "ckpt" / "checkpoint").read_bytes().split(b"\n", 1)[1])
    assert saved["letters"] == {str(letters): letters.stat().st_size}


@pytest.mark.parametrize("kill_at,interval", [
    ("epoch-committed:10", "0"),        # an epoch committed, its checkpoint not written: taken back
    ("epoch-files-committed:16", "0"),  # an epoch's dataset committed, its checkpoint not written
    ("checkpoint-written:14", "0"),     # a checkpoint written, its messages not acknowledged
    ("checkpoint-written:22", "0"),     # later: two letters before it, two after it
    ("epoch-committed:20", "3600"),     # only the first run's empty checkpoint: every epoch and letter taken back
])
def test_a_killed_and_restarted_run_writes_each_bad_messages_letter_once(recflow_bin, run, tmp_path, nats, messages,
                                                                         kill_at, interval):
    evs, malformed, _ = messages
    path, letters = letters_pipeline(tmp_path, nats, "out")
    killed = run_checkpointed(recflow_bin, path, tmp_path / "ckpt", kill_at, interval=interval)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    done = run_checkpointed(recflow_bin, path, tmp_path / "ckpt", interval=interval)
    assert done.returncode == 0, done.stderr
    assert_each_bad_message_once(letters, file_rows(tmp_path / "out"), batch_counts(run, tmp_path, evs, WINDOW),
                                 malformed)
