"""recflow run --checkpoint on a directory watch: a run killed (SIGKILL, at a named point through RECFLOW_KILL_AT)
between files, before an epoch commits, between an epoch's commit and its checkpoint, or right after a checkpoint,
then restarted, leaves exactly the files an uninterrupted run leaves, byte for byte, for a combine (accumulators in
the snapshot) and a group_by_key (rows in the snapshot); the restart resumes from the window state the checkpoint
saved and never reads the files it covers again; a corrupt or half-written checkpoint or state file is refused
naming its file."""
import json
import os
import signal
import subprocess

import pytest

HANG_BOUND = 60  # seconds: a bound on a hang, not a timing


GROUPINGS = {
    "combine": '- combine_per_key: {keys: [key], aggregates: {count: "count_all()", sum: "sum(v)"}}',
    "group_by_key": "- group_by_key: {keys: [key]}",
}
STEPS = {"combine": "combine_per_key", "group_by_key": "group_by_key"}  # the grouping's step name (its state's key)


def watched_rows(i):
    """The rows of the i-th watched file (from 1): two in window i, one in window i - 1 (which the file closes)."""
    return [{"ts": i * 10000 + 500, "key": "a", "v": i}, {"ts": i * 10000 + 700, "key": f"k{i % 2}", "v": 1},
            {"ts": (i - 1) * 10000 + 9900, "key": "b", "v": i}]


def pipeline(tmp_path, name, grouping="combine"):
    """Six files in the watched directory, each closing the window of the one before, whose rows come from both files
    (so the window state a checkpoint saves between them holds rows or accumulators)."""
    inbox = tmp_path / "in"
    if not inbox.exists():
        inbox.mkdir()
        for i in range(1, 7):
            (inbox / f"f{i}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in watched_rows(i)))
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"""
steps:
  - watch: {{path: {inbox}, format: jsonl, event_time: ts, poll: 20ms}}
  - window: {{fixed: 10s}}
  {GROUPINGS[grouping]}
  - write: {{path: {tmp_path / name}, format: jsonl, shards: 1}}
""")
    return path


def environment(kill_at=None):
    """The environment of a run: the test's, with RECFLOW_KILL_AT set to `kill_at` (or unset)."""
    env = dict(os.environ)
    env.pop("RECFLOW_KILL_AT", None)
    if kill_at:
        env["RECFLOW_KILL_AT"] = kill_at
    return env


def run_watch(recflow_bin, path, checkpoint, kill_at=None, interval="0"):
    return subprocess.run([str(recflow_bin), "run", str(path), "--quiet", "--stop-after-idle", "0.3",
                           "--checkpoint", str(checkpoint), "--checkpoint-interval", interval], env=environment(kill_at), capture_output=True, text=True,
                          timeout=HANG_BOUND)


def files(out):
    """The dataset's data files: name -> bytes."""
    return {f.name: f.read_bytes() for f in sorted(out.glob("*.jsonl"))}


@pytest.fixture(params=sorted(GROUPINGS))
def grouping(request):
    return request.param


@pytest.fixture
def reference(recflow_bin, tmp_path, grouping):
    """The files of an uninterrupted checkpointed run."""
    done = run_watch(recflow_bin, pipeline(tmp_path, "ref", grouping), tmp_path / "ref-ckpt")
    assert done.returncode == 0, done.stderr
    out = files(tmp_path / "ref")
    assert len(out) == 7, sorted(out)  # an epoch per file (each closes the window before it), and the drain's
    return out


@pytest.mark.parametrize("kill_at", [
    "watch-file:1",          # before anything was committed
    "watch-file:4",          # between files, an epoch open
    "epoch-committed:1",     # the first epoch committed, no checkpoint yet
    "epoch-committed:3",     # an epoch committed, its checkpoint not written
    "checkpoint-written:5",  # right after a checkpoint
    "epoch-committed:7",     # the drain's epoch committed, its checkpoint not written
])
def test_a_run_killed_and_restarted_leaves_the_files_of_an_uninterrupted_run(recflow_bin, tmp_path, reference, kill_at,
                                                                             grouping):
    path = pipeline(tmp_path, "out", grouping)
    killed = run_watch(recflow_bin, path, tmp_path / "ckpt", kill_at)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    done = run_watch(recflow_bin, path, tmp_path / "ckpt")
    assert done.returncode == 0, done.stderr
    assert files(tmp_path / "out") == reference
    assert (tmp_path / "out" / "_SUCCESS").exists()
    # What the killed run staged was cleaned up by the restart.
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".out.recflow-") and not p.name.endswith("lock")]
    # A run restarted from a finished checkpoint adds nothing.
    done = run_watch(recflow_bin, path, tmp_path / "ckpt")
    assert done.returncode == 0, done.stderr
    assert files(tmp_path / "out") == reference


