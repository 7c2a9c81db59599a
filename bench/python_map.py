#!/usr/bin/python3
"""What a Python function in a recflow pipeline costs: read → write of TFRecords against the same pipeline with an
identity recflow.Pipeline.map between them (the batch handed to Python as NumPy columns and taken back), in the same
process, alternating A B A B. Inputs: Fashion-MNIST train (60 000 Examples of raw image bytes and a label) and the
TFX taxi Examples × 20 (16 520 Examples, 18 columns: strings, nulls) as bench/python_read.py prepares them. Prints the
median time of each and the median ratio (with map / without).

Usage: bench/python_map.py [--rounds 7] [--threads 0]
"""
import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from python_read import prepare, recflow  # noqa: E402  (the build's module, as python_read imports it)


def pipeline(source, out, with_map):
    """read → [identity map] → write of `source` into `out` (overwritten)."""
    p = recflow.Pipeline()
    step = p.read(source)
    if with_map:
        step = step.map(lambda batch: batch)
    step.write(out, format="tfrecord", mode="overwrite")
    return p


def measure(name, source, work, rounds, threads):
    """Alternates the pipeline without and with the map; prints medians and the median of the per-round ratios."""
    times = {False: [], True: []}
    ratios = []
    rows = 0
    for _ in range(rounds):
        for with_map in (False, True):
            p = pipeline(source, work / f"out-{with_map}", with_map)
            start = time.perf_counter()
            metrics = p.run(threads=threads)
            times[with_map].append(time.perf_counter() - start)
            rows = metrics.writes["write"]["records"]
        ratios.append(times[True][-1] / times[False][-1])
    without, with_map = statistics.median(times[False]), statistics.median(times[True])
    print(f"{name}: {rows} records; without map {without:.3f} s ({rows / without:,.0f} records/s), with an identity "
          f"Python map {with_map:.3f} s ({rows / with_map:,.0f} records/s); median ratio {statistics.median(ratios):.2f}x "
          f"(rounds {', '.join(f'{r:.2f}' for r in ratios)})")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--threads", type=int, default=0, help="engine threads (0: every core)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        fashion, taxi = prepare(work)
        print(f"load average {os.getloadavg()[0]:.2f}, threads {args.threads or os.cpu_count()}")
        measure("Fashion-MNIST train", fashion, work, args.rounds, args.threads)
        measure("taxi Examples x 20", taxi, work, args.rounds, args.threads)


if __name__ == "__main__":
    main()
