"""ListColumn, StructColumn and MapColumn: nested columns as Arrow holds them (children + offsets + null mask)."""
import numpy as np


class ListColumn:
    """Element i is ``values[offsets[i]:offsets[i + 1]]``; ``mask[i]`` is True where element i is null
    (``mask`` is None when none is). ``values`` and ``offsets`` view the Arrow buffers where NumPy can."""

    __slots__ = ("values", "offsets", "mask")

    def __init__(self, values, offsets, mask=None):
        self.values = values
        self.offsets = offsets
        self.mask = mask

    def __len__(self):
        return len(self.offsets) - 1

    def __getitem__(self, i):
        """Element ``i`` as an array of its values, or None when it is null."""
        if i < 0:
            i += len(self)
        if self.mask is not None and self.mask[i]:
            return None
        return self.values[self.offsets[i]:self.offsets[i + 1]]

    def lengths(self):
        """The number of values of each element (0 for nulls)."""
        return np.diff(self.offsets)

    def to_dense(self, pad=0):
        """A 2-D array (rows × longest list): a view on the values when every list has the same
        length and no list or value is null, else a copy with short rows filled with ``pad``. Null
        lists come out as masked rows (a numpy.ma.MaskedArray), never as rows of ``pad``."""
        values = self.values
        if isinstance(values, ListColumn):
            raise TypeError("a list of lists has no dense form; take .values and .offsets")
        lengths = self.lengths()
        rows = len(lengths)
        width = int(lengths.max()) if rows else 0
        if np.ma.isMaskedArray(values):
            values = values.filled(pad)
        first = int(self.offsets[0]) if rows else 0
        if rows and (lengths == width).all():
            dense = values[first:first + rows * width].reshape(rows, width)
        else:
            dense = np.full((rows, width), pad, dtype=values.dtype)
            inside = np.arange(width)[None, :] < lengths[:, None]
            dense[inside] = values[first:int(self.offsets[-1])]
        if self.mask is None or not self.mask.any():
            return dense
        return np.ma.MaskedArray(dense, mask=np.repeat(self.mask[:, None], width, axis=1))

    def __repr__(self):
        return f"ListColumn(rows={len(self)}, values={self.values!r})"


class StructColumn:
    """A struct column: ``fields`` maps each member's name to its column (converted as any column
    is); ``mask[i]`` is True where row i itself is null (``mask`` is None when none is)."""

    __slots__ = ("fields", "mask")

    def __init__(self, fields, mask=None):
        self.fields = dict(fields)
        self.mask = mask

    def __len__(self):
        return len(next(iter(self.fields.values()))) if self.fields else 0

    def __getitem__(self, key):
        """A member's column by name, or row ``key`` as a dict of its members' values (None when null)."""
        if isinstance(key, str):
            return self.fields[key]
        if key < 0:
            key += len(self)
        if self.mask is not None and self.mask[key]:
            return None
        return {name: _item(column, key) for name, column in self.fields.items()}

    def __repr__(self):
        return f"StructColumn(rows={len(self)}, fields={list(self.fields)})"


class MapColumn(ListColumn):
    """A map column: a ListColumn whose values are a StructColumn of ``key`` and ``value``; element
    i is its list of (key, value) pairs, or None when it is null."""

    __slots__ = ()

    def __getitem__(self, i):
        if i < 0:
            i += len(self)
        if self.mask is not None and self.mask[i]:
            return None
        keys, values = self.values.fields["key"], self.values.fields["value"]
        return [(_item(keys, j), _item(values, j)) for j in range(self.offsets[i], self.offsets[i + 1])]

    def __repr__(self):
        return f"MapColumn(rows={len(self)})"


def _item(column, i):
    """Element ``i`` of any column as a Python value: None for nulls, arrays for lists, dicts for structs."""
    if np.ma.isMaskedArray(column) and column.mask[i]:
        return None
    value = column[i]
    return value.item() if isinstance(value, np.generic) else value
