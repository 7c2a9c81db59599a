"""recflow.write: dicts of NumPy columns, pandas DataFrames or iterables of them written as a dataset, committed as
`recflow convert` commits it."""
import os

import numpy as np

from recflow import _recflow
from recflow._columns import ListColumn, MapColumn, StructColumn
from recflow._dataset import _word

_INT32_MAX = (1 << 31) - 1
_TIME_UNITS = ("s", "ms", "us", "ns")


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
            writer.push([(str(name), _node(str(name), value)) for name, value in batch.items()])
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
            batch = {name: _from_pandas(batch[name]) for name in batch.columns}
        elif not isinstance(batch, dict):
            raise TypeError(f"a batch is a dict of columns or a pandas DataFrame, not {type(batch).__name__}")
        yield batch


def _is_frame(value):
    return type(value).__module__.startswith("pandas") and type(value).__name__ == "DataFrame"


def _from_pandas(series):
    """A pandas column as NumPy: nullable dtypes as masked arrays, missing values masked."""
    import pandas as pd

    dtype = series.dtype
    if isinstance(dtype, pd.DatetimeTZDtype):
        series = series.dt.tz_convert("UTC").dt.tz_localize(None)
        dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        series = series.astype(object)
        dtype = series.dtype
    if isinstance(dtype, np.dtype):
        return series.to_numpy()
    mask = series.isna().to_numpy()
    numpy_dtype = getattr(dtype, "numpy_dtype", np.dtype(object))
    if numpy_dtype.kind in "iufb":
        values = series.to_numpy(dtype=numpy_dtype, na_value=numpy_dtype.type(0))
    else:
        values = series.to_numpy(dtype=object, na_value=None)
    return np.ma.MaskedArray(values, mask=mask) if mask.any() else values


def _node(name, value):
    """The column node recflow._recflow.Writer.push takes (see write_columns.h) for one column."""
    if isinstance(value, ListColumn):
        return _list_node(name, value)
    if isinstance(value, StructColumn):
        return _struct_node(name, value.fields, value.mask)
    if isinstance(value, dict):
        return _struct_node(name, value, None)
    if type(value).__module__.startswith("pandas"):
        value = _from_pandas(value)
    mask = None
    if np.ma.isMaskedArray(value):
        mask = np.ma.getmaskarray(value)
        value = np.ma.getdata(value)
    value = np.asarray(value)
    if value.ndim == 2 and value.dtype.kind != "O":
        rows, width = value.shape
        values = value.reshape(-1) if mask is None else np.ma.MaskedArray(value.reshape(-1), mask=mask.reshape(-1))
        return ("fixed_size_list", rows, 0, None, [], [("item", _node(name, values))], width)
    if value.ndim != 1:
        raise TypeError(f"column {name!r}: a column is one-dimensional (or 2-D for fixed-size lists), "
                        f"not of shape {value.shape}")
    kind = value.dtype.kind
    if kind == "O":
        return _object_node(name, value, mask)
    if kind in "Mm":
        value, mask = _times(value, mask)
        kind = value.dtype.kind
    if kind == "b":
        return _with_mask(("bool", len(value), 0, None, [np.packbits(value, bitorder="little")], [], 0), mask)
    if value.dtype == np.dtype("M8[D]"):
        days = value.view("<i8").astype("<i4")
        return _with_mask(("date32", len(value), 0, None, [days], [], 0), mask)
    if kind in "iufMm":
        return _with_mask((_fixed_kind(value.dtype), len(value), 0, None, [_little(value)], [], 0), mask)
    if kind == "U":
        return _strings(name, value.tolist(), mask, True)
    if kind == "S":
        return _strings(name, value.tolist(), mask, False)
    raise TypeError(f"column {name!r}: recflow cannot write NumPy dtype {value.dtype}")


def _with_mask(node, mask):
    """``node`` with the validity bitmap of ``mask`` (True = null) when it masks anything."""
    if mask is None or not mask.any():
        return node
    kind, length, _, _, buffers, children, width = node
    return (kind, length, int(mask.sum()), np.packbits(~mask, bitorder="little"), buffers, children, width)


def _little(value):
    """A C-contiguous little-endian array of the same values (the array itself when it is one)."""
    if value.dtype.byteorder == ">":
        value = value.astype(value.dtype.newbyteorder("<"))
    return np.ascontiguousarray(value)


def _fixed_kind(dtype):
    if dtype.kind == "f":
        return {2: "float16", 4: "float32", 8: "float64"}[dtype.itemsize]
    if dtype.kind in "iu":
        return ("int" if dtype.kind == "i" else "uint") + str(dtype.itemsize * 8)
    unit = np.datetime_data(dtype)[0]
    if dtype.kind == "M":
        return "date32" if unit == "D" else f"timestamp[{unit}]"
    return f"duration[{unit}]"


