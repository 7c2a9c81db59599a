#!/usr/bin/python3
"""tf.Example decode ratios from example_codec_benchmark: recflow against libprotobuf's faster use and mnist against its floors.

Runs each given benchmark binary in turn (A B A B ... for --rounds rounds), then prints, per binary and
round, CPU time per pass (medians of the repetitions) and the ratios issue 15 sets targets for: recflow
decode against the faster libprotobuf peer of the same run (taxi, penguins, SequenceExample: >= 2x;
map-heavy: >= 3x), and mnist decode against BM_MemcpyIntoNewColumns, the fair floor (within 10 %).

    /usr/bin/python3 bench/example_decode.py build/release/bench/example_codec_benchmark --rounds 2
    /usr/bin/python3 bench/example_decode.py /tmp/before_example_codec_benchmark \\
        build/release/bench/example_codec_benchmark --rounds 2
"""

import argparse
import json
import os
import subprocess
import sys

CORPORA = ["mnist", "mnist_alternating", "taxi", "penguin_train", "penguin_eval", "map_heavy", "sequence"]
FILTER = ("(RecflowDecode|ProtobufDecodeReused|ProtobufDecodeArena|ProtobufSeqDecodeReused|ProtobufSeqDecodeArena|"
          "Memcpy|MemcpyIntoNewColumns)/(" + "|".join(CORPORA) + ")$")


def run(binary, min_time, repetitions):
    """CPU ns per pass of each benchmark (median of the repetitions), by name."""
    out = subprocess.run([binary, "--benchmark_filter=" + FILTER, "--benchmark_format=json",
                          "--benchmark_repetitions=%d" % repetitions, "--benchmark_report_aggregates_only=true",
                          "--benchmark_min_time=%s" % min_time],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    times = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") == "median" and not b.get("error_occurred"):
            assert b["time_unit"] == "ns", b["time_unit"]
            times[b["run_name"].replace("BM_", "")] = b["cpu_time"]
    return times


def report(label, times):
    print("\n%s" % label)
    print("| corpus | recflow CPU per pass | faster libprotobuf | recflow / libprotobuf |")
    print("|---|---|---|---|")
    for corpus in CORPORA:
        ours = times.get("RecflowDecode/" + corpus)
        peers = [times[k] for k in times if k.startswith("Protobuf") and k.endswith("/" + corpus)]
        if ours is None or not peers:
            continue
        print("| %s | %.1f us | %.1f us | **%.2fx** |" % (corpus, ours / 1e3, min(peers) / 1e3, min(peers) / ours))
    ours = times.get("RecflowDecode/mnist")
    for floor in ["MemcpyIntoNewColumns", "Memcpy"]:
        t = times.get(floor + "/mnist")
        if ours and t:
            print("mnist decode / %s: %.1f / %.1f us = **%.2fx**" % (floor, ours / 1e3, t / 1e3, t / ours))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+", help="example_codec_benchmark binaries, run in turn")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--min-time", default="0.3")
    args = parser.parse_args()
    for binary in args.binaries:
        if not os.access(binary, os.X_OK):
            sys.exit("not an executable: " + binary)
    print("load average at start: %.1f %.1f %.1f" % os.getloadavg())
    for r in range(args.rounds):
        for binary in args.binaries:
            report("round %d, %s (load %.1f)" % (r + 1, binary, os.getloadavg()[0]),
                   run(binary, args.min_time, args.repetitions))


if __name__ == "__main__":
    main()
