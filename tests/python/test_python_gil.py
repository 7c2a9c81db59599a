"""Native reads, runs and writes release the GIL: a Python thread of the same process feeds, line by line, the FIFO the
native call waits on, so the call can only end if that thread runs while it waits (a call holding the GIL deadlocks,
which the child's time bound turns into a failure)."""
import os
import subprocess
import sys

import pytest

CHILD = r"""
import os, sys, threading
import recflow

fifo, call, out = sys.argv[1], sys.argv[2], sys.argv[3]
ROWS = 2000
os.mkfifo(fifo)

def feed():
    with open(fifo, "w") as w:  # opened once the native call opens the FIFO
        for i in range(ROWS):  # one write (and one GIL hand-over) a row, all while the native call waits
            w.write('{"id": %d}\n' % i)
            w.flush()

threading.Thread(target=feed, daemon=True).start()
if call == "read":
    # Opening sniffs the head and reads the schema; the only batch asked for holds every row: one native wait.
    rows = sum(len(batch["id"]) for batch in recflow.read(fifo, format="jsonl").batches(batch_size=1 << 40))
elif call == "run":
    p = recflow.Pipeline()
    p.read(fifo, format="jsonl").write(out, format="jsonl")
    rows = p.run(threads=2).writes["write"]["records"]
else:  # a write whose input is a native read of the FIFO
    rows = recflow.write(recflow.read(fifo, format="jsonl"), out, format="jsonl", threads=2)["records"]
print(rows, flush=True)
"""


@pytest.mark.parametrize("call", ["read", "run", "write"])
def test_a_python_thread_runs_while_a_native_call_waits(python_package_dir, tmp_path, call):
    env = {**os.environ, "PYTHONPATH": str(python_package_dir)}
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path / "rows.jsonl"), call, str(tmp_path / "out")],
                              capture_output=True, text=True, timeout=60, env=env)
    except subprocess.TimeoutExpired:
        pytest.fail(f"recflow {call} held the GIL while it waited: the feeding thread never ran")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "2000\n", (done.stdout, done.stderr)
