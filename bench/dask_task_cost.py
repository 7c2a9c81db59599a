#!/usr/bin/python3
"""The per-task cost of recflow.dask.convert: the same small input converted in many tiny tasks and in two, on a
LocalCluster of 1 single-threaded worker, each job's CPU seconds in the worker and in this process (the driver and
the LocalCluster's scheduler) from getrusage; the difference over the difference in task count is the cost of a task
besides its conversion. Each process's idle cost (Dask's heartbeats and monitors, per wall second) is measured too.
The inputs for the 1 TB paper estimate in BENCHMARKS.md (issue 19).
"""
import argparse
import os
import shutil
import time
from pathlib import Path

from dask_bench import ROOT, cpu_seconds, start_cluster, taxi_input, use_build


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--copies", type=int, default=4, help="taxi files in the input (428 KB each)")
    parser.add_argument("--tiny-split", type=int, default=8 << 10, help="split bytes of the many-task job")
    parser.add_argument("--work-dir", default=str(ROOT / "build" / "bench-dask-tasks"))
    args = parser.parse_args()
    use_build()
    import recflow.dask

    work = Path(args.work_dir)
    source = taxi_input(work, args.copies)
    cluster, client = start_cluster(1)

    def measure(job):
        worker, driver, start = sum(client.run(cpu_seconds).values()), cpu_seconds(), time.perf_counter()
        result = job()
        wall = time.perf_counter() - start
        return result, wall, sum(client.run(cpu_seconds).values()) - worker, cpu_seconds() - driver

    try:
        _, idle_wall, idle_worker, idle_driver = measure(lambda: time.sleep(5))
        runs = {}
        for split in (source.stat().st_size // 2 + 1, args.tiny_split):
            convert = lambda: recflow.dask.convert(source, work / "out", client, partition_by="payment_type",  # noqa
                                                   mode="overwrite", sync=False, split_bytes=split)
            convert()  # the worker opens the input once
            runs[split] = measure(convert)
    finally:
        client.close()
        cluster.close()
        shutil.rmtree(work, ignore_errors=True)
    idle = (idle_worker / idle_wall, idle_driver / idle_wall)
    print(f"idle: worker {idle[0] * 1e3:.1f} ms, driver + scheduler {idle[1] * 1e3:.1f} ms CPU per wall second")
    net = {}
    for split, (summary, wall, worker, driver) in runs.items():
        net[split] = (summary["tasks"], worker - idle[0] * wall, driver - idle[1] * wall)
        print(f"split {split} B: {summary['tasks']} tasks, {summary['files']} files, {wall:.2f} s wall, CPU worker "
              f"{worker:.3f} s, driver + scheduler {driver:.3f} s")
    (few, few_worker, few_driver), (many, many_worker, many_driver) = net.values()
    print(f"per task, idle cost taken out: worker {(many_worker - few_worker) / (many - few) * 1e3:.2f} ms CPU, "
          f"driver + scheduler {(many_driver - few_driver) / (many - few) * 1e3:.2f} ms CPU (load average "
          f"{os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
