#!/usr/bin/python3
"""What a Python function in a recflow pipeline costs: read → write of TFRecords against the same pipeline with an
identity recflow.Pipeline.map between them (the batch handed to Python as NumPy columns and taken back), in the same
process, alternating A B A B. Inputs: Fashion-MNIST train (60 000 Examples of raw image bytes and a label) and the
TFX taxi Examples × 20 (16 520 Examples, 18 columns: strings, nulls) as bench/python_read.py prepares them, read
--repeat times over in one run. Prints the best time of each, their ratio (with map / without), every round's ratio,
the best CPU time of each (the process's, every thread: what a loaded machine does not distort) and their ratio, and
the map step's busy time per record (RunMetrics: thread time inside the step, the GIL waits included).

Usage: bench/python_map.py [--rounds 7] [--threads 0] [--repeat 4]
"""
import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from python_read import prepare, recflow  # noqa: E402  (the build's module, as python_read imports it)


def pipeline(sources, out, with_map):
    """read → [identity map] → write of `sources` into `out` (overwritten)."""
    p = recflow.Pipeline()
    step = p.read([str(s) for s in sources])
    if with_map:
        step = step.map(lambda batch: batch)
    step.write(out, format="tfrecord", mode="overwrite")
    return p


def measure(name, sources, work, rounds, threads):
    """Alternates the pipeline without and with the map; prints the best of each, their ratio and each round's."""
    times = {False: [], True: []}
    cpus = {False: [], True: []}
    busy = []
    rows = 0
    for _ in range(rounds):
        for with_map in (False, True):
            p = pipeline(sources, work / f"out-{with_map}", with_map)
            start, start_cpu = time.perf_counter(), time.process_time()
            metrics = p.run(threads=threads)
            times[with_map].append(time.perf_counter() - start)
            cpus[with_map].append(time.process_time() - start_cpu)
            rows = metrics.writes["write"]["records"]
            if with_map:
                busy.append(metrics.steps["map"]["busy_seconds"])
    without, with_map = min(times[False]), min(times[True])
    ratios = ", ".join(f"{b / a:.2f}" for a, b in zip(times[False], times[True]))
    cpu_without, cpu_with = min(cpus[False]), min(cpus[True])
    print(f"{name}: {rows} records; best without map {without:.3f} s ({rows / without:,.0f} records/s), with an "
          f"identity Python map {with_map:.3f} s ({rows / with_map:,.0f} records/s): {with_map / without:.2f}x "
          f"(rounds {ratios}); CPU (the process's, every thread) best {cpu_without:.3f} s and {cpu_with:.3f} s: "
          f"{cpu_with / cpu_without:.2f}x; the map step busy {1e6 * min(busy) / rows:.2f} us a record at best")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--threads", type=int, default=0, help="engine threads (0: every core)")
    parser.add_argument("--repeat", type=int, default=4, help="times each input file is read in one run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        fashion, taxi = prepare(work)
        print(f"load average {os.getloadavg()[0]:.2f}, threads {args.threads or os.cpu_count()}")
        for i in range(1, args.repeat):  # the same file under other names: one run reads it --repeat times
            os.link(fashion, work / f"fashion-{i}.tfrecord")
            os.link(taxi, work / f"taxi-{i}.tfrecord")
        copies = range(1, args.repeat)
        measure(f"Fashion-MNIST train x {args.repeat}", [fashion] + [work / f"fashion-{i}.tfrecord" for i in copies],
                work, args.rounds, args.threads)
        measure(f"taxi Examples x 20 x {args.repeat}", [taxi] + [work / f"taxi-{i}.tfrecord" for i in copies], work,
                args.rounds, args.threads)


if __name__ == "__main__":
    main()
