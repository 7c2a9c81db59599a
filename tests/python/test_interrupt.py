"""Ctrl-C and SIGTERM during `recflow convert` and `recflow run`: the job stops taking input, removes what it staged,
leaves the previous output byte-identical and exits 130 / 143 saying so; a second signal ends a stuck job at once."""
import errno
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from staging_util import siblings, start_blocked_convert, wait_for_staging

SIGNALS = [(signal.SIGINT, 130, "SIGINT"), (signal.SIGTERM, 143, "SIGTERM")]

# Writes JSON Lines for ever (to the path in argv[1], else stdout): a job reading it can only end by a signal.
FEEDER = """
import sys
block = b"".join(b'{"k": %d, "v": "new"}\\n' % (i % 5) for i in range(10000))
out = open(sys.argv[1], "wb") if len(sys.argv) > 1 else sys.stdout.buffer
try:
    while True:
        out.write(block)
except OSError:
    pass
"""


def tree(root: Path):
    """Every path under `root`, hidden ones too, with its bytes (None for a directory)."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames:
            found[os.path.relpath(os.path.join(dirpath, name), root)] = None
        for name in filenames:
            path = os.path.join(dirpath, name)
            found[os.path.relpath(path, root)] = Path(path).read_bytes()
    return found


def waits(pid):
    """{task id: the kernel function it is blocked in} for the threads of `pid` ({} once it ended)."""
    try:
        return {tid: Path(f"/proc/{pid}/task/{tid}/wchan").read_text() for tid in os.listdir(f"/proc/{pid}/task")}
    except OSError:  # it ended meanwhile
        return {}


def signal_thread(pid):
    """(task id, voluntary context switches) of the thread of `pid` blocked waiting for signals, or (None, None)."""
    for tid, wchan in waits(pid).items():
        if "sigtimedwait" in wchan:
            try:
                status = Path(f"/proc/{pid}/task/{tid}/status").read_text()
            except OSError:
                break
            return tid, int(status.split("voluntary_ctxt_switches:")[1].split()[0])
    return None, None


def wait_until_blocked_in(proc, function: str):
    """Returns once a thread of `proc` is blocked in the kernel function `function` (pipe_read, wait_for_partner)."""
    deadline = time.monotonic() + 60
    while not any(function in wchan for wchan in waits(proc.pid).values()):
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else proc.returncode
        assert time.monotonic() < deadline, f"no thread blocked in {function}"
        time.sleep(0.01)


def send_and_wait_until_handled(proc, sig):
    """Sends `sig` once recflow's signal thread waits for it; returns True once that thread has acted on it (it
    blocked in sigwait again), False if recflow ended first."""
    deadline = time.monotonic() + 60
    tid, before = signal_thread(proc.pid)
    while tid is None:
        assert proc.poll() is None and time.monotonic() < deadline, "no thread of recflow waits for signals"
        time.sleep(0.01)
        tid, before = signal_thread(proc.pid)
    proc.send_signal(sig)
    while True:
        now_tid, now = signal_thread(proc.pid)
        if now_tid == tid and now > before:  # only a signal wakes it: it woke, acted and waits again
            return True
        if proc.poll() is not None:
            return False
        assert time.monotonic() < deadline, f"{sig!r} not handled"
        time.sleep(0.01)


def removed_message(name: str, target: Path):
    """The one line a job interrupted by signal `name` prints once it removed its unfinished `target`."""
    return f"recflow: interrupted by {name}; removed the unfinished output of '{target}'; what was there is unchanged"


def recflow_lines(stderr: str):
    return [line for line in stderr.splitlines() if line.startswith("recflow")]


def start_convert(recflow_bin, out: Path, mode: str):
    """`recflow convert -` on endless stdin, once it has staged files for `out`; returns (convert, feeder)."""
    feeder = subprocess.Popen(["/usr/bin/python3", "-c", FEEDER], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    proc = subprocess.Popen([str(recflow_bin), "convert", "-", "--from", "jsonl", "-o", str(out), "--to", "jsonl",
                             "--partition-by", "k", "--mode", mode, "--no-progress", "--threads", "2"],
                            stdin=feeder.stdout, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    feeder.stdout.close()
    wait_for_staging(proc, out)
    return proc, feeder


def start_run(recflow_bin, out: Path, mode: str, work: Path):
    """`recflow run` of read → load_file → write on 50000 rows, held in its first row's load_file (a FIFO nobody
    writes to) once it has staged files for `out`; returns (run, release) where release() lets that row go on
    and returns when the run ended."""
    fifo = work / f"{out.name}.fifo"
    os.mkfifo(fifo)
    (work / "small.txt").write_bytes(b"x" * 100)
    rows = work / f"{out.name}.csv"
    rows.write_text("path,k\n" + f"{fifo.name},0\n" + "".join(f"small.txt,{i % 5}\n" for i in range(50000)))
    pipeline = work / f"{out.name}.yaml"
    pipeline.write_text(f"""
steps:
  - read: {rows}
  - load_file: {{column: path, base_dir: {work}, output: bytes}}
  - write: {{path: {out}, format: jsonl, partition_by: [k], mode: {mode}}}
