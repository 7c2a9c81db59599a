#!/usr/bin/python3
"""A grouping pipeline (group_by_key and combine_per_key over the taxi rows) through recflow.dask.run on 1 and 2
single-threaded Dask workers against the local `recflow run --threads 1`, alternating, whole job: what the exchange
of Arrow IPC files costs.

The input is TensorFlow's taxi Examples repeated --copies times as one uncompressed TFRecord file. Each round runs
the local run, the Dask job on a LocalCluster of 1 worker process and on one of 2 worker processes (--tasks map
tasks, --partitions exchange partitions), in that order; it reports the best seconds and CPU seconds of each and the
medians over rounds of the same round's ratios (2 workers' speed over 1 worker's; the 1-worker job's time and CPU
over the local run's: the cost of running the pipeline as two passes of tasks with the exchange between them, where
the local runner streams the grouping's input through memory). Outputs are not synced in either.
"""
import os
import statistics
from pathlib import Path

from dask_bench import GroupingJob, job_arguments, local_against_dask, use_build

PIPELINE = """name: taxi-groups
params: {taxi: taxi.tfrecord, out: out}
steps:
  - read: {path: "${taxi}"}
  - name: by_area
    group_by_key: {keys: [pickup_community_area]}
  - name: grouped
    write: {path: "${out}/grouped", format: feather, mode: overwrite, sync: false}
  - name: per_company
    input: read
    combine_per_key: {keys: [company], aggregates: {trips: "count_all()", seconds: "sum(trip_seconds)"}}
  - name: totals
    write: {path: "${out}/totals", format: jsonl, mode: overwrite, sync: false}
"""


def main():
    args = job_arguments(__doc__, 100, 3, "bench-dask-group", grouping=True).parse_args()
    use_build()

    work = Path(args.work_dir)
    job = GroupingJob(work, args.copies, args.tasks, PIPELINE)
    out = work / "out"

    def on(client):
        return lambda: job.on_dask(client, out, args.partitions)

    mb = job.source.stat().st_size / 1e6
    times, cpus = local_against_dask(lambda: job.local(out, "--threads", "1"), on, args.rounds, work,
                                     job.source.stat().st_size)
    print(f"input {mb:.1f} MB, {args.tasks} map tasks, {args.partitions} partitions, {args.rounds} rounds, "
          f"load average {os.getloadavg()[0]:.1f}")
    for label, a, b, of in (("2 workers / 1 worker speed", "dask1", "dask2", times),
                            ("1-worker Dask job / local run time", "dask1", "local", times),
                            ("1-worker Dask job / local run CPU seconds", "dask1", "local", cpus)):
        print(f"{label} (median of rounds): {statistics.median(x / y for x, y in zip(of[a], of[b])):.2f}x")


if __name__ == "__main__":
    main()
