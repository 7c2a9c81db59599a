"""recflow.dask: a conversion or a one-pass YAML pipeline run on a Dask cluster, one native run per split in the
workers, committed once by the driver (`python3 -m recflow.dask convert|run ... --scheduler tcp://HOST:PORT`)."""
import argparse
import json
import os
import pickle
import shutil
import sys
import time
import uuid

from recflow import _recflow
from recflow._dataset import Dataset
from recflow._pipeline import _metrics, _text
from recflow._write import _output_spec

# Task sizes: about this many tasks per worker thread, each at least _MIN_SPLIT_BYTES and at most _MAX_SPLIT_BYTES.
_TASKS_PER_THREAD = 4
_MIN_SPLIT_BYTES = 8 << 20
_MAX_SPLIT_BYTES = 256 << 20

_DATASETS = {}  # a worker's datasets, by their pickled arguments: detected and their schema settled once


def convert(inputs, out, client, format="tfrecord", partition_by=None, shards=0, mode="error", compression="none",
            level=-1, naming="beam", prefix="part", sync=True, split_bytes=None, threads=1, **format_args):
    """Converts ``inputs`` (a path, a list of paths or a ``recflow.read`` Dataset without ``columns``) into the
    dataset directory ``out`` on the Dask cluster of ``client`` (a ``distributed.Client``), as ``recflow.write`` and
    `recflow convert` write it (``format``, ``partition_by``, ``shards`` per task, ``mode``, ``compression``,
    ``level``, ``naming``, ``prefix``, ``sync``, format words). ``out`` and the inputs must be on storage every
    worker shares with this process.

    The inputs are cut into splits of ``split_bytes`` (default: about four tasks per worker thread, 8 MiB to
    256 MiB each); each split is one task, a native conversion run inside a worker (``threads`` engine threads,
    the GIL released) whose attempt writes its files in a directory no other attempt takes. The files of a task
    are named from its index (Beam: task i of n writes shards i*S .. i*S+S-1 of n*S), so the output read in name
    order holds the records in input order. When every task finished, this process adopts the first finished
    attempt of each task, discards the others (attempts of a worker that died, results that were lost) and commits
    the dataset once, ``_SUCCESS`` and the schema file last, as `recflow convert` does: until then, and if this
    process dies, ``out`` stays as it was. Returns {"records", "files", "partitions", "raw_bytes",
    "bytes_written", "tasks"}."""
    dataset = inputs if isinstance(inputs, Dataset) else Dataset(inputs)
    if dataset._columns:
        raise ValueError("recflow.dask.convert converts every column: read the inputs without columns=")
    spec = _output_spec(out, format, partition_by, shards, mode, compression, level, 0, 0, naming, prefix, sync,
                        format_args)
    splits = dataset.splits(int(split_bytes) if split_bytes else _split_bytes(dataset, client))
    job = _recflow.ConvertJob(dataset._native, spec)
    futures = []
    try:
        state = pickle.dumps(dataset.__getstate__())
        attempts = job.attempts_dir
        futures = [client.submit(_convert_task, state, dataset.schema, split.json, spec, attempts, job.job_id, index,
                                 len(splits), int(threads), key=f"recflow-convert-{index:05d}-{job.job_id}",
                                 pure=False)
                   for index, split in enumerate(splits)]
        totals = dict.fromkeys(("records", "files", "raw_bytes", "bytes_written"), 0)
        partitions = set()
        for attempt, stats, dirs in client.gather(futures):
            job.adopt(attempt)
            for key in totals:
                totals[key] += stats[key]
            partitions.update(dirs)
        job.commit()
    except BaseException:
        client.cancel(futures)
        job.abort()
        raise
    totals["partitions"] = len(partitions) if partition_by else 0
    totals["tasks"] = len(splits)
    return totals


def run(pipeline, client, params=None, split_bytes=None, threads=1):
    """Runs the YAML pipeline file ``pipeline`` (``params`` overriding its parameters as ``--set`` does) on the Dask
    cluster of ``client``, as ``recflow run`` would on one machine, and returns its RunMetrics summed over the tasks.
    The pipeline must be one pass: a read of files, element-wise steps, writes (group_by_key, combines and side
    inputs are refused, naming the step). Its inputs, outputs and dead-letter files must be on storage every worker
    shares with this process.

    The read's files are cut into splits of ``split_bytes`` (default: from their size, as convert does); each split is
    one task named by the pipeline's steps, the whole pipeline run natively over the split inside a worker (``threads``
    engine threads, the GIL released), each write into an attempt directory of its own (its files named from the task
    index: Beam shards i*S .. i*S+S-1 of n*S). When every task finished, this process adopts the first finished
    attempt of each task and commits every output once (prepared first, then swapped in, as the local runner does);
    until then, and if this process dies, the outputs stay as they were. Each dead-letter file holds the letters of
    the tasks in task order, records counted from the task's split."""
    return _run(pipeline, client, params, split_bytes, threads)[0]