def test_epochs_committed_after_the_last_checkpoint_of_an_interval_are_not_written_twice(recflow_bin, tmp_path,
                                                                                           reference, grouping):
    # An hour between checkpoints: only the one at the start is saved before the kill, after four epochs committed.
    path = pipeline(tmp_path, "out", grouping)
    killed = run_watch(recflow_bin, path, tmp_path / "ckpt", "epoch-committed:5", interval="3600")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert b'"epochs":{}' in (tmp_path / "ckpt" / "checkpoint").read_bytes()
    done = run_watch(recflow_bin, path, tmp_path / "ckpt", interval="3600")
    assert done.returncode == 0, done.stderr
    assert files(tmp_path / "out") == reference


@pytest.mark.parametrize("kill_at", ["checkpoint-written:3", "epoch-committed:4"])
def test_a_restart_resumes_from_the_saved_window_state_without_reading_the_files_it_covers(recflow_bin, tmp_path,
                                                                                            reference, grouping, kill_at):
    path = pipeline(tmp_path, "out", grouping)
    killed = run_watch(recflow_bin, path, tmp_path / "ckpt", kill_at)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    checkpoint = json.loads((tmp_path / "ckpt" / "checkpoint").read_bytes().split(b"\n", 1)[1])
    covered = checkpoint["positions"]["watch"]
    assert covered and covered == [f"f{i}.jsonl" for i in range(1, len(covered) + 1)], covered
    assert list(checkpoint["states"]) == [STEPS[grouping]]
    assert (tmp_path / "ckpt" / checkpoint["states"][STEPS[grouping]]["file"]).exists()
    # The files the checkpoint covers are gone: a restart that read them again would fail or lose their rows.
    for name in covered:
        (tmp_path / "in" / name).unlink()
    done = run_watch(recflow_bin, path, tmp_path / "ckpt")
    assert done.returncode == 0, done.stderr
    assert files(tmp_path / "out") == reference
    # Only the last checkpoint's state file is kept.
    assert sorted(p.name for p in (tmp_path / "ckpt").iterdir() if p.name.startswith("state-")) == \
        [json.loads((tmp_path / "ckpt" / "checkpoint").read_bytes().split(b"\n", 1)[1])["states"][STEPS[grouping]]["file"]]


def test_a_corrupt_or_half_written_checkpoint_is_refused_naming_the_file(recflow_bin, tmp_path, reference, grouping):
    checkpoint = tmp_path / "ref-ckpt" / "checkpoint"
    whole = checkpoint.read_bytes()
    path = pipeline(tmp_path, "ref", grouping)
    for text, why in [(whole[:-5], "bytes of JSON where the header says"),
                      (b"garbage\n", "no header line"),
                      (whole.replace(b'"epochs"', b'"epochz"'), "does not match its CRC32C")]:
        checkpoint.write_bytes(text)
        done = run_watch(recflow_bin, path, tmp_path / "ref-ckpt")
        assert done.returncode == 1, done.stderr
        assert str(checkpoint) in done.stderr and why in done.stderr, done.stderr
        assert files(tmp_path / "ref") == reference  # the output is untouched
    # A state file is read by a restart that resumes the same generation: one on the checkpoint of a killed run (a
    # restart on a drained run's starts the next generation, which restores no state).
    path = pipeline(tmp_path, "out", grouping)
    killed = run_watch(recflow_bin, path, tmp_path / "ckpt", "checkpoint-written:3")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    written = files(tmp_path / "out")
    whole = (tmp_path / "ckpt" / "checkpoint").read_bytes()
    state = tmp_path / "ckpt" / json.loads(whole.split(b"\n", 1)[1])["states"][STEPS[grouping]]["file"]
    state.write_bytes(state.read_bytes()[:-1] + b"x")
    done = run_watch(recflow_bin, path, tmp_path / "ckpt")
    assert done.returncode == 1, done.stderr
    assert str(state) in done.stderr and "does not match the checkpoint's CRC32C" in done.stderr, done.stderr
    assert files(tmp_path / "out") == written


def test_a_checkpoint_needs_an_unbounded_pipeline(run, tmp_path):
    (tmp_path / "a.jsonl").write_text('{"x": 1}\n')
    path = tmp_path / "p.yaml"
    path.write_text(f"steps:\n  - read: {{path: {tmp_path / 'a.jsonl'}}}\n  - write: {{path: {tmp_path / 'out'}, format: jsonl}}\n")
    done = run("run", path, "--checkpoint", tmp_path / "ckpt")
    assert done.returncode == 2 and "unbounded" in done.stderr, done.stderr
