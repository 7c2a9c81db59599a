"""Crash consistency of `recflow convert`: SIGKILL at any moment, then a reader that only globs data files
(as tf.data, Spark and Beam users do) sees exactly the old or exactly the new dataset, before anything reruns
(SIGTERM and SIGINT: test_interrupt.py).

RECFLOW_CRASH_TRIALS (default 20 per save mode) and RECFLOW_CRASH_PARTITIONS (default 40) make a heavier run."""
import glob
import hashlib
import os
import random
import shutil
import signal
import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest

from staging_util import siblings, staging_dir, start_blocked_convert

TRIALS = int(os.environ.get("RECFLOW_CRASH_TRIALS", "20"))
PARTITIONS = int(os.environ.get("RECFLOW_CRASH_PARTITIONS", "40"))
MODES = ["error", "overwrite", "append", "overwrite-partitions"]


def write_csv(path: Path, tag: str, rows: int, partitions: int):
    with path.open("w") as f:
        f.write("id,tag,p,value\n")
        for i in range(rows):
            f.write(f"{i},{tag},{i % partitions},{i * 0.5}\n")


def convert_args(recflow_bin, src, out, mode):
    return [str(recflow_bin), "convert", str(src), "-o", str(out), "--partition-by", "p", "--to", "jsonl",
            "--mode", mode, "--no-sync", "--no-progress", "--threads", "1"]


def read_by_glob(out: Path):
    """(record count, checksum) of what a reader sees that globs OUTPUT/**/part-* and skips `_`/`.` names."""
    rows = []
    for path in glob.glob(str(out / "**" / "part-*"), recursive=True):
        rel = Path(path).relative_to(out)
        if any(part.startswith(("_", ".")) for part in rel.parts) or not os.path.isfile(path):
            continue
        partition = "/".join(rel.parts[:-1]).encode()
        with open(path, "rb") as f:
            rows.extend(partition + b"\t" + line for line in f.read().splitlines())
    rows.sort()
    return len(rows), hashlib.sha256(b"\n".join(rows)).hexdigest()


def wait_then_kill(proc, out: Path, aim: str, delay: float):
    """Kills `proc` at the moment `aim` names; returns what was seen when it was killed (None: it finished)."""
    if aim == "at once":
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        return aim
    deadline = time.monotonic() + delay
    while proc.poll() is None:
        staging = staging_dir(out)
        if aim == "staging" and staging is not None:
            break
        if aim == "commit lock" and (out.parent / f".{out.name}.recflow-lock").exists():
            break
        if aim == "swap" and staging is not None and (staging / "_SUCCESS").exists():
            break
        if aim == "timed" and time.monotonic() >= deadline:
            break
        time.sleep(0.0002)
    if proc.poll() is not None:
        return None
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return aim


@pytest.mark.parametrize("mode", MODES)
def test_sigkill_leaves_the_old_or_the_new_dataset_for_a_globbing_reader(recflow_bin, tmp_path, mode):
    old_csv, new_csv = tmp_path / "old.csv", tmp_path / "new.csv"
    write_csv(old_csv, "old", PARTITIONS * 10, PARTITIONS)
    write_csv(new_csv, "new", PARTITIONS * 5, PARTITIONS // 2)  # half the partitions
    base = tmp_path / "base"
    if mode != "error":
        subprocess.run(convert_args(recflow_bin, old_csv, base, "error"), check=True, capture_output=True)
    reference = tmp_path / "reference" / "out"
    reference.parent.mkdir()
    if base.exists():
        shutil.copytree(base, reference)
    start = time.monotonic()
    subprocess.run(convert_args(recflow_bin, new_csv, reference, mode), check=True, capture_output=True)
    duration = time.monotonic() - start
    old, new = read_by_glob(base), read_by_glob(reference)
    assert old != new

    rng = random.Random(f"{mode}-{TRIALS}")
    # Each trial aims its kill at one moment: at once, when the staging tree appears (writing),
    # when the commit lock appears (linking what the mode keeps), when the staging tree holds its
    # _SUCCESS (the swap is next), at a random time, or never.
    aims = ["at once", "never"] + [["staging", "commit lock", "swap", "timed"][t % 4] for t in range(TRIALS - 2)]
    outcomes, kills = Counter(), Counter()  # kills: (aim it landed at, or "finished") -> what the reader saw
    for trial, aim in enumerate(aims):
        out = tmp_path / f"trial{trial}" / "out"
        out.parent.mkdir()
        if base.exists():
            shutil.copytree(base, out)
        proc = subprocess.Popen(convert_args(recflow_bin, new_csv, out, mode), stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        if aim == "never":
            assert proc.wait() == 0
            killed = None
        else:
            killed = wait_then_kill(proc, out, aim, rng.uniform(0, 1.2 * duration))
        seen = read_by_glob(out)  # before anything else runs
        assert seen in (old, new), f"trial {trial} (killed at {killed}): {seen[0]} records, a mix"
        outcome = "old" if seen == old else "new"
        outcomes[outcome] += 1
        kills[f"{killed or 'finished'}: {outcome}"] += 1
        shutil.rmtree(out.parent)
    print(f"\n{mode}: {len(aims)} trials, {PARTITIONS} partitions, kills {dict(kills)}, seen {dict(outcomes)}")
    assert outcomes["old"] > 0 and outcomes["new"] > 0, outcomes


def test_the_next_writer_removes_what_a_killed_job_left(recflow_bin, tmp_path):
    src = tmp_path / "rows.csv"
    write_csv(src, "x", 400, 40)
    out = tmp_path / "out"
    # Staged and waiting for more input on stdin: it cannot finish before the kill.
    proc = start_blocked_convert(recflow_bin, out, "--mode", "overwrite")
    proc.kill()
    assert proc.wait(timeout=60) == -signal.SIGKILL
    proc.stdin.close()
    proc.stderr.close()
    left = siblings(out)
    assert left, "a killed job leaves its staging tree (hidden) beside the output"
    assert read_by_glob(out) == (0, hashlib.sha256(b"").hexdigest())  # readers see nothing of it, and leave it
    assert siblings(out) == left
    subprocess.run(convert_args(recflow_bin, src, out, "overwrite"), check=True, capture_output=True)
    assert siblings(out) == []
    assert read_by_glob(out)[0] == 400