def _run(pipeline, client, params, split_bytes, threads):
    """run(), and the summed per-step table `recflow run` prints."""
    start = time.perf_counter()
    overrides = [(str(key), _text(value)) for key, value in (params or {}).items()]
    path = os.path.abspath(os.fspath(pipeline))
    job = _recflow.PipelineJob(path, overrides)
    futures, letter_dirs = [], {}
    try:
        writes = job.writes()
        splits = job.splits(int(split_bytes) if split_bytes else _split_size(job.input_bytes, client))
        job_id = writes[0][1][:8] if writes else uuid.uuid4().hex[:8]
        for letters in job.dead_letter_files:
            letter_dirs[letters] = f"{letters}.recflow-dask-{job_id}"
            os.makedirs(letter_dirs[letters])
        label = f"{job.name}:{'>'.join(job.steps)}"
        futures = [client.submit(_pipeline_task, path, overrides, job.read_schema, split, writes, index, len(splits),
                                 letter_dirs, int(threads), key=f"{label}-{index:05d}-{job_id}", pure=False)
                   for index, split in enumerate(splits)]
        totals = {name: dict.fromkeys(("records", "files", "raw_bytes", "bytes_written"), 0) for name, _, _ in writes}
        partitions = {name: set() for name, _, _ in writes}
        task_letters = []
        for attempts, stats, dirs, counters, stages, letters in client.gather(futures):
            for number, attempt in enumerate(attempts):
                job.adopt(number, attempt)
            job.add_metrics(counters, stages)
            for name, written in stats.items():
                for key in totals[name]:
                    totals[name][key] += written[key]
                if written["partitions"]:
                    partitions[name].update(dirs[name])
            task_letters.append(letters)
        job.commit()
        for target, directory in letter_dirs.items():
            with open(target, "wb") as out:
                for letters in task_letters:
                    with open(letters[target], "rb") as part:
                        shutil.copyfileobj(part, out)
    except BaseException:
        client.cancel(futures)
        job.abort()
        raise
    finally:
        for directory in letter_dirs.values():
            shutil.rmtree(directory, ignore_errors=True)
    # A task writes into each partition it has rows of: partitions are counted once over the tasks, as convert does.
    metrics = _metrics({"name": job.name, "metrics": job.metrics_json, "seconds": time.perf_counter() - start,
                        "writes": [dict(step=name, partitions=len(partitions[name]), **written)
                                   for name, written in totals.items()]})
    return metrics, job.metrics_table


def _pipeline_task(path, params, read_schema, split, writes, index, count, letter_dirs, threads):
    """One task attempt of a pipeline (in a worker): the pipeline over `split`, each write into an attempt directory
    of its own and each dead-letter file into one of its own; returns those directories and files, the writes' stats,
    the partition directories each write wrote and the run's counters."""
    _recflow.tune_worker_allocator()
    attempt = f"task-{index:05d}-{uuid.uuid4().hex}"
    attempts = [os.path.join(attempts_dir, attempt) for _, _, attempts_dir in writes]
    letters = {target: os.path.join(directory, attempt + ".jsonl") for target, directory in letter_dirs.items()}
    stats, counters, stages = _recflow.pipeline_task(
        path, params, read_schema, [split], [(name, job_id, dir) for (name, job_id, _), dir in zip(writes, attempts)],
        index, count, letters, threads)
    dirs = {name: _partition_dirs(attempt) for (name, _, _), attempt in zip(writes, attempts)}
    return attempts, stats, dirs, counters, stages, letters


def _split_bytes(dataset, client):
    """About _TASKS_PER_THREAD tasks per worker thread of the cluster, within the bounds."""
    total = sum(os.path.getsize(path) for path in {split.path for split in dataset.splits(_MAX_SPLIT_BYTES)})
    return _split_size(total, client)


