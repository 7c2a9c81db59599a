"""Dead letters in a checkpointed watch run: a row a step before the grouping fails on (a cast's letters) and rows too
late for their window (the grouping's) go to one dead-letter file; a run SIGKILLed at a named point (between files,
after an epoch's commit, after a checkpoint, or with an hour between checkpoints so that committed epochs are taken
back), then restarted, leaves the letters of an uninterrupted run byte for byte (each once: none lost, none twice)
beside its output files; the next generation (a restart on a drained run's checkpoint, with new files) keeps them and
appends its own; a letters file shorter than the checkpoint says is refused naming it; dead letters after the grouping
are still refused before any row is read."""
import json
import signal

import pytest

from test_checkpoint import files, run_watch, watched_rows

def pipeline(tmp_path, name):
    """The six files of test_checkpoint.pipeline (each row's value also as text, `n`), the third and fifth with a row
    too late for its window (which closed two files before) and the fourth with a row whose `n` is no number, watched
    into a cast of `n` and a combine per 10-second window, which write their letters to tmp_path/<name>-letters.jsonl."""
    inbox = tmp_path / "in"
    if not inbox.exists():
        inbox.mkdir()
        for i in range(1, 7):
            rows = watched_rows(i)
            if i in (3, 5):
                rows.insert(1, {"ts": (i - 3) * 10000 + 100, "key": "late", "v": i})
            rows = [{**r, "n": str(r["v"])} for r in rows]
            if i == 4:
                rows.insert(2, {"ts": i * 10000 + 800, "key": "a", "v": 0, "n": "x"})
            (inbox / f"f{i}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    letters = tmp_path / f"{name}-letters.jsonl"
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"""
steps:
  - watch: {{path: {inbox}, format: jsonl, event_time: ts, poll: 20ms}}
  - cast: {{columns: {{n: int64}}}}
    dead_letter: {letters}
  - window: {{fixed: 10s}}
  - combine_per_key: {{keys: [key], aggregates: {{count: "count_all()", sum: "sum(v)"}}}}
    dead_letter: {letters}
  - write: {{path: {tmp_path / name}, format: jsonl, shards: 1}}
""")
    return path, letters


def letter_lines(letters):
    return [json.loads(line) for line in letters.read_text().splitlines()]


@pytest.fixture
def reference(recflow_bin, tmp_path):
    """The output files and the letters of an uninterrupted checkpointed run: the two late rows and the cast's, each
    naming its file and record, in input order."""
    path, letters = pipeline(tmp_path, "ref")
    done = run_watch(recflow_bin, path, tmp_path / "ref-ckpt")
    assert done.returncode == 0, done.stderr
    got = letter_lines(letters)
    assert [(d["step"], d["file"].rsplit("/", 1)[1], d["record"]) for d in got] == [
        ("combine_per_key", "f3.jsonl", 1), ("cast", "f4.jsonl", 2), ("combine_per_key", "f5.jsonl", 1)], got
    assert got[0]["error"].startswith("late data: event time 100 is too late") and got[0]["row"]["key"] == "late"
    assert "cannot parse 'x'" in got[1]["error"] and got[1]["row"]["n"] == "x"
    return files(tmp_path / "ref"), letters.read_bytes()


@pytest.mark.parametrize("kill_at,interval", [
    ("watch-file:4", "0"),           # between files, an epoch open, the first late row's letter written
    ("epoch-committed:3", "0"),      # an epoch committed after the first letter, its checkpoint not written
    ("epoch-files-committed:4", "0"),  # the same point for the files steps write per row (none here)
    ("checkpoint-written:5", "0"),   # right after a checkpoint covering two letters
    ("epoch-committed:7", "0"),      # the drain's epoch committed, its checkpoint not written
    ("epoch-committed:5", "3600"),   # only the first run's empty checkpoint: epochs and letters all taken back
])
def test_a_killed_and_restarted_run_leaves_each_dead_letter_once(recflow_bin, tmp_path, reference, kill_at, interval):
    want_files, want_letters = reference
    path, letters = pipeline(tmp_path, "out")
    killed = run_watch(recflow_bin, path, tmp_path / "ckpt", kill_at, interval)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    done = run_watch(recflow_bin, path, tmp_path / "ckpt", interval=interval)
    assert done.returncode == 0, done.stderr
    assert files(tmp_path / "out") == want_files
    assert letters.read_bytes() == want_letters
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no hidden copy of the letters left


