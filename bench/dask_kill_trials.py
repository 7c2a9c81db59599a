#!/usr/bin/python3
"""Fault trials of a grouping pipeline on Dask: runs of a group_by_key, a pre-aggregated combine_per_key and a
combine_globally over the taxi rows through recflow.dask.run on a LocalCluster of 2 single-threaded worker processes,
each with one worker SIGKILLed at a random moment of the job, until --trials (default 10) kills landed mid-job; each
run must finish through Dask's retries with the output of the local `recflow run`, no record lost or duplicated.

The moment is uniform over a failure-free job's duration (measured first, on the same cluster): a kill that comes
after the job ended is reported as such and not counted as a trial (at most 3 × --trials runs). A killed worker's
nanny starts a new process; the next run waits for the cluster to have 2 live workers again (a new cluster when Dask
2022.12's nanny does not bring one back). Prints one line per run and a summary; exits 1 when a run failed, its output
differs or fewer than --trials kills landed mid-job.
"""
import argparse
import os
import random
import shutil
import signal
import sys
import threading
import time
from pathlib import Path

from dask_bench import ROOT, GroupingJob, use_build
from dask_cluster import live_workers, start_cluster

PIPELINE = """name: taxi-groups
params: {taxi: taxi.tfrecord, out: out}
steps:
  - read: {path: "${taxi}"}
  - name: timed
    filter: "trip_seconds > 0"
  - name: by_area
    group_by_key: {keys: [pickup_community_area]}
  - name: grouped
    write: {path: "${out}/grouped", format: jsonl, sync: false}
  - name: per_company
    input: timed
    combine_per_key: {keys: [company], aggregates: {trips: "count_all()", seconds: "sum(trip_seconds)", top: "max(fare)"}}
  - name: totals
    write: {path: "${out}/totals", format: jsonl, sync: false}
  - name: overall
    input: timed
    combine_globally: {aggregates: {trips: "count_all()", seconds: "sum(trip_seconds)"}}
  - name: summary
    write: {path: "${out}/summary", format: jsonl, sync: false}
"""
OUTPUTS = ("grouped", "totals", "summary")
WAIT_SECONDS = 300  # bound on a job and on the cluster's recovery


def lines(root):
    """{output: its sorted JSON lines} of a run's output directory."""
    return {name: sorted(line for shard in sorted((root / name).glob("part-*.jsonl"))
                         for line in shard.read_text().splitlines()) for name in OUTPUTS}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--copies", type=int, default=20, help="taxi files in the input (428 KB each)")
    parser.add_argument("--tasks", type=int, default=8, help="map tasks")
    parser.add_argument("--partitions", type=int, default=3)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--work-dir", default=str(ROOT / "build" / "bench-dask-kill"))
    args = parser.parse_args()
    use_build()

    work = Path(args.work_dir)
    shutil.rmtree(work, ignore_errors=True)  # the outputs of an earlier call
    grouping = GroupingJob(work, args.copies, args.tasks, PIPELINE)
    grouping.local(work / "local")
    expected = lines(work / "local")
    rng = random.Random(args.seed)
    local, client = start_cluster(silence_logs=50)
    failures, under_fault, killed = 0, 0, set()

    def run(out):
        return grouping.on_dask(client, out, args.partitions)

    try:
        start = time.monotonic()
        run(work / "reference")
        duration = time.monotonic() - start
        assert lines(work / "reference") == expected, "the failure-free Dask run differs from the local run"
        print(f"failure-free job: {duration:.2f} s; {args.tasks} map tasks, {args.partitions} partitions, "
              f"{sum(len(v) for v in expected.values())} output lines, load average {os.getloadavg()[0]:.1f}")
        trial = 0
        while under_fault < args.trials and trial < 3 * args.trials:
            pids = live_workers(client, killed, WAIT_SECONDS / 4)
            if pids is None:
                client.close()
                local.close()
                local, client = start_cluster(silence_logs=50)
                killed.clear()
                pids = live_workers(client, killed, WAIT_SECONDS)
            out = work / f"trial{trial}"
            outcome = {}

            def job():
                try:
                    run(out)
                except BaseException as error:  # reported below
                    outcome["error"] = error

            thread = threading.Thread(target=job)
            at = rng.uniform(0.02, 0.95) * duration
            thread.start()
            thread.join(at)
            victim = rng.choice(pids)
            mid_job = thread.is_alive()
            os.kill(victim, signal.SIGKILL)
            killed.add(victim)
            thread.join(WAIT_SECONDS)
            same = not thread.is_alive() and "error" not in outcome and lines(out) == expected
            under_fault += mid_job
            failures += not same
            state = "finished" if not thread.is_alive() else "hung"
            trial += 1
            print(f"run {trial}: worker {victim} killed at {at:.2f} s ({'mid-job' if mid_job else 'after the job'}); "
                  f"{state}, {'error ' + repr(outcome['error']) if 'error' in outcome else 'no error'}, "
                  f"output {'identical' if same else 'DIFFERENT'}")
    finally:
        client.close()
        local.close()
        shutil.rmtree(work, ignore_errors=True)
    print(f"{trial} runs, {under_fault} killed mid-job, {failures} failed or differed")
    return 1 if failures or under_fault < args.trials else 0


if __name__ == "__main__":
    sys.exit(main())
