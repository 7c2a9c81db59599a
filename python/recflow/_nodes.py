"""NumPy, pandas and Python columns laid out as Arrow buffers: the column nodes the native ImportColumn
(write_columns.h) wraps without copying, for recflow.write and for what Python pipeline functions return."""
import numpy as np

from recflow import _recflow
from recflow._columns import ListColumn, MapColumn, StructColumn

_INT32_MAX = (1 << 31) - 1
_TIME_UNITS = ("s", "ms", "us", "ns")


def from_pandas(series):
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


def column_node(name, value):
    """The column node (kind, length, null_count, validity, buffers, children, width) of ``value``, column
    ``name``, as ImportColumn (write_columns.h) takes it. TypeError naming the column for values Arrow has no
    column for."""
    if isinstance(value, ListColumn):
        return _list_node(name, value)
    if isinstance(value, StructColumn):
        return _struct_node(name, value.fields, value.mask)
    if isinstance(value, dict):
        return _struct_node(name, value, None)
    if type(value).__module__.startswith("pandas"):
        value = from_pandas(value)
    mask = None
    if np.ma.isMaskedArray(value):
        mask = np.ma.getmaskarray(value)
        value = np.ma.getdata(value)
    value = np.asarray(value)
    if value.ndim == 2 and value.dtype.kind != "O":
        rows, width = value.shape
        values = value.reshape(-1) if mask is None else np.ma.MaskedArray(value.reshape(-1), mask=mask.reshape(-1))
        return ("fixed_size_list", rows, 0, None, [], [("item", column_node(name, values))], width)
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


def _unicode_checked(name, lay_out, *args):
    """``lay_out(*args)`` (a native layout of str items); a str that is not valid Unicode is a TypeError naming
    ``name``."""
    try:
        return lay_out(*args)
    except UnicodeEncodeError as error:
        raise TypeError(f"column {name!r}: a string is not valid Unicode: {error}") from None


def _strings(name, items, mask, text):
    """utf8/binary (large when the bytes pass 2 GiB) of ``items``, null where ``mask`` (None: nowhere) is True."""
    offsets, data = _unicode_checked(name, _recflow.string_buffers, items, mask, text, _INT32_MAX)
    kind = ("large_" if offsets.dtype == np.int64 else "") + ("utf8" if text else "binary")
    return _with_mask((kind, len(items), 0, None, [offsets, data], [], 0), mask)


def _object_node(name, value, mask):
    """An object column: str, bytes, lists/arrays, dicts, bool, int or float items; nulls where None, NaN, pandas.NA,
    NaT or masked. Classified and, but for lists and dicts, laid out natively (_recflow.object_node)."""
    kind, mask, node = _unicode_checked(name, _recflow.object_node, name, value, mask, _INT32_MAX)
    if node is not None:
        return node
    items = value.tolist()
    present = items if mask is None else [item for item, m in zip(items, mask) if not m]
    if kind == "list":
        parts = [np.asarray(item) for item in present]
        lengths = np.zeros(len(items), dtype=np.int64)
        lengths[slice(None) if mask is None else ~mask] = [len(p) for p in parts]
        offsets = np.zeros(len(items) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        values = np.concatenate(parts)
        return _list_node(name, ListColumn(values, offsets.astype(np.int32) if offsets[-1] <= _INT32_MAX else offsets,
                                           mask))
    names = list(dict.fromkeys(key for item in present for key in item))
    nulls = np.zeros(len(items), dtype=bool) if mask is None else mask
    fields = {key: np.array([None if m else item.get(key) for item, m in zip(items, nulls)], dtype=object)
              for key in names}
    return _struct_node(name, fields, mask)


def _list_node(name, column):
    """list (int32 offsets) or large_list (int64) of a ListColumn; map for a MapColumn."""
    offsets = np.asarray(column.offsets)
    if offsets.dtype not in (np.int32, np.int64):
        offsets = offsets.astype(np.int64)
    kind, label = ("list" if offsets.dtype == np.int32 else "large_list"), "item"
    if isinstance(column, MapColumn):
        kind, label = "map", "entries"
        offsets = offsets.astype(np.int32)
    child = (label, column_node(f"{name}.{label}", column.values))
    mask = None if column.mask is None else np.asarray(column.mask, dtype=bool)
    return _with_mask((kind, len(offsets) - 1, 0, None, [np.ascontiguousarray(offsets)], [child], 0), mask)


def _struct_node(name, fields, mask):
    """A struct of ``fields`` ({member: column}), ``mask`` its own nulls."""
    children = [(str(key), column_node(f"{name}.{key}", column)) for key, column in fields.items()]
    length = children[0][1][1] if children else (0 if mask is None else len(mask))
    mask = None if mask is None else np.asarray(mask, dtype=bool)
    return _with_mask(("struct", length, 0, None, [], children, 0), mask)
