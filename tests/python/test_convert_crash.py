"""Crash consistency of `recflow convert`: SIGKILL at moments across a run leaves the old or the new dataset."""
import json
import shutil
import signal
import subprocess
import time
from collections import Counter
from pathlib import Path


def write_csv(path: Path, tag: str, n: int):
    with path.open("w") as f:
        f.write("id,tag,group,value\n")
        for i in range(n):
            f.write(f"{i},{tag},{i % 7},{i * 0.5}\n")


def convert_args(recflow_bin, src, out):
    return [str(recflow_bin), "convert", str(src), "-o", str(out), "--partition-by", "group", "--shards", "3",
            "--compression", "gzip", "--mode", "overwrite", "--block-size", "65536", "--no-progress"]


def dataset_rows(recflow_bin, out: Path, scratch: Path) -> Counter:
    """Reads the dataset back through recflow (which recovers a crashed commit first)."""
    if scratch.exists():
        shutil.rmtree(scratch)
    result = subprocess.run([str(recflow_bin), "convert", str(out), "-o", str(scratch), "--to", "jsonl",
                             "--no-sync", "--no-progress"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    rows = Counter()
    for f in scratch.rglob("*.jsonl"):
        for line in f.read_text().splitlines():
            r = json.loads(line)
            rows[(r["tag"], r["id"], r["group"])] += 1
    return rows


def expected(tag: str, n: int) -> Counter:
    return Counter((tag, i, i % 7) for i in range(n))


def test_sigkill_at_moments_across_a_run_leaves_old_or_new_dataset(recflow_bin, tmp_path):
    old_csv, new_csv = tmp_path / "old.csv", tmp_path / "new.csv"
    write_csv(old_csv, "old", 20000)
    write_csv(new_csv, "new", 120000)
    old, new = expected("old", 20000), expected("new", 120000)
    base = tmp_path / "base"
    subprocess.run(convert_args(recflow_bin, old_csv, base), check=True, capture_output=True)
    # How long a full overwrite takes, to spread the kills over it (commit included).
    timing = tmp_path / "timing"
    shutil.copytree(base, timing)
    start = time.monotonic()
    subprocess.run(convert_args(recflow_bin, new_csv, timing), check=True, capture_output=True)
    duration = time.monotonic() - start
    # Kill times spread evenly from the start to 1.5 × a full run, so early kills (old dataset),
    # kills inside the commit and kills after the end (new dataset) all occur on any machine.
    trials = 20
    outcomes = Counter()
    for trial in range(trials):
        out = tmp_path / f"trial{trial}"
        shutil.copytree(base, out)
        proc = subprocess.Popen(convert_args(recflow_bin, new_csv, out), stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        time.sleep(duration * 1.5 * (trial + 0.5) / trials)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        rows = dataset_rows(recflow_bin, out, tmp_path / "scratch")
        assert rows in (old, new), f"trial {trial}: a mix of {sum(rows.values())} rows"
        outcomes["old" if rows == old else "new"] += 1
        # A rerun after the crash cleans up and commits the complete new dataset.
        subprocess.run(convert_args(recflow_bin, new_csv, out), check=True, capture_output=True)
        assert not (out / "_temporary").exists()
        assert dataset_rows(recflow_bin, out, tmp_path / "scratch") == new
        shutil.rmtree(out)
    assert outcomes["old"] > 0 and outcomes["new"] > 0, outcomes