def _split_size(total, client):
    """Split bytes for `total` input bytes: about _TASKS_PER_THREAD tasks per worker thread, within the bounds."""
    threads = max(1, sum(client.nthreads().values()))
    return max(_MIN_SPLIT_BYTES, min(_MAX_SPLIT_BYTES, total // (threads * _TASKS_PER_THREAD) + 1))


def _worker_dataset(state, schema):
    """The worker's Dataset of pickled arguments `state`, opened once per process; its schema must be the driver's."""
    dataset = _DATASETS.get(state)
    if dataset is None:
        # Dask starts workers with MALLOC_TRIM_THRESHOLD_=65536: glibc then trims the heap after every freed batch
        # and faults its pages in again for the next, 1.7x the CPU of the same task in the recflow command.
        _recflow.tune_worker_allocator()
        dataset = Dataset.__new__(Dataset)
        dataset.__setstate__(pickle.loads(state))
        _DATASETS[state] = dataset
    if dataset.schema != schema:
        raise RuntimeError(f"the worker reads the inputs with the schema {dataset.schema}, the driver with {schema}")
    return dataset


def _convert_task(state, schema, split, spec, attempts, job_id, index, count, threads):
    """One task attempt (in a worker): converts `split` into a directory of its own under `attempts`; returns
    the directory, its stats and the partition directories it wrote."""
    dataset = _worker_dataset(state, schema)
    attempt = os.path.join(attempts, f"task-{index:05d}-{uuid.uuid4().hex}")
    stats = _recflow.convert_task(dataset._native, [split], spec, attempt, job_id, index, count, threads)
    return attempt, stats, _partition_dirs(attempt)


def _partition_dirs(attempt):
    """The directories, relative to the task attempt directory `attempt`, that hold its files."""
    return sorted({os.path.relpath(root, attempt) for root, _, files in os.walk(attempt) if files})


def main(argv=None):
    """`python3 -m recflow.dask convert INPUT... -o OUT --scheduler tcp://HOST:PORT [options]` or
    `python3 -m recflow.dask run PIPELINE.yaml --scheduler tcp://HOST:PORT [--set KEY=VALUE...]`."""
    parser = argparse.ArgumentParser(prog="python3 -m recflow.dask", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("convert", help="convert inputs into a dataset on a Dask cluster")
    run.add_argument("inputs", nargs="+", help="input files, directories or globs")
    run.add_argument("-o", "--output", required=True, help="the dataset directory (on storage the workers share)")
    run.add_argument("--scheduler", required=True, help="the Dask scheduler's address, tcp://HOST:PORT")
    run.add_argument("--to", default="tfrecord", help="output format (as recflow convert --to)")
    run.add_argument("--partition-by", default="", help="comma-separated partition columns")
    run.add_argument("--shards", type=int, default=0, help="files per task and partition")
    run.add_argument("--mode", default="error", help="error, overwrite, append or overwrite-partitions")
    run.add_argument("--compression", default="none", help="none, gzip, zlib (arrow/feather: lz4, zstd)")
    run.add_argument("--naming", default="beam", help="beam or spark file names")
    run.add_argument("--split-bytes", type=int, default=0, help="bytes per task (default: from the input sizes)")
    pipeline = commands.add_parser("run", help="run a one-pass YAML pipeline on a Dask cluster")
    pipeline.add_argument("pipeline", help="the pipeline file (on storage the workers share)")
    pipeline.add_argument("--scheduler", required=True, help="the Dask scheduler's address, tcp://HOST:PORT")
    pipeline.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a parameter")
    pipeline.add_argument("--split-bytes", type=int, default=0, help="bytes per task (default: from the input sizes)")
    pipeline.add_argument("--quiet", action="store_true", help="no metrics table on standard error")
    args = parser.parse_args(argv)
    from distributed import Client

    if args.command == "run":
        params = dict(item.split("=", 1) for item in args.set)
        with Client(args.scheduler) as client:
            _, table = _run(args.pipeline, client, params, args.split_bytes or None, 1)
        if not args.quiet:
            sys.stderr.write(table)
        return 0
    with Client(args.scheduler) as client:
        summary = convert(args.inputs, args.output, client, format=args.to,
                          partition_by=[c for c in args.partition_by.split(",") if c], shards=args.shards,
                          mode=args.mode, compression=args.compression, naming=args.naming,
                          split_bytes=args.split_bytes or None)
    json.dump(summary, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    # The tasks are this module's functions: run from recflow.dask itself, so that Dask pickles them by name (from
    # __main__ they would be pickled by value, and unpickled in workers that import __main__'s globals by name).
    from recflow.dask import main as _main

    sys.exit(_main())
