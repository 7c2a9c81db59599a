"""ListColumn: a list column as Arrow holds it (values + offsets + null mask), padded to a dense array on request."""
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
