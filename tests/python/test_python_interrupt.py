"""Ctrl-C during a read from Python: KeyboardInterrupt between batches, the engine's read stopped, the next read in
the same process fine; and recflow.connect reading a `recflow serve` pass."""
import numpy as np

from interrupt_util import interrupt_child
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


def test_ctrl_c_interrupts_a_read_cleanly(python_package_dir, testdata):
    mnist = testdata / "tfrecord" / "tfx" / "mnist.tfrecord"
    returncode, out, err = interrupt_child(python_package_dir, CHILD, [mnist], "reading\n")
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