def _times(value, mask):
    """datetime64/timedelta64 values in a unit Arrow has (days stay days, as date32), NaT masked."""
    unit = np.datetime_data(value.dtype)[0]
    nat = np.isnat(value)
    if nat.any():
        mask = nat if mask is None else (mask | nat)
    if unit not in _TIME_UNITS + ("D",) or (unit == "D" and value.dtype.kind == "m"):
        value = value.astype(value.dtype.str[:3] + "[s]")
    return value, mask


def _strings(name, items, mask, text):
    """utf8/binary (large when the bytes pass 2 GiB) of ``items``, null where ``mask`` (None: nowhere) is True."""
    try:
        encoded = [b"" if mask is not None and mask[i] else (item.encode("utf-8") if text else bytes(item))
                   for i, item in enumerate(items)]
    except UnicodeEncodeError as error:
        raise TypeError(f"column {name!r}: a string is not valid Unicode: {error}") from None
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded)), out=offsets[1:])
    large = offsets[-1] > _INT32_MAX
    kind = ("large_" if large else "") + ("utf8" if text else "binary")
    data = np.frombuffer(b"".join(encoded), dtype=np.uint8)
    return _with_mask((kind, len(encoded), 0, None, [offsets if large else offsets.astype(np.int32), data], [], 0),
                      mask)


def _is_null(item):
    """None, pandas' NA and NaT, and a float NaN (pandas' missing value in object columns)."""
    return item is None or (isinstance(item, float) and item != item) or type(item).__name__ in ("NAType", "NaTType")


def _object_node(name, value, mask):
    """An object column: str, bytes, lists/arrays, dicts, bool, int or float items; nulls where _is_null or masked."""
    items = value.tolist()
    missing = np.fromiter(map(_is_null, items), dtype=bool, count=len(items))
    mask = missing if mask is None else (mask | missing)
    present = [item for item, m in zip(items, mask) if not m]
    if not present:
        return ("null", len(items), len(items), None, [], [], 0)
    kinds = {_item_kind(item) for item in present}
    if len(kinds) > 1:
        raise TypeError(f"column {name!r}: an object column holds one kind of value, not {sorted(kinds)}")
    kind = kinds.pop()
    if kind in ("str", "bytes"):
        return _strings(name, items, mask, kind == "str")
    if kind == "list":
        parts = [np.asarray(item) for item in present]
        lengths = np.zeros(len(items), dtype=np.int64)
        lengths[~mask] = [len(p) for p in parts]
        offsets = np.zeros(len(items) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        values = np.concatenate(parts)
        return _list_node(name, ListColumn(values, offsets.astype(np.int32) if offsets[-1] <= _INT32_MAX else offsets,
                                           mask if mask.any() else None))
    if kind == "dict":
        names = list(dict.fromkeys(key for item in present for key in item))
        fields = {key: np.array([None if m else item.get(key) for item, m in zip(items, mask)], dtype=object)
                  for key in names}
        return _struct_node(name, fields, mask)
    dtype = {"bool": np.bool_, "int": np.int64, "float": np.float64}[kind]
    filled = np.array([dtype(0) if m else item for item, m in zip(items, mask)], dtype=dtype)
    return _node(name, np.ma.MaskedArray(filled, mask=mask) if mask.any() else filled)


def _item_kind(item):
    if isinstance(item, str):
        return "str"
    if isinstance(item, (bytes, bytearray, memoryview)):
        return "bytes"
    if isinstance(item, (list, tuple, np.ndarray)):
        return "list"
    if isinstance(item, dict):
        return "dict"
    if isinstance(item, (bool, np.bool_)):
        return "bool"
    if isinstance(item, (int, np.integer)):
        return "int"
    if isinstance(item, (float, np.floating)):
        return "float"
    return type(item).__name__


def _list_node(name, column):
    """list (int32 offsets) or large_list (int64) of a ListColumn; map for a MapColumn."""
    offsets = np.asarray(column.offsets)
    if offsets.dtype not in (np.int32, np.int64):
        offsets = offsets.astype(np.int64)
    kind = "list" if offsets.dtype == np.int32 else "large_list"
    child = ("item", _node(name + ".item", column.values))
    if isinstance(column, MapColumn):
        kind, child = "map", ("entries", _node(name + ".entries", column.values))
        offsets = offsets.astype(np.int32)
    mask = None if column.mask is None else np.asarray(column.mask, dtype=bool)
    return _with_mask((kind, len(offsets) - 1, 0, None, [np.ascontiguousarray(offsets)], [child], 0), mask)


def _struct_node(name, fields, mask):
    """A struct of ``fields`` ({member: column}), ``mask`` its own nulls."""
    children = [(str(key), _node(f"{name}.{key}", column)) for key, column in fields.items()]
    length = children[0][1][1] if children else (0 if mask is None else len(mask))
    mask = None if mask is None else np.asarray(mask, dtype=bool)
    return _with_mask(("struct", length, 0, None, [], children, 0), mask)
