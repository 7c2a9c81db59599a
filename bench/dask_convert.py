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
import os
import statistics
import subprocess
from pathlib import Path

from dask_bench import BUILD, job_arguments, local_against_dask, taxi_input, use_build


def main():
    args = job_arguments(__doc__, 200, 5, "bench-dask").parse_args()
    use_build()
    import recflow.dask

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

    mb = source.stat().st_size / 1e6
    times, cpus = local_against_dask(local, on, args.rounds, work, source.stat().st_size)
    scale = statistics.median(one / two for one, two in zip(times["dask1"], times["dask2"]))
    overhead = statistics.median(dask / loc for dask, loc in zip(times["dask1"], times["local"]))
    print(f"input {mb:.1f} MB, {args.tasks} tasks, {args.rounds} rounds, load average {os.getloadavg()[0]:.1f}")
    print(f"2 workers / 1 worker speed (median of rounds): {scale:.2f}x")
    print(f"1-worker Dask job / local convert time (median of rounds): {overhead:.2f}x")
    cpu_overhead = statistics.median(dask / loc for dask, loc in zip(cpus["dask1"], cpus["local"]))
    print(f"1-worker Dask job / local convert CPU seconds (median of rounds): {cpu_overhead:.2f}x")


if __name__ == "__main__":
    main()
