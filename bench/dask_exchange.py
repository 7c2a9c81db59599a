#!/usr/bin/python3
"""What a grouping job's exchange carries and costs on Dask: the job of dask_group.py (a group_by_key and a
combine_per_key over the taxi rows) through recflow.dask.run on a LocalCluster of 2 single-threaded worker processes,
--rounds times after one unmeasured job; per round the rows and bytes of each committed exchange (its Arrow IPC files,
as the driver lists them for the next pass) and the cluster's CPU seconds (workers, scheduler and driver, rusage) per
input row.

The build is RECFLOW_BUILD_DIR's (default build/release): run it once per build, alternating, to compare two builds
in the same session, e.g. main's row exchange against pre-aggregated combines.
"""
import os
import statistics
from pathlib import Path

from dask_bench import GroupingJob, cluster_cpu, job_arguments, start_cluster, use_build
from dask_group import PIPELINE


def main():
    args = job_arguments(__doc__, 50, 3, "bench-dask-exchange", grouping=True).parse_args()
    use_build()
    import recflow
    import recflow.dask

    work = Path(args.work_dir)
    grouping = GroupingJob(work, args.copies, args.tasks, PIPELINE)
    exchanged = []  # (rows, bytes) of each exchange committed in the current job

    job_type = recflow.dask._recflow.PipelineJob
    listed = job_type.exchange_files

    def exchange_files(job, exchange, partitions):
        files = listed(job, exchange, partitions)
        paths = [path for partition in files for path in partition]
        rows = 0
        if paths:  # counted over one column: the first, a key column or a scalar of the input
            first = recflow.read(paths, format="arrow").columns[0]
            rows = sum(len(batch[first]) for batch in recflow.read(paths, format="arrow", columns=[first]))
        exchanged.append((rows, sum(os.path.getsize(path) for path in paths)))
        return files

    job_type.exchange_files = exchange_files
    cluster, client = start_cluster()
    with cluster, client:
        def job():
            return grouping.on_dask(client, work / "out", args.partitions)

        job()
        cpus, rounds = [], []
        for _ in range(args.rounds):
            exchanged.clear()
            cpu = cluster_cpu(client)
            metrics = job()
            cpus.append(cluster_cpu(client) - cpu)
            rounds.append(list(exchanged))
        rows = metrics.steps["read"]["rows_out"]
    mb = grouping.source.stat().st_size / 1e6
    print(f"input {mb:.1f} MB, {rows} rows, {args.tasks} map tasks, {args.partitions} "
          f"partitions, {args.rounds} rounds, load average {os.getloadavg()[0]:.1f}")
    for number, (exchange_rows, exchange_bytes) in enumerate(rounds[-1]):
        print(f"exchange {number}: {exchange_rows} rows, {exchange_bytes} bytes")
    print(f"exchanges: {sum(r for r, _ in rounds[-1])} rows, {sum(b for _, b in rounds[-1])} bytes")
    print(f"cluster CPU per input row: median {statistics.median(cpus) / rows * 1e6:.2f} us, "
          f"best {min(cpus) / rows * 1e6:.2f} us")


if __name__ == "__main__":
    main()
