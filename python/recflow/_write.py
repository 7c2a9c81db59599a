"""recflow.write: dicts of NumPy columns, pandas DataFrames or iterables of them written as a dataset, committed as
`recflow convert` commits it."""
import os

from recflow import _recflow
from recflow._dataset import _word
from recflow._nodes import column_node


def write(data, out, format="tfrecord", partition_by=None, shards=0, mode="error", compression="none", level=-1,
          max_records_per_shard=0, max_bytes_per_shard=0, naming="beam", prefix="part", sync=True, threads=0,
          **format_args):
    """Writes ``data`` — a dict {column: values} (one batch), a pandas DataFrame, or an iterable of
    them (a generator: batches stream through, one at a time) — as the dataset directory ``out``,
    as `recflow convert` writes it: ``format`` "tfrecord" (``record_type="example"``,
    "sequence_example" or "bytes"), "jsonl", "csv" (``delimiter``), "arrow" (IPC streams) or
    "feather" (IPC files); ``partition_by`` columns become ``key=value/`` directories; ``shards``,
    ``max_records_per_shard``, ``max_bytes_per_shard``; ``mode`` "error", "overwrite", "append" or
    "overwrite-partitions"; ``compression`` "none", "gzip", "zlib" (``level``), or "lz4"/"zstd"
    for arrow and feather; ``naming`` "beam" or "spark" and ``prefix``; ``sync=False`` skips the
    fsync at commit; ``threads`` engine threads (0: every core). The dataset appears whole when the last batch is written, or not at all:
    an exception from ``data`` (or Ctrl-C) aborts the write and leaves ``out`` as it was. Returns
    {"records", "files", "partitions", "raw_bytes", "bytes_written"}. Raises recflow.Error naming
    the column for values the format cannot hold."""
    writer = _recflow.Writer(_output_spec(out, format, partition_by, shards, mode, compression, level,
                                          max_records_per_shard, max_bytes_per_shard, naming, prefix, sync,
                                          format_args), int(threads))
    try:
        for batch in _batches(data):
            writer.push([(str(name), column_node(str(name), value)) for name, value in batch.items()])
        return writer.finish()
    except BaseException as error:
        writer.abort(f"the write was stopped by {type(error).__name__}: {error}")
        raise


def _output_spec(out, format, partition_by, shards, mode, compression, level, max_records_per_shard,
                 max_bytes_per_shard, naming, prefix, sync, format_args):
    """The output words as the picklable tuple the native side reads (write_spec.h, OutputSpecOf)."""
    if isinstance(partition_by, str):
        partition_by = [partition_by]
    return (os.fspath(out), format, compression, int(level), int(shards or 0), int(max_records_per_shard),
            int(max_bytes_per_shard), naming, prefix, list(partition_by or []), mode, bool(sync),
            {key: _word(value) for key, value in format_args.items()})


def _batches(data):
    """The batch dicts of ``data``: itself when it is one batch, else each item of it."""
    if isinstance(data, dict) or _is_frame(data):
        data = [data]
    for batch in data:
        if _is_frame(batch):
            batch = {name: batch[name] for name in batch.columns}  # column_node converts pandas columns
        elif not isinstance(batch, dict):
            raise TypeError(f"a batch is a dict of columns or a pandas DataFrame, not {type(batch).__name__}")
        yield batch


def _is_frame(value):
    return type(value).__module__.startswith("pandas") and type(value).__name__ == "DataFrame"
