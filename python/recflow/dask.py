"""recflow.dask: a conversion or a YAML pipeline run on a Dask cluster, one native run per split in the
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
from recflow._pipeline import Pipeline, _metrics, _text
from recflow._write import _output_spec

# Task sizes: about this many tasks per worker thread, each at least _MIN_SPLIT_BYTES and at most _MAX_SPLIT_BYTES.
_TASKS_PER_THREAD = 4
_MIN_SPLIT_BYTES = 8 << 20
_MAX_SPLIT_BYTES = 256 << 20
# Input bytes per partition of a grouping's exchange.
_PARTITION_BYTES = 64 << 20

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


def run(pipeline, client, params=None, split_bytes=None, threads=1, partitions=None):
    """Runs ``pipeline`` — a YAML pipeline file (``params`` overriding its parameters as ``--set`` does), or a
    ``recflow.Pipeline`` builder (its Python functions pickled to the workers by Dask) — on the Dask cluster of
    ``client``, as ``recflow run`` or ``Pipeline.run()`` would on one machine, and returns its RunMetrics summed over
    the tasks. Its inputs, outputs and dead-letter files must be on storage every worker shares with this process
    (a builder's relative paths resolve against this process's current directory).

    The pipeline runs pass by pass, as `recflow plan` shows its stages. A pass starting from a read cuts the read's
    files into splits of ``split_bytes`` (default: from their size, as convert does), one task per split. A
    group_by_key or combine ends a pass: each task writes the rows it groups hash-partitioned by key into
    ``partitions`` Arrow IPC files (default: from the input size and the cluster) under the job's attempts, and the
    next pass runs one task per partition, grouping that partition's rows and running the steps after the grouping.
    Each task runs natively inside a worker (``threads`` engine threads, the GIL released), each write and exchange
    into an attempt directory of its own (its files named from the task index: Beam shards i*S .. i*S+S-1 of n*S).
    After each pass this process adopts the first finished attempt of each task (an exchange's partitions are read
    only from adopted attempts); when every pass finished it commits every output once (prepared first, then
    swapped in, as the local runner does); until then, and if this process dies, the outputs stay as they were.
    Each dead-letter file holds the letters of the tasks in pass and task order, records counted from the task's
    split. A grouping some step takes as a side input (a fitted scaling, a vocabulary) is computed by a pass of its own
    after the pass feeding it, its rows committed as files that every task of the pass using it reads whole; side files
    (a vocabulary file) are written by this process when the job commits. Windowed groupings and flattens of several
    inputs are refused, naming the step."""
    return _run(pipeline, client, params, split_bytes, threads, partitions)[0]


def _run(pipeline, client, params, split_bytes, threads, partitions):
    """run(), the summed per-step table `recflow run` prints and its JSON (`recflow run --metrics`)."""
    start = time.perf_counter()
    overrides = [(str(key), _text(value)) for key, value in (params or {}).items()]
    if isinstance(pipeline, Pipeline):
        source = ("recflow.Pipeline " + repr(pipeline.name), pipeline.to_yaml(), os.getcwd(), overrides,
                  list(pipeline._functions))
    else:
        source = (os.path.abspath(os.fspath(pipeline)), "", "", overrides, [])
    job = _recflow.PipelineJob(*source)
    futures, letter_dirs = [], {}
    try:
        writes, exchanges = job.writes(), job.exchanges()
        split_target = int(split_bytes) if split_bytes else _split_size(job.input_bytes, client)
        parts = int(partitions) if partitions else _partition_count(job.input_bytes, client)
        job_id = writes[0][1][:8] if writes else uuid.uuid4().hex[:8]
        for letters in job.dead_letter_files:
            letter_dirs[letters] = f"{letters}.recflow-dask-{job_id}"
            os.makedirs(letter_dirs[letters])
        read_schemas = job.read_schemas()  # settled here once: no task samples the inputs again
        totals = {name: dict.fromkeys(("records", "files", "raw_bytes", "bytes_written"), 0) for name, _, _ in writes}
        partition_dirs = {name: set() for name, _, _ in writes}
        task_letters, exchanged = [], {}
        for number, (steps, reads, global_reads, sides, write_numbers, exchange_numbers) in enumerate(job.stages):
            # Every task reads each side value whole, from the files committed by an earlier pass.
            side_files = {e: [f for files in exchanged[e] for f in files] for e in sides}
            if not reads:
                units = [([split], dict(side_files)) for split in job.splits(number, split_target)]
            else:
                # A combine_globally's one row comes from task 0, over every partition; the other tasks leave it out
                # (a pass of global combines only is that one task).
                tasks = 1 if set(reads) <= set(global_reads) else parts
                units = [([], {**side_files,
                               **{e: [f for files in exchanged[e] for f in files] if e in global_reads
                                  else exchanged[e][p] for e in reads if p == 0 or e not in global_reads}})
                         for p in range(tasks)]
            outputs = [writes[w] for w in write_numbers] + [exchanges[e] for e in exchange_numbers]
            exchange_dirs = {e: job.exchange_dir(e) for e in exchange_numbers}
            label = f"{job.name}:{'>'.join(steps)}"
            futures = [client.submit(_pipeline_task, source, number, read_schemas, splits, files, parts,
                                     exchange_dirs, outputs, index, len(units), letter_dirs, int(threads),
                                     key=f"{label}-{index:05d}-{job_id}", pure=False)
                       for index, (splits, files) in enumerate(units)]
            for attempts, stats, dirs, counters, letters in client.gather(futures):
                for attempt, w in zip(attempts, write_numbers):
                    job.adopt(w, attempt)
                for attempt, e in zip(attempts[len(write_numbers):], exchange_numbers):
                    job.adopt_exchange(e, attempt)
                job.add_metrics(counters)
                for name in (writes[w][0] for w in write_numbers):
                    for key in totals[name]:
                        totals[name][key] += stats[name][key]
                    if stats[name]["partitions"]:
                        partition_dirs[name].update(dirs[name])
                task_letters.append(letters)
            for e in exchange_numbers:
                job.commit_exchange(e)
                exchanged[e] = job.exchange_files(e, parts)
        job.commit()
        for target, directory in letter_dirs.items():
            with open(target, "wb") as out:
                for letters in task_letters:
                    # A pass none of whose steps sends letters to this file wrote none.
                    if os.path.exists(letters[target]):
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
                        "writes": [dict(step=name, partitions=len(partition_dirs[name]), **written)
                                   for name, written in totals.items()]})
    return metrics, job.metrics_table, job.metrics_json


def _pipeline_task(source, stage, read_schemas, splits, exchange_files, partitions, exchange_dirs, outputs, index,
                   count, letter_dirs, threads):
    """One task attempt of a pass of the pipeline of `source` (PipelineJob's arguments; in a worker), its reads of the
    schemas the driver settled (`read_schemas`: no input is sampled again): the pass over its `splits` of the pass's
    read or its partition's `exchange_files`, each write and exchange (`outputs`) into an attempt directory of its own
    and each dead-letter file into one of its own; returns those directories and files, the writes' stats, the
    partition directories each write wrote and the run's counters."""
    attempt = f"task-{index:05d}-{uuid.uuid4().hex}"
    attempts = [os.path.join(attempts_dir, attempt) for _, _, attempts_dir in outputs]
    letters = {target: os.path.join(directory, attempt + ".jsonl") for target, directory in letter_dirs.items()}
    stats, counters = _recflow.pipeline_task(
        *source, stage, read_schemas, splits, exchange_files, partitions, exchange_dirs,
        [(name, job_id, dir) for (name, job_id, _), dir in zip(outputs, attempts)], index, count, letters, threads)
    dirs = {name: _partition_dirs(attempt) for (name, _, _), attempt in zip(outputs, attempts)}
    return attempts, stats, dirs, counters, letters


def _split_bytes(dataset, client):
    """About _TASKS_PER_THREAD tasks per worker thread of the cluster, within the bounds."""
    total = sum(os.path.getsize(path) for path in {split.path for split in dataset.splits(_MAX_SPLIT_BYTES)})
    return _split_size(total, client)


def _partition_count(total, client):
    """Exchange partitions for `total` input bytes: one per _PARTITION_BYTES, at most _TASKS_PER_THREAD per worker
    thread of the cluster."""
    threads = max(1, sum(client.nthreads().values()))
    return max(1, min(threads * _TASKS_PER_THREAD, total // _PARTITION_BYTES + 1))


def _split_size(total, client):
    """Split bytes for `total` input bytes: about _TASKS_PER_THREAD tasks per worker thread, within the bounds."""
    threads = max(1, sum(client.nthreads().values()))
    return max(_MIN_SPLIT_BYTES, min(_MAX_SPLIT_BYTES, total // (threads * _TASKS_PER_THREAD) + 1))


def _worker_dataset(state, schema):
    """The worker's Dataset of pickled arguments `state`, opened once per process; its schema must be the driver's."""
    dataset = _DATASETS.get(state)
    if dataset is None:
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
    pipeline = commands.add_parser("run", help="run a YAML pipeline on a Dask cluster")
    pipeline.add_argument("pipeline", help="the pipeline file (on storage the workers share)")
    pipeline.add_argument("--scheduler", required=True, help="the Dask scheduler's address, tcp://HOST:PORT")
    pipeline.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a parameter")
    pipeline.add_argument("--split-bytes", type=int, default=0, help="bytes per task (default: from the input sizes)")
    pipeline.add_argument("--partitions", type=int, default=0,
                          help="partitions of each grouping's exchange (default: from the input sizes)")
    pipeline.add_argument("--threads", type=int, default=1, help="engine threads of each task")
    pipeline.add_argument("--metrics", default="", help="write the per-step metrics as JSON to this file")
    pipeline.add_argument("--quiet", action="store_true", help="no metrics table on standard error")
    args = parser.parse_args(argv)
    from distributed import Client

    if args.command == "run":
        params = dict(item.split("=", 1) for item in args.set)
        with Client(args.scheduler) as client:
            _, table, metrics = _run(args.pipeline, client, params, args.split_bytes or None, args.threads,
                                     args.partitions or None)
        if args.metrics:
            with open(args.metrics, "w") as out:
                out.write(metrics)
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
