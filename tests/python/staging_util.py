"""What a recflow job leaves beside its output while it runs, and ways to hold a job mid-way for a signal or a kill."""
import os
import subprocess
import time
from pathlib import Path


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
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else proc.returncode
        assert time.monotonic() < deadline, "no staging tree appeared"
        time.sleep(0.01)


def start_blocked_convert(recflow_bin, out: Path, *args, stderr=subprocess.PIPE):
    """A convert reading stdin that has created its staging tree and waits for more input."""
    proc = subprocess.Popen([str(recflow_bin), "convert", "-", "--from", "jsonl", "-o", str(out), "--to", "jsonl",
                             "--partition-by", "k", "--no-progress", *args],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=stderr)
    # More than one block of input, so that the schema is known and the sink opened; stdin stays open.
    proc.stdin.write(b"".join(b'{"k": %d, "v": "new"}\n' % (i % 5) for i in range(200000)))
    proc.stdin.flush()
    wait_for_staging(proc, out)
    return proc
