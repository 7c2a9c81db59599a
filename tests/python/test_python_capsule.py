"""The Arrow PyCapsule protocol of recflow.Dataset, consumed by a C-level reader written here with ctypes over the
ArrowArrayStream, ArrowArray and ArrowSchema structs of the Arrow C Data Interface specification (no pyarrow)."""
import ctypes

import numpy as np
import pytest

from python_oracle import protobuf_rows


class ArrowSchema(ctypes.Structure):
    pass


ArrowSchema._fields_ = [
    ("format", ctypes.c_char_p), ("name", ctypes.c_char_p), ("metadata", ctypes.c_char_p), ("flags", ctypes.c_int64),
    ("n_children", ctypes.c_int64), ("children", ctypes.POINTER(ctypes.POINTER(ArrowSchema))),
    ("dictionary", ctypes.POINTER(ArrowSchema)),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowSchema))), ("private_data", ctypes.c_void_p)]


class ArrowArray(ctypes.Structure):
    pass


ArrowArray._fields_ = [
    ("length", ctypes.c_int64), ("null_count", ctypes.c_int64), ("offset", ctypes.c_int64),
    ("n_buffers", ctypes.c_int64), ("n_children", ctypes.c_int64), ("buffers", ctypes.POINTER(ctypes.c_void_p)),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowArray))), ("dictionary", ctypes.POINTER(ArrowArray)),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArray))), ("private_data", ctypes.c_void_p)]


class ArrowArrayStream(ctypes.Structure):
    pass


ArrowArrayStream._fields_ = [
    ("get_schema", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream), ctypes.POINTER(ArrowSchema))),
    ("get_next", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream), ctypes.POINTER(ArrowArray))),
    ("get_last_error", ctypes.CFUNCTYPE(ctypes.c_char_p, ctypes.POINTER(ArrowArrayStream))),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArrayStream))), ("private_data", ctypes.c_void_p)]

_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype, _get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
_get_name = ctypes.pythonapi.PyCapsule_GetName
_get_name.restype, _get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
_new_capsule = ctypes.pythonapi.PyCapsule_New
_new_capsule.restype, _new_capsule.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


def consume(capsule):
    """Reads a stream capsule as a C consumer does: the schema's column formats and names, then every
    batch's columns, int64 and float32 ones decoded from their value buffers. Moves the stream out of
    the capsule (its release taken) and releases everything it took."""
    assert _get_name(capsule) == b"arrow_array_stream"
    source = ArrowArrayStream.from_address(_get_pointer(capsule, b"arrow_array_stream"))
    stream = ArrowArrayStream()
    ctypes.pointer(stream)[0] = source
    source.release = ctypes.cast(None, type(source.release))  # moved: the capsule must not release it
    schema = ArrowSchema()
    assert stream.get_schema(ctypes.byref(stream), ctypes.byref(schema)) == 0
    assert schema.format == b"+s"
    fields = [(schema.children[i][0].name.decode(), schema.children[i][0].format.decode())
              for i in range(schema.n_children)]
    schema.release(ctypes.byref(schema))
    columns = {name: [] for name, _ in fields}
    while True:
        array = ArrowArray()
        assert stream.get_next(ctypes.byref(stream), ctypes.byref(array)) == 0, stream.get_last_error(ctypes.byref(stream))
        if not array.release:
            break
        for i, (name, fmt) in enumerate(fields):
            child = array.children[i][0]
            kind = {"l": ctypes.c_int64, "f": ctypes.c_float}.get(fmt)
            if kind is not None:
                first = array.offset + child.offset
                values = ctypes.cast(child.buffers[1], ctypes.POINTER(kind))
                columns[name].extend(values[first + j] for j in range(array.length))
        array.release(ctypes.byref(array))
    stream.release(ctypes.byref(stream))
    return fields, columns


def test_a_c_reader_reads_the_stream_capsule(recflow_py, testdata, pb):
    path = testdata / "tfrecord" / "tfx" / "penguin-train.tfrecord.gz"
    fields, columns = consume(recflow_py.read(path).__arrow_c_stream__())
    assert sorted(fields) == [("body_mass_g", "f"), ("culmen_depth_mm", "f"), ("culmen_length_mm", "f"),
                              ("flipper_length_mm", "f"), ("species", "l")]
    want = protobuf_rows(pb, path)
    assert columns["species"] == [row["species"][0] for row in want]
    assert np.array_equal(np.float32(columns["body_mass_g"]), np.float32([row["body_mass_g"][0] for row in want]))


def test_a_requested_schema_selects_columns(recflow_py, testdata):
    keep = [ctypes.pointer(ArrowSchema(format=b"l", name=b"species"))]
    children = (ctypes.POINTER(ArrowSchema) * 1)(*keep)
    requested = ArrowSchema(format=b"+s", name=b"", n_children=1, children=children)
    capsule = _new_capsule(ctypes.addressof(requested), b"arrow_schema", None)
    ds = recflow_py.read(testdata / "tfrecord" / "tfx" / "penguin-train.tfrecord.gz")
    fields, columns = consume(ds.__arrow_c_stream__(requested_schema=capsule))
    assert fields == [("species", "l")] and len(columns["species"]) == 234


def test_a_dropped_capsule_releases_its_stream_and_stops_the_read(recflow_py, testdata):
    ds = recflow_py.read(testdata / "tfrecord" / "tfx" / "mnist.tfrecord")
    for _ in range(20):
        capsule = ds.__arrow_c_stream__()
        del capsule
    assert sum(len(b["image_class"]) for b in ds.batches()) == 1000


def test_a_producer_error_reaches_the_c_reader_with_file_and_offset(recflow_py, testdata, tmp_path):
    data = bytearray((testdata / "tfrecord" / "tfx" / "mnist.tfrecord").read_bytes())
    data[len(data) // 2] ^= 0xFF
    bad = tmp_path / "bad.tfrecord"
    bad.write_bytes(bytes(data))
    with pytest.raises(AssertionError, match=f"{bad}: record [0-9]+, byte offset [0-9]+"):
        consume(recflow_py.read(bad, infer_rows=1).__arrow_c_stream__())
