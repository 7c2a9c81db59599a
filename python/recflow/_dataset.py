"""recflow.read and recflow.connect: Dataset and Connection, iterated as dicts of NumPy columns."""
import json
import os

import numpy as np

from recflow import _recflow
from recflow._columns import ListColumn
from recflow._recflow import Error

_DEFAULT_SPLIT_BYTES = 64 << 20


def _dense(columns, pad):
    """Every ListColumn of a batch dict padded to a 2-D array (ListColumn.to_dense); the lists whose rows all have one
    length came 2-D from the stream already (a view on the values, as to_dense would give)."""
    return {name: value.to_dense(pad) if isinstance(value, ListColumn) else value for name, value in columns.items()}


def _iterate(stream, lists, pad, binary):
    """Yields the batch dicts of a native stream, closing it when the caller stops early."""
    if lists not in ("ragged", "dense"):
        raise ValueError(f"lists must be 'ragged' or 'dense', not {lists!r}")
    if binary not in ("bytes", "uint8"):
        raise ValueError(f"binary must be 'bytes' or 'uint8', not {binary!r}")
    try:
        while True:
            item = stream.next(binary == "uint8", lists == "dense")
            if item is None:
                return
            _, columns = item
            yield _dense(columns, pad) if lists == "dense" else columns
    finally:
        stream.close()


class Split:
    """One independently readable piece of a dataset's inputs (a file's byte or record-batch range).
    Picklable; ``json`` is the line ``recflow splits`` prints."""

    __slots__ = ("json",)

    def __init__(self, json_text):
        self.json = json_text

    def __getstate__(self):
        return self.json

    def __setstate__(self, state):
        self.json = state

    @property
    def path(self):
        """The split's file."""
        return json.loads(self.json)["path"]

    def __repr__(self):
        return f"Split({self.json})"


class Dataset:
    """Inputs opened by recflow.read: their schema, their batches, their splits. Picklable (a
    process that unpickles one detects the inputs again)."""

    def __init__(self, paths, format=None, schema=None, columns=None, schema_hints=None, skip_bad=False,
                 infer_rows=10000, threads=0, **format_args):
        if isinstance(paths, (str, os.PathLike)):
            paths = [paths]
        self._args = dict(paths=[os.fspath(p) for p in paths], format=format, schema=schema, columns=columns,
                          schema_hints=schema_hints, skip_bad=skip_bad, infer_rows=infer_rows, threads=threads,
                          **format_args)
        self._open()

    def _open(self):
        args = dict(self._args)
        paths, fmt, schema = args.pop("paths"), args.pop("format"), args.pop("schema")
        self._columns = list(args.pop("columns") or [])
        hints, skip_bad, infer_rows = args.pop("schema_hints"), args.pop("skip_bad"), args.pop("infer_rows")
        self._threads = args.pop("threads")
        words = {key: [str(v) for v in value] if isinstance(value, (list, tuple)) else [_word(value)]
                 for key, value in args.items()}
        self._native = _recflow.Dataset.open(paths, fmt or "auto", os.fspath(schema) if schema else "",
                                             list(hints or []), skip_bad, infer_rows, words)
        fields = self._native.schema
        if self._columns:
            known = {name: (name, kind, nullable) for name, kind, nullable in fields}
            missing = [c for c in self._columns if c not in known]
            if missing:
                raise Error(f"no column {missing[0]!r} to select; the columns are {[f[0] for f in fields]}")
            fields = [known[c] for c in self._columns]
        self._schema = fields

    def __getstate__(self):
        return self._args

    def __setstate__(self, state):
        self._args = state
        self._open()

    @property
    def schema(self):
        """The columns as (name, type, nullable) triples, type as recflow names it ("int64",
        "list<float32>", ...): the data columns, then the Hive partition columns."""
        return list(self._schema)

    @property
    def columns(self):
        """The column names, in order."""
        return [name for name, _, _ in self._schema]

    def _stream(self, splits=None, batch_size=None, batch_mode="keep", columns=None, threads=None):
        return self._native.stream(None if splits is None else [s.json for s in splits],
                                   self._threads if threads is None else threads,
                                   list(columns if columns is not None else self._columns), batch_size, batch_mode)

    def batches(self, batch_size=None, batch_mode="keep", splits=None, lists="ragged", pad=0, binary="bytes",
                threads=None):
        """Yields every record, in input order, as dicts {column: NumPy value} of ``batch_size`` rows
        (batch_mode "keep": the last batch may be short; "drop": it is dropped; "auto" or no
        batch_size: batches as the reader cuts them). Fixed-width columns are read-only views on the
        Arrow buffers; strings and bytes object arrays; lists ListColumns (``lists="dense"``: 2-D
        arrays, short lists padded with ``pad``); a column with nulls a numpy.ma.MaskedArray.
        ``binary="uint8"``: binary columns as ListColumns of uint8 viewing the bytes (raw images).
        ``splits``: read only these (from ``splits()``), in the order given."""
        return _iterate(self._stream(splits, batch_size, batch_mode, threads=threads), lists, pad, binary)

    def __iter__(self):
        return self.batches()

    def splits(self, target_bytes=_DEFAULT_SPLIT_BYTES):
        """The inputs cut into Splits of about ``target_bytes`` that together hold every record once
        (a compressed file is one split). Read them with ``batches(splits=...)``, here or in another
        process holding this Dataset."""
        return [Split(line) for line in self._native.splits(int(target_bytes))]

    def to_pandas(self):
        """Every record as one pandas DataFrame: nullable integer, float and boolean columns for
        columns with nulls, object columns (arrays or None) for lists."""
        import pandas as pd

        parts = {name: [] for name in self.columns}
        for batch in self.batches():
            for name, value in batch.items():
                parts[name].append(value)
        return pd.DataFrame({name: _pandas_column(chunks) for name, chunks in parts.items()}, columns=self.columns)

    def __arrow_c_stream__(self, requested_schema=None):
        """The Arrow PyCapsule protocol: an "arrow_array_stream" capsule of every record. A
        ``requested_schema`` naming a subset of the columns selects them; any other request is
        answered with the dataset's own schema (the protocol allows it: recflow does not cast)."""
        columns = None
        if requested_schema is not None:
            names = _recflow.requested_columns(requested_schema)
            if set(names) <= set(self.columns):
                columns = names
        return self._stream(columns=columns).export()

    def __repr__(self):
        return f"recflow.Dataset({self._args['paths']}, schema={self._schema})"


