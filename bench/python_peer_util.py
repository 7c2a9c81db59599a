"""What the Python module's benchmarks against pure-Python peers share: the build's package on the path, the inputs
(Fashion-MNIST train as recflow-idx-to-tfrecord writes it, the taxi tf.Examples), the arguments and the alternating
best-of-N measurement."""
import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = Path(os.environ.get("RECFLOW_BUILD_DIR", ROOT / "build" / "release"))
sys.path.insert(0, str(BUILD / "python"))
sys.path.insert(0, str(ROOT / "tests" / "python"))

FASHION = Path("/usr/share/datasets/fashion-mnist")
TAXI = ROOT.parent / "shared" / "testdata" / "tfrecord" / "tfx" / "taxi-train-00000-of-00012.tfrecord.gz"
BATCH = 256


@contextlib.contextmanager
def workspace(doc, threads=1):
    """(arguments --rounds and --threads, a temporary work directory, the python3-protobuf tf.Example classes
    generated there), after printing the load average, recflow's threads and the protobuf implementation.
    ``threads``: --threads' default (None: recflow's own, every core for a read in the main process)."""
    from google.protobuf.internal import api_implementation
    from tfrecord_util import generate_proto_module

    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=threads,
                        help=f"recflow engine threads (the peer has one; default {threads or 'every core'})")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}, recflow threads {args.threads or os.cpu_count()}, protobuf "
          f"{api_implementation.Type()}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        yield args, work, generate_proto_module(ROOT / "tests" / "proto" / "example.proto", work)


def fashion_tfrecord_gz(work):
    """Fashion-MNIST train (Debian's IDX files) as the GZIP TFRecord recflow-idx-to-tfrecord writes into `work`."""
    path = work / "fashion.tfrecord.gz"
    subprocess.run([str(BUILD / "bin" / "recflow-idx-to-tfrecord"), str(FASHION / "train-images-idx3-ubyte.gz"),
                    str(FASHION / "train-labels-idx1-ubyte.gz"), str(path)], check=True, capture_output=True)
    return path


def measure(name, peer, ours, rounds):
    """Alternates peer and recflow `rounds` times (each returns the records it did); prints the best records/s of each
    by wall time and by CPU time (the process's, every thread: what a loaded machine does not distort), and the
    ratios."""
    labels = ("python+protobuf", "recflow")
    wall, cpu = dict.fromkeys(labels, 0.0), dict.fromkeys(labels, 0.0)
    for _ in range(rounds):
        for label, run in zip(labels, (peer, ours)):
            start, start_cpu = time.perf_counter(), time.process_time()
            rows = run()
            wall[label] = max(wall[label], rows / (time.perf_counter() - start))
            cpu[label] = max(cpu[label], rows / max(time.process_time() - start_cpu, 1e-9))
    print(f"{name}: python+protobuf {wall[labels[0]]:,.0f} records/s, recflow {wall[labels[1]]:,.0f} records/s, "
          f"ratio {wall[labels[1]] / wall[labels[0]]:.1f}x; per CPU second {cpu[labels[0]]:,.0f} and "
          f"{cpu[labels[1]]:,.0f}, ratio {cpu[labels[1]] / cpu[labels[0]]:.1f}x")