""")
    proc = subprocess.Popen([str(recflow_bin), "run", str(pipeline), "--quiet", "--threads", "2",
                             "--metrics", str(work / f"{out.name}.metrics.json")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_for_staging(proc, out)

    def release_until_it_ends():
        # The first row's load_file may or may not have opened the FIFO when the stop came (the stop
        # may end the run before): open it for writing whenever the run waits there, until the run ends.
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError as e:
                assert e.errno == errno.ENXIO, e  # nobody reads it (yet)
            time.sleep(0.01)

    return proc, release_until_it_ends


@pytest.mark.parametrize("command", ["convert", "run"])
@pytest.mark.parametrize("sig,code,name", SIGNALS)
def test_a_signal_stops_the_job_removes_what_it_staged_and_keeps_the_previous_output(recflow_bin, tmp_path, command,
                                                                                     sig, code, name):
    data, work = tmp_path / "data", tmp_path / "work"
    work.mkdir()
    old = work / "old.jsonl"
    old.write_text("".join(f'{{"k": {i % 3}, "v": "old"}}\n' for i in range(30)))
    out = data / "out"
    subprocess.run([str(recflow_bin), "convert", str(old), "-o", str(out), "--to", "jsonl", "--partition-by", "k"],
                   check=True, capture_output=True)
    before = tree(data)
    for target, mode in ((out, "overwrite"), (data / "new" / "fresh", "error")):
        if command == "convert":
            # Endless input: only the signal can end the job.
            proc, feeder = start_convert(recflow_bin, target, mode)
            stop = lambda: proc.send_signal(sig)  # noqa: E731
            release = lambda: (feeder.kill(), feeder.wait())  # noqa: E731
        else:
            # Held in its first row until the signal is handled: it cannot finish before.
            proc, release_row = start_run(recflow_bin, target, mode, work)
            stop = lambda: (send_and_wait_until_handled(proc, sig), release_row())  # noqa: E731
            release = lambda: None  # noqa: E731
        try:
            stop()
            assert proc.wait(timeout=60) == code
        finally:
            release()
            proc.kill()
        stderr = proc.stderr.read().decode()
        # One message: what stopped it, what it removed, that the previous output is intact.
        assert recflow_lines(stderr) == [removed_message(name, target)], stderr
        assert siblings(target) == []
        assert tree(data) == before, "a staged file or directory is left, or the previous output changed"
        if command == "run":  # it stopped through its normal failure path, which writes what it measured
            assert "steps" in json.loads((work / f"{target.name}.metrics.json").read_text())


def interrupt_twice(proc, blocked_in: str, first, second):
    """Interrupts `proc`, stuck in the kernel function `blocked_in`, with `first` (which cannot stop it) and then
    with `second`; returns its exit code."""
    wait_until_blocked_in(proc, blocked_in)
    assert send_and_wait_until_handled(proc, first), "it stopped: it was not stuck"
    proc.send_signal(second)
    return proc.wait(timeout=60)


def test_a_second_signal_ends_a_convert_stuck_in_a_read(recflow_bin, tmp_path):
    out = tmp_path / "new" / "out"
    # It read all there was on stdin, which neither ends nor brings more: the first signal cannot stop it.
    proc = start_blocked_convert(recflow_bin, out)
    assert interrupt_twice(proc, "pipe_read", signal.SIGTERM, signal.SIGINT) == 130
    stderr = proc.stderr.read().decode()
    assert recflow_lines(stderr) == [removed_message("SIGINT", out)], stderr
    proc.stdin.close()
    assert siblings(out) == []
    assert not (tmp_path / "new").exists(), "a directory the job created was left behind"


def test_a_second_signal_ends_a_stuck_job_even_when_nobody_reads_its_stderr(recflow_bin, tmp_path):
    out = tmp_path / "out"
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    try:
        while True:  # a full pipe: the job's stderr takes no more bytes
            os.write(write_end, b"x" * 4096)
    except BlockingIOError:
        pass
    os.set_blocking(write_end, True)
    proc = start_blocked_convert(recflow_bin, out, stderr=write_end)
    os.close(write_end)
    try:
        assert interrupt_twice(proc, "pipe_read", signal.SIGTERM, signal.SIGTERM) == 143
    finally:  # a job that waits for room in stderr is still there after the bound
        proc.kill()
        proc.stdin.close()
        os.close(read_end)
    assert siblings(out) == [] and not out.exists()


def test_a_second_signal_ends_a_run_stuck_in_a_step(recflow_bin, tmp_path):
    out = tmp_path / "out"
    # Its first row's load_file waits for a writer of a FIFO that never comes: no stop can reach it.
    proc, _ = start_run(recflow_bin, out, "error", tmp_path)
    assert interrupt_twice(proc, "wait_for_partner", signal.SIGTERM, signal.SIGTERM) == 143
    stderr = proc.stderr.read().decode()
    assert recflow_lines(stderr) == [removed_message("SIGTERM", out)], stderr
    assert siblings(out) == [] and not out.exists()
