#!/usr/bin/python3
"""recflow.dask.convert on 1 and 2 single-threaded Dask workers against the local `recflow convert --threads 1`,
alternating, whole job.

The input is TensorFlow's taxi Examples (../shared/testdata) repeated --copies times as one uncompressed TFRecord
file (a gzip file is one split), converted to TFRecord partitioned by payment_type. Each round runs the local
convert, the Dask job on a LocalCluster of 1 worker process and on one of 2 worker processes (threads_per_worker=1,
engine threads 1, --tasks tasks each), in that order; it reports the best seconds of each and the medians over
rounds of the same round's ratios: 2 workers' speed over 1 worker's (target >= 1.7) and the 1-worker job's time
over the local convert's (the Dask overhead, target <= 1.15). No fsync in either. On a loaded machine, where wall
time says little, the CPU seconds of each job count too: the local command's, the workers' and this process's (the
driver and, in a LocalCluster, the scheduler), from getrusage.
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import time
from pathlib import Path

from dask_bench import BUILD, ROOT, cpu_seconds, taxi_input, use_build


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--copies", type=int, default=200, help="taxi files in the input (428 KB each)")
    parser.add_argument("--tasks", type=int, default=8, help="tasks per Dask job")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--work-dir", default=str(ROOT / "build" / "bench-dask"))
    args = parser.parse_args()
    use_build()
    import recflow.dask
    from distributed import Client, LocalCluster

    work = Path(args.work_dir)
    source = taxi_input(work, args.copies)
    split_bytes = source.stat().st_size // args.tasks + 1

    def local():
        subprocess.run([str(BUILD / "bin" / "recflow"), "convert", str(source), "-o", str(work / "out"), "--threads",
                        "1", "--partition-by", "payment_type", "--no-progress", "--no-sync", "--mode", "overwrite"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def on(client):
        return lambda: recflow.dask.convert(source, work / "out", client, partition_by="payment_type",
                                            mode="overwrite", sync=False, split_bytes=split_bytes)

    clusters = [LocalCluster(n_workers=n, processes=True, threads_per_worker=1, host="127.0.0.1",
                             dashboard_address=":0", silence_logs=40) for n in (1, 2)]
    clients = [Client(cluster) for cluster in clusters]
    runs = {"local": local, "dask1": on(clients[0]), "dask2": on(clients[1])}
    cpu_of = {"local": lambda: cpu_seconds(resource.RUSAGE_CHILDREN), "dask1": lambda: cluster_cpu(clients[0]),
              "dask2": lambda: cluster_cpu(clients[1])}
    times = {name: [] for name in runs}
    cpus = {name: [] for name in runs}
    try:
        runs["dask1"](), runs["dask2"]()  # the workers open the inputs once
        for _ in range(args.rounds):
            for name, run in runs.items():
                cpu = cpu_of[name]()
                start = time.perf_counter()
                run()
                times[name].append(time.perf_counter() - start)
                cpus[name].append(cpu_of[name]() - cpu)
    finally:
        for client in clients:
            client.close()
        for cluster in clusters:
            cluster.close()
        source_bytes = source.stat().st_size
        shutil.rmtree(work, ignore_errors=True)
    mb = source_bytes / 1e6
    for name, seconds in times.items():
        print(f"{name}: best {min(seconds):.3f} s ({mb / min(seconds):.1f} MB/s), CPU best {min(cpus[name]):.3f} s, "
              f"median {statistics.median(cpus[name]):.3f} s")
    scale = statistics.median(one / two for one, two in zip(times["dask1"], times["dask2"]))
    overhead = statistics.median(dask / loc for dask, loc in zip(times["dask1"], times["local"]))
    print(f"input {mb:.1f} MB, {args.tasks} tasks, {args.rounds} rounds, load average {os.getloadavg()[0]:.1f}")
    print(f"2 workers / 1 worker speed (median of rounds): {scale:.2f}x")
    print(f"1-worker Dask job / local convert time (median of rounds): {overhead:.2f}x")
    cpu_overhead = statistics.median(dask / loc for dask, loc in zip(cpus["dask1"], cpus["local"]))
    print(f"1-worker Dask job / local convert CPU seconds (median of rounds): {cpu_overhead:.2f}x")


def cluster_cpu(client):
    """CPU seconds of the cluster's workers and of this process (the driver and the LocalCluster's scheduler)."""
    return sum(client.run(cpu_seconds, resource.RUSAGE_SELF).values()) + cpu_seconds(resource.RUSAGE_SELF)


if __name__ == "__main__":
    main()
