"""recflow.read from Python (the build's module): TensorFlow's TFRecords equal to the python3-protobuf decode, batch
sizes and modes, nulls as masks, zero-copy views, selection, pandas, splits, errors naming file and offset."""
import os
import subprocess

import numpy as np
import pytest

from python_oracle import protobuf_rows, recflow_rows, same_rows

TFX = ["mnist.tfrecord", "penguin-train.tfrecord.gz", "taxi-train-00000-of-00012.tfrecord.gz"]


def test_the_package_imports_from_the_build_directory(python_package_dir):
    out = subprocess.run(["/usr/bin/python3", "-c", "import recflow; print(recflow.__file__)"],
                         env={**os.environ, "PYTHONPATH": str(python_package_dir)}, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(python_package_dir / "recflow" / "__init__.py")


@pytest.mark.parametrize("name", TFX)
def test_tensorflow_records_equal_the_protobuf_decode(recflow_py, testdata, pb, name):
    path = testdata / "tfrecord" / "tfx" / name
    got = recflow_rows(recflow_py, recflow_py.read(path).batches())
    assert same_rows(got, protobuf_rows(pb, path))


def test_nulls_are_masks_never_zeros(recflow_py, testdata, pb):
    path = testdata / "tfrecord" / "tfx" / "taxi-train-00000-of-00012.tfrecord.gz"
    want = protobuf_rows(pb, path)
    column = np.ma.concatenate([b["dropoff_census_tract"] for b in recflow_py.read(path).batches()])
    assert np.ma.isMaskedArray(column)
    missing = [("dropoff_census_tract" not in row) for row in want]
    assert any(missing) and list(np.ma.getmaskarray(column)) == missing
    companies = np.concatenate([b["company"] for b in recflow_py.read(path).batches()])
    assert [c is None for c in companies] == [("company" not in row) for row in want]


@pytest.mark.parametrize("mode, sizes", [("keep", [300, 300, 300, 100]), ("drop", [300, 300, 300])])
def test_batch_size_and_mode(recflow_py, testdata, mode, sizes):
    ds = recflow_py.read(testdata / "tfrecord" / "tfx" / "mnist.tfrecord")
    assert [len(b["image_class"]) for b in ds.batches(300, batch_mode=mode)] == sizes


def test_auto_mode_gives_the_readers_batches_of_every_record(recflow_py, testdata):
    ds = recflow_py.read(testdata / "tfrecord" / "tfx" / "mnist.tfrecord")
    assert sum(len(b["image_class"]) for b in ds.batches(300, batch_mode="auto")) == 1000


def _assert_views_arrow(recflow_py, array):
    """`array` is a read-only view whose bytes lie inside the Arrow buffer that is its base."""
    owner = array.base
    assert isinstance(owner, recflow_py._recflow.ArrowBuffer)
    assert owner.address <= array.ctypes.data and array.ctypes.data + array.nbytes <= owner.address + owner.size
    assert not array.flags.writeable and not array.flags.owndata


def test_fixed_width_columns_view_the_arrow_buffer(recflow_py, testdata):
    ds = recflow_py.read(testdata / "tfrecord" / "tfx" / "mnist.tfrecord")
    batch = next(ds.batches(100))
    for array in (batch["image_class"], batch["image_floats"].values, batch["image_floats"].offsets):
        _assert_views_arrow(recflow_py, array)
    dense = next(ds.batches(100, lists="dense"))["image_floats"]
    assert dense.shape == (100, 784) and dense.dtype == np.float32
    _assert_views_arrow(recflow_py, dense)
    assert (dense == batch["image_floats"].to_dense()).all()


def test_dense_lists_come_2d_from_the_stream_as_to_dense_makes_them(recflow_py, tmp_path):
    """lists="dense" (binary="uint8"): a column whose rows all have one length, with no null row or value, is a 2-D view
    on the Arrow values; every other list is padded by ListColumn.to_dense. Both equal to_dense of the ragged read."""
    rows = 4
    even = np.arange(rows + 1, dtype=np.int32) * 3
    ragged = np.array([0, 2, 2, 5, 6], dtype=np.int32)
    columns = {
        "images": np.array([bytes([i, i + 1, i + 2]) for i in range(rows)], dtype=object),
        "ragged_bytes": np.array([b"ab", b"", b"cde", b"f"], dtype=object),
        "null_image": np.array([b"abc", None, b"def", b"ghi"], dtype=object),
        "list": recflow_py.ListColumn(np.arange(12, dtype=np.int64), even),
        "large_list": recflow_py.ListColumn(np.arange(12, dtype=np.float32), even.astype(np.int64)),
        "fixed_size_list": np.arange(rows * 3, dtype=np.int16).reshape(rows, 3),
        "ragged_list": recflow_py.ListColumn(np.arange(6, dtype=np.int64), ragged),
        "null_row": recflow_py.ListColumn(np.arange(12, dtype=np.int64), even, np.array([0, 1, 0, 0], dtype=bool)),
        "null_value": recflow_py.ListColumn(np.ma.MaskedArray(np.arange(12.0), mask=np.arange(12) == 4), even),
        "bools": recflow_py.ListColumn(np.arange(12) % 2 == 0, even),
        "empty_lists": recflow_py.ListColumn(np.arange(0, dtype=np.int64), np.zeros(rows + 1, dtype=np.int32)),
    }
    recflow_py.write(columns, tmp_path / "out", format="arrow")
    ds = recflow_py.read(tmp_path / "out")
    (want,) = list(ds.batches(binary="uint8"))
    (got,) = list(ds.batches(binary="uint8", lists="dense", pad=7))
    viewed = {"images", "list", "large_list", "fixed_size_list"}
    for name in columns:
        expected = want[name].to_dense(7)
        assert type(got[name]) is type(expected) and got[name].dtype == expected.dtype, name
        assert got[name].shape == expected.shape and np.array_equal(np.ma.getdata(got[name]), np.ma.getdata(expected))
        assert np.array_equal(np.ma.getmaskarray(got[name]), np.ma.getmaskarray(expected)), name
        if name in viewed:
            _assert_views_arrow(recflow_py, got[name])
        else:
            assert not isinstance(got[name].base, recflow_py._recflow.ArrowBuffer), name
    assert got["images"].tolist() == [[i, i + 1, i + 2] for i in range(rows)]
    _, native = ds._stream().next(bytes_as_lists=True, dense_uniform_lists=True)  # what the stream hands Python
    assert {name for name, value in native.items() if isinstance(value, np.ndarray) and value.ndim == 2} == viewed


def test_ragged_lists_pad_to_dense(recflow_py):
    column = recflow_py.ListColumn(np.arange(6, dtype=np.int64), np.array([0, 1, 1, 4, 6]),
                                   np.array([False, True, False, False]))
    dense = column.to_dense(pad=-1)
    assert dense.data.tolist() == [[0, -1, -1], [-1, -1, -1], [1, 2, 3], [4, 5, -1]]
    assert dense.mask[:, 0].tolist() == [False, True, False, False]


def test_columns_selects_and_orders(recflow_py, testdata):
    ds = recflow_py.read(testdata / "tfrecord" / "tfx" / "penguin-train.tfrecord.gz", columns=["species", "body_mass_g"])
    assert ds.columns == ["species", "body_mass_g"]
    assert list(next(ds.batches())) == ["species", "body_mass_g"]
    with pytest.raises(recflow_py.Error, match="no column 'beak'"):
        recflow_py.read(testdata / "tfrecord" / "tfx" / "penguin-train.tfrecord.gz", columns=["beak"])


def test_to_pandas_keeps_nulls_as_missing_values(recflow_py, testdata, pb):
    import pandas as pd  # here, not at collection (see test_python_torch)

    path = testdata / "tfrecord" / "tfx" / "taxi-train-00000-of-00012.tfrecord.gz"
    frame = recflow_py.read(path).to_pandas()
    want = protobuf_rows(pb, path)
    assert len(frame) == len(want) == 826
    assert str(frame["dropoff_census_tract"].dtype) == "Int64"
    assert [None if v is pd.NA else v for v in frame["dropoff_census_tract"]] == [
        row["dropoff_census_tract"][0] if "dropoff_census_tract" in row else None for row in want]
    assert list(frame["trip_seconds"]) == [row["trip_seconds"][0] for row in want]
    assert list(frame["company"]) == [row["company"][0] if "company" in row else None for row in want]


def test_splits_hold_every_record_once(recflow_py, testdata, pb):
    path = testdata / "tfrecord" / "tfx" / "mnist.tfrecord"
    ds = recflow_py.read(path)
    splits = ds.splits(target_bytes=200_000)
    assert len(splits) > 4
    rows = []
    for split in reversed(splits):
        part = recflow_rows(recflow_py, ds.batches(splits=[split]))
        rows = part + rows
    assert same_rows(rows, protobuf_rows(pb, path))


def test_a_corrupt_record_raises_an_error_naming_file_record_and_offset(recflow_py, testdata, tmp_path):
    data = bytearray((testdata / "tfrecord" / "tfx" / "mnist.tfrecord").read_bytes())
    data[len(data) // 2] ^= 0xFF
    bad = tmp_path / "bad.tfrecord"
    bad.write_bytes(bytes(data))
    with pytest.raises(recflow_py.Error) as error:
        for _ in recflow_py.read(bad, infer_rows=1).batches():
            pass
    text = str(error.value)
    assert text.startswith(f"{bad}: record ") and ", byte offset " in text and "CRC" in text, text


def test_each_read_sees_the_file_as_it_is_then(recflow_py, testdata, tmp_path):
    """A dataset's reads keep its files mapped for the next read (KeptMappings) only while a file is unchanged: one
    replaced, rewritten in place, grown or corrupted between two reads is read as it is at the second."""
    path = tmp_path / "data.tfrecord"
    original = (testdata / "tfrecord" / "tfx" / "mnist.tfrecord").read_bytes()
    path.write_bytes(original)
    ds = recflow_py.read(path)

    def labels():
        return np.concatenate([b["image_class"] for b in ds.batches()]).tolist()

    first = labels()
    assert labels() == first and len(first) == 1000
    half = tmp_path / "half.tfrecord"
    half.write_bytes(original[:len(original) // 2])  # 500 of the 1 000 records (3 203 bytes each)
    os.replace(half, path)
    assert labels() == first[:500]
    path.write_bytes(original)  # grown back, rewritten in place
    assert labels() == first
    data = bytearray(original)
    data[len(data) // 2] ^= 0xFF
    with open(path, "r+b") as f:  # same size, in place
        f.write(data)
    os.utime(path, ns=(0, os.stat(path).st_mtime_ns + 1_000_000))
    with pytest.raises(recflow_py.Error, match="CRC"):
        labels()


def test_inputs_that_cannot_be_read_raise_at_open(recflow_py, testdata, tmp_path):
    with pytest.raises(recflow_py.Error, match="missing"):
        recflow_py.read(tmp_path / "missing.tfrecord")
    with pytest.raises(ValueError, match="batch_mode"):
        next(recflow_py.read(testdata / "tfrecord" / "tfx" / "mnist.tfrecord").batches(10, batch_mode="sometimes"))


def test_binary_as_uint8_lists_views_the_bytes(recflow_py, tmp_path, pb):
    from tfrecord_util import write_tfrecord

    records = []
    for value in (b"\x00\x01\x02", b"", b"\xff" * 5):
        example = pb.Example()
        example.features.feature["raw"].bytes_list.value.append(value)
        records.append(example.SerializeToString())
    path = write_tfrecord(tmp_path / "raw.tfrecord", records)
    column = next(recflow_py.read(path).batches(binary="uint8"))["raw"]
    assert isinstance(column, recflow_py.ListColumn) and column.values.dtype == np.uint8
    assert [column[i].tobytes() for i in range(3)] == [b"\x00\x01\x02", b"", b"\xff" * 5]
    owner = column.values.base
    assert owner.address <= column.values.ctypes.data < owner.address + owner.size
    assert list(next(recflow_py.read(path).batches())["raw"]) == [b"\x00\x01\x02", b"", b"\xff" * 5]


def test_a_partitioned_directory_reads_its_partition_column(recflow_py, run, testdata, tmp_path):
    out = tmp_path / "by-species"
    done = run("convert", testdata / "csv" / "penguins_processed.csv", "-o", out, "--partition-by", "species")
    assert done.returncode == 0, done.stderr
    ds = recflow_py.read(out)
    assert ds.columns[-1] == "species" and ds.schema[-1][1] == "int64"
    frame = ds.to_pandas()
    csv = recflow_py.read(testdata / "csv" / "penguins_processed.csv").to_pandas()
    assert sorted(frame["species"]) == sorted(csv["species"]) and len(frame) == 334
    # TFRecord holds float32: the CSV's doubles compare as float32.
    assert np.array_equal(np.sort(np.float32(frame["body_mass_g"])), np.sort(np.float32(csv["body_mass_g"])))


def test_a_dataset_pickles_for_spawned_workers(recflow_py, testdata):
    import pickle

    ds = recflow_py.read(testdata / "tfrecord" / "tfx" / "mnist.tfrecord", columns=["image_class"])
    splits = pickle.loads(pickle.dumps(ds.splits(200_000)))
    copy = pickle.loads(pickle.dumps(ds))
    assert copy.schema == ds.schema
    got = np.concatenate([b["image_class"] for b in copy.batches(splits=splits)])
    assert np.array_equal(got, np.concatenate([b["image_class"] for b in ds.batches()]))