class Connection:
    """One pass of a `recflow serve` stream, iterated once as Dataset.batches does."""

    def __init__(self, endpoint, columns=None, batch_size=None, batch_mode="keep", lists="ragged", pad=0,
                 binary="bytes"):
        self._stream = _recflow.connect(endpoint, list(columns or []), batch_size, batch_mode)
        self._lists, self._pad, self._binary = lists, pad, binary

    @property
    def schema(self):
        """The served columns as (name, type, nullable) triples."""
        return self._stream.schema

    def __iter__(self):
        return _iterate(self._stream, self._lists, self._pad, self._binary)

    def __arrow_c_stream__(self, requested_schema=None):
        """The pass as an "arrow_array_stream" capsule (its own schema, whatever is requested)."""
        return self._stream.export()

    def close(self):
        """Closes the connection."""
        self._stream.close()


def _word(value):
    """A format word's text: booleans as true/false."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _pandas_column(chunks):
    """One column's batches as a pandas Series (masked chunks as pandas' nullable arrays)."""
    import pandas as pd

    if not chunks:
        return pd.Series([], dtype=object)
    if any(isinstance(c, ListColumn) for c in chunks):
        return pd.Series([item for c in chunks for item in (c[i] for i in range(len(c)))], dtype=object)
    if any(np.ma.isMaskedArray(c) for c in chunks):
        values = np.ma.concatenate(chunks)
        data, mask = np.ma.getdata(values), np.ma.getmaskarray(values)
        if data.dtype.kind in "iu":
            return pd.Series(pd.arrays.IntegerArray(data, mask))
        if data.dtype.kind == "f":
            return pd.Series(pd.arrays.FloatingArray(data.astype(np.result_type(data.dtype, np.float32)), mask))
        if data.dtype.kind == "b":
            return pd.Series(pd.arrays.BooleanArray(data, mask))
        return pd.Series(np.where(mask, None, data.astype(object)), dtype=object)
    return pd.Series(np.concatenate(chunks))


def read(paths, format=None, schema=None, columns=None, **options):
    """Opens ``paths`` (a path or a list: files, directories, globs; Hive ``key=value/`` partitions
    become columns) as a Dataset. ``format``: "tfrecord", "csv", "jsonl", "avro", "arrow"/"feather"
    or None to detect; ``schema``: a schema JSON file overriding inference; ``columns``: the columns
    to keep. Other options: ``schema_hints`` (["name:type", ...]), ``skip_bad``, ``infer_rows``,
    ``threads`` (0: every core), and the format words of the CLI (``record_type="sequence_example"``,
    ``delimiter=";"``, ``compression="gzip"``, ...). Raises recflow.Error naming the file, record
    and offset when the inputs cannot be read."""
    return Dataset(paths, format=format, schema=schema, columns=columns, **options)


def connect(endpoint, columns=None, batch_size=None, batch_mode="keep", lists="ragged", pad=0, binary="bytes"):
    """Connects to a `recflow serve` endpoint ("tcp://host:port", "host:port", "unix:///path") and
    returns a Connection over one pass: iterate it for the same batch dicts Dataset.batches gives."""
    return Connection(endpoint, columns=columns, batch_size=batch_size, batch_mode=batch_mode, lists=lists, pad=pad,
                      binary=binary)

