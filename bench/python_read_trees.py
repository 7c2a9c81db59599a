#!/usr/bin/python3
"""Two builds of the Python module compared on the read bench/python_read.py times: Fashion-MNIST train TFRecords
(uncompressed, 60 000 records) into torch tensors through recflow.torch.IterableDataset (batch_size 256, 1 engine
thread). Each round runs one child process per build, alternating A B A B; a child reads --epochs epochs and reports
its best epoch's wall time and CPU time (the whole process's, every thread: the robust measure on a loaded machine).
Prints each round and the median B/A ratios.

Usage: bench/python_read_trees.py BUILD_A BUILD_B [--rounds 5] [--epochs 5]
  (BUILD_x: a build directory such as build/release, holding python/recflow and bin/recflow-idx-to-tfrecord)
"""
import argparse
import gzip
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FASHION = Path("/usr/share/datasets/fashion-mnist")


def child(build, path, epochs):
    """Reads `path` `epochs` times with the module of `build`; prints 'wall_ms cpu_ms' of the best epoch of each."""
    sys.path.insert(0, str(Path(build) / "python"))
    import recflow.torch

    dataset = recflow.torch.IterableDataset(path, batch_size=256, threads=1)
    best_wall = best_cpu = float("inf")
    for _ in range(epochs):
        wall, cpu = time.perf_counter(), time.process_time()
        rows = sum(len(batch["label"]) + 0 * batch["image"].shape[0] for batch in dataset)
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        assert rows == 60000, rows
    print(f"{best_wall * 1e3:.3f} {best_cpu * 1e3:.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.a, args.child, args.epochs)
        return
    print(f"load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        gz, path = Path(tmp) / "fashion.tfrecord.gz", Path(tmp) / "fashion.tfrecord"
        subprocess.run([str(Path(args.a) / "bin" / "recflow-idx-to-tfrecord"),
                        str(FASHION / "train-images-idx3-ubyte.gz"), str(FASHION / "train-labels-idx1-ubyte.gz"),
                        str(gz)], check=True, capture_output=True)
        path.write_bytes(gzip.decompress(gz.read_bytes()))
        walls, cpus = [], []
        for round_ in range(args.rounds):
            times = {}
            for label, build in (("A", args.a), ("B", args.b)):
                out = subprocess.run([sys.executable, __file__, build, "-", "--child", str(path), "--epochs",
                                      str(args.epochs)], check=True, capture_output=True, text=True).stdout
                times[label] = [float(x) for x in out.split()]
            walls.append(times["B"][0] / times["A"][0])
            cpus.append(times["B"][1] / times["A"][1])
            print(f"round {round_ + 1}: A {times['A'][0]:.1f} ms wall {times['A'][1]:.1f} ms CPU, "
                  f"B {times['B'][0]:.1f} ms wall {times['B'][1]:.1f} ms CPU; B/A wall {walls[-1]:.3f} "
                  f"CPU {cpus[-1]:.3f}")
    print(f"load average {os.getloadavg()[0]:.2f}; median B/A per epoch: wall {statistics.median(walls):.3f}, "
          f"CPU {statistics.median(cpus):.3f} (A {args.a}, B {args.b})")


if __name__ == "__main__":
    main()