def test_the_next_generation_keeps_the_letters_and_appends_its_own(recflow_bin, tmp_path, reference):
    _, want_letters = reference
    path, letters = pipeline(tmp_path, "out")
    assert run_watch(recflow_bin, path, tmp_path / "ckpt").returncode == 0
    saved = json.loads((tmp_path / "ckpt" / "checkpoint").read_bytes().split(b"\n", 1)[1])
    assert saved["drained"] and saved["letters"] == {str(letters): len(want_letters)}
    # The next generation's windows and watermark start fresh: f7 moves its watermark on, f8's first row is late.
    (tmp_path / "in" / "f7.jsonl").write_text(json.dumps({"ts": 70500, "key": "a", "v": 7, "n": "7"}) + "\n")
    (tmp_path / "in" / "f8.jsonl").write_text(json.dumps({"ts": 100, "key": "later", "v": 8, "n": "8"}) + "\n" +
                                              json.dumps({"ts": 80500, "key": "a", "v": 8, "n": "8"}) + "\n")
    done = run_watch(recflow_bin, path, tmp_path / "ckpt")
    assert done.returncode == 0, done.stderr
    got = letters.read_bytes()
    assert got.startswith(want_letters)
    added = [json.loads(line) for line in got[len(want_letters):].decode().splitlines()]
    assert [(d["step"], d["file"].rsplit("/", 1)[1], d["record"], d["row"]["key"]) for d in added] == [
        ("combine_per_key", "f8.jsonl", 0, "later")], added
    saved = json.loads((tmp_path / "ckpt" / "checkpoint").read_bytes().split(b"\n", 1)[1])
    assert saved["generation"] == 1 and saved["letters"] == {str(letters): len(got)}


def test_letters_shorter_than_the_checkpoint_says_are_refused_naming_the_file(recflow_bin, tmp_path, reference):
    path, letters = pipeline(tmp_path, "out")
    killed = run_watch(recflow_bin, path, tmp_path / "ckpt", "checkpoint-written:5")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    saved = json.loads((tmp_path / "ckpt" / "checkpoint").read_bytes().split(b"\n", 1)[1])
    length = saved["letters"][str(letters)]
    assert length > 0
    letters.write_bytes(letters.read_bytes()[:length - 1])
    done = run_watch(recflow_bin, path, tmp_path / "ckpt")
    assert done.returncode == 1, done.stderr
    assert str(letters) in done.stderr and f"where the checkpoint says {length}" in done.stderr, done.stderr


def test_dead_letters_after_the_grouping_are_still_refused(recflow_bin, tmp_path):
    # The stage writing the panes makes its epochs again from the grouping's state after a restart: no position says
    # which of its letters were written, so a checkpoint cannot keep them to a length.
    path, letters = pipeline(tmp_path, "out")
    path.write_text(path.read_text().replace("  - write:", f"  - select: [key, count]\n    dead_letter: {letters}\n"
                                                           "  - write:"))
    done = run_watch(recflow_bin, path, tmp_path / "ckpt")
    assert done.returncode == 2, done.stderr
    assert "no dead letters" in done.stderr and "without --checkpoint" in done.stderr, done.stderr
    assert not (tmp_path / "out").exists()



def test_dead_letters_on_standard_output_are_refused(recflow_bin, tmp_path):
    path, letters = pipeline(tmp_path, "out")
    path.write_text(path.read_text().replace(f"dead_letter: {letters}", 'dead_letter: "-"'))
    done = run_watch(recflow_bin, path, tmp_path / "ckpt")
    assert done.returncode == 2, done.stderr
    assert "standard output" in done.stderr and "without --checkpoint" in done.stderr, done.stderr
