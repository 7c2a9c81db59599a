"""What the Dask benchmarks (bench/dask_*.py) share: the build's recflow importable here and in the workers, the taxi
input and the grouping job over it, CPU seconds from getrusage (of this process, or of a cluster), and the alternation
of a local command with Dask jobs on 1 and 2 workers; their clusters are the Dask tests'
(tests/python/dask_cluster.py)."""
import argparse
import gzip
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = Path(os.environ.get("RECFLOW_BUILD_DIR", ROOT / "build" / "release"))
sys.path.insert(0, str(ROOT / "tests" / "python"))
from dask_cluster import start_cluster  # noqa: E402
TAXI = Path(os.environ.get("RECFLOW_TESTDATA_DIR", ROOT.parent / "shared" / "testdata")) / "tfrecord" / "tfx" / \
    "taxi-train-00000-of-00012.tfrecord.gz"


def use_build():
    """Makes the build's recflow package importable in this process, and it and this module (whose functions the
    benchmarks run in the workers) in the worker processes it starts."""
    sys.path.insert(0, str(BUILD / "python"))
    paths = [str(BUILD / "python"), str(Path(__file__).resolve().parent), os.environ.get("PYTHONPATH")]
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, paths))


def taxi_input(work, copies):
    """TensorFlow's taxi Examples repeated `copies` times as one uncompressed TFRecord file in directory `work` (made);
    returns its path (a gzip file would be one split)."""
    work.mkdir(parents=True, exist_ok=True)
    source = work / "taxi.tfrecord"
    with gzip.open(TAXI) as taxi:
        source.write_bytes(taxi.read() * copies)
    return source


class GroupingJob:
    """A grouping pipeline over the taxi input (dask_group.py, dask_exchange.py, dask_kill_trials.py): the input of
    `copies` files in directory `work` (taxi_input), the pipeline `pipeline_text` (parameters `taxi` and `out`)
    written beside it, and the split bytes that cut the input into `tasks` map tasks."""

    def __init__(self, work, copies, tasks, pipeline_text):
        self.source = taxi_input(work, copies)
        self.pipeline = work / "group.yaml"
        self.pipeline.write_text(pipeline_text)
        self.split_bytes = self.source.stat().st_size // tasks + 1

    def params(self, out):
        """The pipeline's parameters for a run writing into directory `out`."""
        return {"taxi": str(self.source), "out": str(out)}

    def local(self, out, *flags):
        """Runs the pipeline into `out` with the local `recflow run --quiet` and `flags`."""
        subprocess.run([str(BUILD / "bin" / "recflow"), "run", str(self.pipeline), "--quiet", *flags,
                        *[f"--set={key}={value}" for key, value in self.params(out).items()]],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def on_dask(self, client, out, partitions):
        """Runs the pipeline into `out` through recflow.dask.run on `client`'s cluster with `partitions` exchange
        partitions; returns its RunMetrics."""
        import recflow.dask

        return recflow.dask.run(self.pipeline, client, params=self.params(out), split_bytes=self.split_bytes,
                                partitions=partitions)


def cpu_seconds(who=resource.RUSAGE_SELF):
    """User + system CPU seconds of this process (RUSAGE_SELF) or of its waited-for children (RUSAGE_CHILDREN)."""
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def cluster_cpu(client):
    """CPU seconds of the cluster's workers and of this process (the driver and the LocalCluster's scheduler)."""
    return sum(client.run(cpu_seconds, resource.RUSAGE_SELF).values()) + cpu_seconds(resource.RUSAGE_SELF)


def local_against_dask(local, on, rounds, work, input_bytes):
    """Alternates `local` (a function running the local command), then on(client) (a function running the Dask job)
    on a LocalCluster of 1 and of 2 single-threaded worker processes, `rounds` times after one unmeasured Dask job on
    each (the workers' first tasks), then removes the directory `work` and prints each run's best wall seconds (and
    MB/s of `input_bytes`) and CPU seconds; returns ({"local", "dask1", "dask2": wall seconds per round}, {the same:
    CPU seconds per round}): the local command's (its waited-for children), each cluster's with this process's."""
    clusters, clients = zip(*(start_cluster(workers) for workers in (1, 2)))
    runs = {"local": local, "dask1": on(clients[0]), "dask2": on(clients[1])}
    cpu_of = {"local": lambda: cpu_seconds(resource.RUSAGE_CHILDREN), "dask1": lambda: cluster_cpu(clients[0]),
              "dask2": lambda: cluster_cpu(clients[1])}
    times = {name: [] for name in runs}
    cpus = {name: [] for name in runs}
    try:
        runs["dask1"](), runs["dask2"]()
        for _ in range(rounds):
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
        shutil.rmtree(work, ignore_errors=True)
    for name, seconds in times.items():
        print(f"{name}: best {min(seconds):.3f} s ({input_bytes / 1e6 / min(seconds):.1f} MB/s), "
              f"CPU best {min(cpus[name]):.3f} s, median {statistics.median(cpus[name]):.3f} s")
    return times, cpus


def job_arguments(description, copies, rounds, work_dir, grouping=False):
    """The arguments of a local-against-Dask benchmark: --copies (default `copies`), --tasks, --rounds (default
    `rounds`), --work-dir (default build/`work_dir`), and for a `grouping` job (GroupingJob) --partitions."""
    parser = argparse.ArgumentParser(description=description)
    if grouping:
        parser.add_argument("--partitions", type=int, default=4, help="exchange partitions per Dask job")
    parser.add_argument("--copies", type=int, default=copies, help="taxi files in the input (428 KB each)")
    parser.add_argument("--tasks", type=int, default=8, help="tasks per Dask job (map tasks of a grouping's)")
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--work-dir", default=str(ROOT / "build" / work_dir))
    return parser
