"""The python3-protobuf decode of TensorFlow's tf.Example files, and recflow's batch dicts turned into the same
per-record values, for the Python module's tests and benchmark."""
import numpy as np

from tfrecord_util import read_tfrecord


def protobuf_rows(pb, path):
    """Each record of a tf.Example TFRecord file as {feature: list of values} (bytes decoded as UTF-8
    where they are), decoded by python3-protobuf; a feature with no kind set is left out."""
    rows = []
    for record in read_tfrecord(path):
        example = pb.Example.FromString(record)
        row = {}
        for name, feature in example.features.feature.items():
            kind = feature.WhichOneof("kind")
            if kind is None:
                continue
            values = list(getattr(feature, kind).value)
            if kind == "bytes_list":
                values = [v.decode("utf-8") for v in values]
            row[name] = values
        rows.append(row)
    return rows


def recflow_rows(recflow, batches):
    """recflow's batch dicts as {column: list of values}: a scalar column's value as a one-element list,
    a list column's element as a list; null values (masked, None) left out, as protobuf has no feature."""
    rows = []
    for batch in batches:
        count = len(next(iter(batch.values())))
        part = [{} for _ in range(count)]
        for name, column in batch.items():
            for i in range(count):
                if isinstance(column, recflow.ListColumn):
                    item = column[i]
                    if item is not None:
                        part[i][name] = item.tolist()
                elif np.ma.isMaskedArray(column):
                    if not column.mask[i]:
                        part[i][name] = [column.data[i].item()]
                elif column[i] is not None:
                    part[i][name] = [column[i].item() if hasattr(column[i], "item") else column[i]]
        rows.extend(part)
    return rows


def same_rows(got, want):
    """True when the rows hold the same values, float32 values compared as float32."""
    if len(got) != len(want):
        return False
    for a, b in zip(got, want):
        if a.keys() != b.keys():
            return False
        for name in a:
            x, y = a[name], b[name]
            if x and isinstance(x[0], float):
                if not np.array_equal(np.float32(x), np.float32(y)):
                    return False
            elif x != y:
                return False
    return True
