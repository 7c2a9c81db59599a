"""Ctrl-C during a read from Python: KeyboardInterrupt between batches, the engine's read stopped, the next read in
the same process fine; and recflow.connect reading a `recflow serve` pass."""
import os
import signal
import threading

import numpy as np
import pytest

from interrupt_util import interrupt_when_ready
from test_serve import serve  # noqa: F401  (the fixture that starts `recflow serve`)

CHILD = r"""
import sys
import recflow
mnist = sys.argv[1]
ds = recflow.read(mnist)
try:
    while True:  # epochs until interrupted: the time goes into the native reads
        for i, batch in enumerate(ds.batches(10)):
            if i == 0:
                print("reading", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
print("after", sum(len(b["image_class"]) for b in recflow.read(mnist).batches()), flush=True)
"""


# The same through recflow.torch.IterableDataset in the main process: its pieces decoded on every core by default.
TORCH_CHILD = r"""
import sys
import recflow.torch
ds = recflow.torch.IterableDataset(sys.argv[1], batch_size=10, split_bytes=200_000)
try:
    while True:
        for i, batch in enumerate(ds):
            if i == 0:
                print("reading", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
print("after", sum(len(b["image_class"]) for b in ds), flush=True)
"""


@pytest.mark.parametrize("child", [CHILD, TORCH_CHILD], ids=["read", "torch"])
def test_ctrl_c_interrupts_a_read_cleanly(python_package_dir, testdata, child):
    mnist = testdata / "tfrecord" / "tfx" / "mnist.tfrecord"
    returncode, out, err = interrupt_when_ready(child, [mnist], python_package_dir, "reading")
    assert returncode == 0, err
    assert out == "interrupted\nafter 1000\n", (out, err)


def test_connect_reads_a_served_pass(recflow_py, serve, testdata):  # noqa: F811
    path = testdata / "tfrecord" / "tfx" / "penguin-train.tfrecord.gz"
    endpoint = serve(path, "--listen", "tcp://127.0.0.1:0", "--batch-size", "50").endpoint
    connection = recflow_py.connect(endpoint, batch_size=100)
    assert [name for name, _, _ in connection.schema] == recflow_py.read(path).columns
    served = list(connection)
    assert [len(b["species"]) for b in served] == [100, 100, 34]
    local = list(recflow_py.read(path).batches(100))
    for got, want in zip(served, local):
        assert got.keys() == want.keys()
        assert all(np.array_equal(got[name], want[name]) for name in got)


ENDLESS_CHILD = r"""
import sys
import recflow
ds = recflow.read(sys.argv[1], format="jsonl")
print("reading", flush=True)
try:
    for batch in ds.batches(batch_size=1 << 40):  # one batch of every row: the wait for it never ends by itself
        pass
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


def test_ctrl_c_stops_a_read_while_it_waits(python_package_dir, tmp_path):
    # The child waits in one native call for a batch of every row of an input with no end. SIGINT must stop the
    # engine's read through its stop token (checked between units, so the read goes on while rows come): the
    # feeder writes 64 MB after the signal and then keeps the FIFO open and idle, where a read the signal did not
    # stop hangs (the 60 s bound of interrupt_child fails the test). The signal goes once the child has taken
    # 48 MB past its "reading" line, more than the stream's queue and units in flight hold: it is in the wait.
    fifo = tmp_path / "rows.jsonl"
    os.mkfifo(fifo)
    progress = threading.Condition()
    state = {"written": 0, "signalled_at": None, "done": False}

    def feed():
        chunk = (b'{"id": 1, "text": "' + b"x" * 100 + b'"}\n') * 10_000  # ~1.1 MB
        try:
            with open(fifo, "wb") as w:
                while True:
                    with progress:
                        at = state["signalled_at"]
                        if at is not None and state["written"] >= at + 64:
                            progress.wait_for(lambda: state["done"])
                            return
                    w.write(chunk)
                    with progress:
                        state["written"] += 1
                        progress.notify_all()
        except BrokenPipeError:
            pass

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()

    def once_waiting(child):
        with progress:
            start = state["written"]
            assert progress.wait_for(lambda: state["written"] >= start + 48, timeout=60)
            child.send_signal(signal.SIGINT)
            state["signalled_at"] = state["written"]

    try:
        returncode, out, err = interrupt_when_ready(ENDLESS_CHILD, [fifo], python_package_dir, "reading",
                                                    interrupt=once_waiting)
    finally:
        with progress:
            state["done"] = True
            progress.notify_all()
        feeder.join(timeout=60)
    assert returncode == 0, err
    assert out == "interrupted\n", (out, err)
