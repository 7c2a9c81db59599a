#!/usr/bin/python3
"""Where the CPU of one `recflow convert` goes, per filter of the stage executor.

Records the convert of the taxi-like CSV (bench/taxi_csv.py) to 8 shards with `perf record -F 999
--call-graph dwarf` (kernel samples included: run as root) and attributes every sample to the
filter of the stage on its stack: read (in order), process (decode + Consume, parallel), assign
(Merge, in order), sinks' process (Process: compression, positional writes; parallel), emit (in
order), drain (the rest after the last unit); samples on no filter's stack are "other" (startup,
commit). The in-order share is the serial fraction the 1 -> 2 thread scaling is bound by. Prints
each filter's share of all samples and per thread; run it several times, the shares move by a point
or so under load.
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(os.environ.get("RECFLOW_BIN_DIR", ROOT / "build" / "release" / "bin"))
CSV = ROOT / "build" / "bench-data" / "taxi-1m.csv"

# The filters of RunStage's tbb::parallel_pipeline are lambdas #1..#5 of RunStage (stage_executor.cc), in
# this order, each calling one method of Stage: a sample's stack names the method, or, where the
# compiler inlined it, the lambda's concrete_filter<...>::operator() (where it made the call a tail
# call, only the method).
FILTERS = {"1": "read", "2": "process", "3": "assign", "4": "sinks' process", "5": "emit"}
METHODS = {"Stage::Read": "read", "Stage::Process": "process", "Stage::Assign": "assign",
           "Stage::ProcessSinks": "sinks' process", "Stage::Emit": "emit", "Stage::DrainSinks": "drain"}
IN_ORDER = {"read", "assign", "emit", "drain"}
LAMBDA = re.compile(r"#(\d)\}>::operator\(\)$")


def filter_of(frames: list[str]) -> str:
    """The filter of a sample's stack (innermost frame first)."""
    for frame in reversed(frames):
        method = frame.split(" (inlined)")[0].rsplit("::", 2)
        if len(method) == 3 and "::".join(method[1:]) in METHODS:
            return METHODS["::".join(method[1:])]
        if "concrete_filter<" in frame and "RunStage" in frame:
            match = LAMBDA.search(frame)
            if match and match.group(1) in FILTERS:
                return FILTERS[match.group(1)]
    return "other"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--compression", default="none")
    parser.add_argument("--work-dir", default=str(ROOT / "build"), help="where the output and perf data go")
    args = parser.parse_args()
    if not CSV.exists():
        subprocess.run(["/usr/bin/python3", str(ROOT / "bench" / "taxi_csv.py")], check=True)
    with tempfile.TemporaryDirectory(dir=args.work_dir) as tmp:
        out, data = Path(tmp) / "out", Path(tmp) / "perf.data"
        cmd = [str(BIN / "recflow"), "convert", str(CSV), "-o", str(out), "--shards", "8", "--threads",
               str(args.threads), "--no-progress", "--no-sync", "--compression", args.compression]
        subprocess.run(["perf", "record", "-q", "-F", "999", "--call-graph", "dwarf,16384", "-o", str(data), "--"] + cmd,
                       check=True, stdout=subprocess.DEVNULL)
        shutil.rmtree(out, ignore_errors=True)
        script = subprocess.run(["perf", "script", "-i", str(data), "-F", "tid,ip,sym"], check=True,
                                capture_output=True, text=True).stdout
    total = collections.Counter()
    per_thread = collections.defaultdict(collections.Counter)
    for block in script.split("\n\n"):
        lines = [line.strip() for line in block.strip().splitlines()]
        if not lines:
            continue
        tid = lines[0].split()[0]
        name = filter_of([line.split(None, 1)[-1] for line in lines[1:]])
        total[name] += 1
        per_thread[tid][name] += 1
    samples = sum(total.values())
    print(f"{samples} samples, load average {os.getloadavg()[0]:.1f}, {args.threads} threads, {args.compression}")
    for name in list(FILTERS.values()) + ["drain", "other"]:
        print(f"  {name:15s} {100 * total[name] / samples:5.1f} %{'  (in order)' if name in IN_ORDER else ''}")
    print(f"  in order, total {100 * sum(total[n] for n in IN_ORDER) / samples:5.1f} %")
    for tid, counts in sorted(per_thread.items(), key=lambda kv: -sum(kv[1].values())):
        n = sum(counts.values())
        if n < samples / 50:
            continue
        top = ", ".join(f"{k} {100 * v / n:.0f} %" for k, v in counts.most_common(3))
        print(f"  thread {tid}: {100 * n / samples:.0f} % of samples ({top})")


if __name__ == "__main__":
    main()
