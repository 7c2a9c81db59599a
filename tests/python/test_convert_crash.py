"""Crash consistency of `recflow convert`: SIGKILL at moments across a run leaves the old or the new dataset;
SIGTERM and SIGINT remove the unfinished output and exit 143 / 130."""
import glob
import hashlib
import json
import os
import shutil
import signal
import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest


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


def siblings(out: Path):
    """Names beside OUTPUT that belong to a recflow job on it (staging trees, locks)."""
    if not out.parent.exists():
        return []
    return sorted(n for n in os.listdir(out.parent) if n.startswith(f".{out.name}.recflow-"))


def staging_dir(out: Path):
    for name in siblings(out):
        if not name.endswith((".lock", "-lock")):
            return out.parent / name
    return None


def wait_for_staging(proc, out: Path):
    """Returns once `proc`, which cannot finish by itself, has created its staging tree beside `out`."""
    deadline = time.monotonic() + 60
    while staging_dir(out) is None:
        assert proc.poll() is None, proc.stderr.read().decode()
        assert time.monotonic() < deadline, "no staging tree appeared"
        time.sleep(0.01)


def start_blocked_convert(recflow_bin, out: Path, *args):
    """A convert reading stdin that has created its staging tree and waits for more input."""
    proc = subprocess.Popen([str(recflow_bin), "convert", "-", "--from", "jsonl", "-o", str(out), "--to", "jsonl",
                             "--partition-by", "k", "--no-progress", *args],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # More than one block of input, so that the schema is known and the sink opened; stdin stays open.
    proc.stdin.write(b"".join(b'{"k": %d, "v": "new"}\n' % (i % 5) for i in range(200000)))
    proc.stdin.flush()
    wait_for_staging(proc, out)
    return proc


@pytest.mark.parametrize("sig,code,name", [(signal.SIGTERM, 143, "SIGTERM"), (signal.SIGINT, 130, "SIGINT")])
def test_sigterm_and_sigint_remove_the_unfinished_output(recflow_bin, tmp_path, sig, code, name):
    old = tmp_path / "old.jsonl"
    old.write_text("".join(f'{{"k": {i % 3}, "v": "old"}}\n' for i in range(30)))
    out = tmp_path / "out"
    subprocess.run([str(recflow_bin), "convert", str(old), "-o", str(out), "--to", "jsonl", "--partition-by", "k"],
                   check=True, capture_output=True)
    before = read_by_glob(out)
    fresh = tmp_path / "new" / "fresh"
    for target, mode in ((out, "overwrite"), (fresh, "error")):
        proc = start_blocked_convert(recflow_bin, target, "--mode", mode)
        proc.send_signal(sig)
        assert proc.wait(timeout=60) == code
        stderr = proc.stderr.read().decode()
        assert f"interrupted by {name}" in stderr, stderr
        assert f"removed the unfinished output of '{target}'; what was there is unchanged" in stderr, stderr
        assert siblings(target) == []
    assert read_by_glob(out) == before
    assert not (tmp_path / "new").exists(), "a directory the job created was left behind"


def test_sigterm_during_run_removes_the_unfinished_output(recflow_bin, tmp_path):
    # The load_file step blocks opening a FIFO nobody writes to: the run is under way, its output
    # staged, for as long as the test needs.
    os.mkfifo(tmp_path / "blocks")
    (tmp_path / "rows.csv").write_text("path,k\nblocks,1\n")
    out = tmp_path / "out"
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text(f"""
steps:
  - read: {tmp_path / 'rows.csv'}
  - load_file: {{column: path, base_dir: {tmp_path}, output: bytes}}
  - write: {{path: {out}, format: jsonl, partition_by: [k]}}
""")
    proc = subprocess.Popen([str(recflow_bin), "run", str(pipeline), "--quiet"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    wait_for_staging(proc, out)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 143
    assert f"removed the unfinished output of '{out}'" in proc.stderr.read().decode()
    assert siblings(out) == [] and not out.exists()
