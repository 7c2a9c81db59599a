"""recflow.write from Python: every column type written and read back per output format (values and null masks),
the files read by independent readers (python3-protobuf, Apache Arrow JS), DataFrames and generators, Hive
partitions, shards, save modes, and aborts (an exception or Ctrl-C) that leave the previous dataset as it was."""
import json
import os
import subprocess
import sys
import weakref

import numpy as np
import pytest

from interrupt_util import interrupt_when_ready
from node_util import run_node
from python_oracle import protobuf_rows, recflow_rows, same_rows

ROWS = 6
NULLS = np.array([0, 1, 0, 0, 1, 0], dtype=bool)
OFFSETS = np.array([0, 2, 2, 5, 6, 8, 10], dtype=np.int32)


def every_type(recflow):
    """One column of each type recflow writes from NumPy, six rows, nulls in rows 1 and 4 where the type has them;
    with the type recflow reads each back as from Arrow IPC."""
    masked = lambda values: np.ma.MaskedArray(values, mask=NULLS)  # noqa: E731
    ints = {f"{kind}{bits}": (masked(np.arange(ROWS, dtype=f"{kind[0]}{bits // 8}") * 3),
                              f"{'int' if kind == 'int' else 'uint'}{bits}")
            for kind in ("int", "uint") for bits in (8, 16, 32, 64)}
    return {
        "bool": (masked(np.array([1, 0, 1, 1, 0, 0], dtype=bool)), "bool"),
        **ints,
        "float16": (masked(np.linspace(-1, 1, ROWS).astype(np.float16)), "float16"),
        "float32": (masked(np.linspace(-1, 1, ROWS).astype(np.float32)), "float32"),
        "float64": (masked(np.linspace(-1e300, 1e300, ROWS)), "float64"),
        "utf8": (np.array(["a", None, "ccc", "", "é€𝄞", "z"], dtype=object), "utf8"),
        "binary": (np.array([b"a", b"", None, b"\x00\xff", b"x", b"y"], dtype=object), "binary"),
        "timestamp": (np.array(["2020-01-01T00:00:00.123456", "NaT", "1970-01-01", "2000-02-29", "2262-01-01",
                                "1900-01-01"], dtype="M8[us]"), "timestamp[us]"),
        "date": (np.array(["2020-01-01", "NaT", "1970-01-01", "2000-02-29", "2262-01-01", "1900-01-01"],
                          dtype="M8[D]"), "date32"),
        "duration": (masked(np.arange(ROWS).astype("m8[ns]")), "duration[ns]"),
        "list": (recflow.ListColumn(np.arange(10, dtype=np.int64), OFFSETS, NULLS), "list<int64>"),
        "list_of_strings": (recflow.ListColumn(np.array(list("abcdefghi") + [None], dtype=object), OFFSETS),
                            "list<utf8>"),
        "large_list": (recflow.ListColumn(np.arange(10, dtype=np.float32), OFFSETS.astype(np.int64), NULLS),
                       "large_list<float32>"),
        "fixed_size_list": (np.arange(ROWS * 3, dtype=np.int32).reshape(ROWS, 3), "fixed_size_list<int32>[3]"),
        "struct": (recflow.StructColumn({"x": masked(np.arange(ROWS)), "y": np.array(list("abcdef"), dtype=object)},
                                        NULLS), "struct<x: int64, y: utf8>"),
        "map": (recflow.MapColumn(recflow.StructColumn({"key": np.array(list("abcdefghij"), dtype=object),
                                                        "value": np.arange(10, dtype=np.int32)}), OFFSETS, NULLS),
                "map<utf8, int32>"),
        "null": (np.array([None] * ROWS, dtype=object), "null"),
    }


def plain(value):
    """A column element as plain Python (None for nulls, lists for arrays, dicts for structs)."""
    if np.ma.isMaskedArray(value):
        return [None if m else plain(v) for v, m in zip(np.ma.getdata(value), np.ma.getmaskarray(value))]
    if isinstance(value, np.ndarray):
        return [plain(v) for v in value]
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, np.generic):
        return value.item()
    return value


def pylist(recflow, column):
    """Every element of a column (any form recflow reads or writes) as plain Python."""
    if np.ma.isMaskedArray(column):
        return plain(column)
    if isinstance(column, np.ndarray) and column.ndim == 2:
        return [plain(row) for row in column]
    return [plain(column[i]) for i in range(len(column))]


def as_float32(value):
    """Floats (in lists too) as their float32 values."""
    if isinstance(value, list):
        return [as_float32(v) for v in value]
    return None if value is None else float(np.float32(value))


def read_back(recflow, path):
    """(schema, {column: every value}) of a written dataset, read by recflow.read."""
    ds = recflow.read(path)
    values = {name: [] for name in ds.columns}
    for batch in ds.batches():
        for name, column in batch.items():
            values[name] += pylist(recflow, column)
    return ds.schema, values


def data_files(path):
    return sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith(("_", ".")))


@pytest.mark.parametrize("fmt", ["arrow", "feather"])
def test_every_type_round_trips_through_arrow_ipc(recflow_py, tmp_path, fmt):
    columns = every_type(recflow_py)
    stats = recflow_py.write({name: column for name, (column, _) in columns.items()}, tmp_path / "out", format=fmt)
    assert stats["records"] == ROWS and stats["files"] == 1
    schema, values = read_back(recflow_py, tmp_path / "out")
    assert [(name, kind) for name, kind, _ in schema] == [(name, kind) for name, (_, kind) in columns.items()]
    for name, (column, _) in columns.items():
        assert values[name] == pylist(recflow_py, column), name
    assert values["utf8"][1] is None and values["struct"][4] is None and values["map"][1] is None
    assert values["map"][0] == [["a", 0], ["b", 1]]


# What TFRecord (tf.Example), JSON Lines and CSV hold, and the type each reads back as.
HELD = {
    "tfrecord": {"bool": "int64", "int8": "int64", "uint32": "int64", "int64": "int64", "float32": "float32", "utf8": "utf8", "binary": "binary", "list": "list<int64>",
                 "large_list": "list<float32>", "fixed_size_list": "list<int64>"},
    "jsonl": {"bool": "bool", "int16": "int64", "uint64": "int64", "float64": "float64", "utf8": "utf8",
              "list": "list<int64 not null>", "list_of_strings": "list<utf8>", "struct": "struct<x: int64 not null, y: utf8 not null>"},
    "csv": {"bool": "bool", "int32": "int64", "float64": "float64", "utf8": "utf8"},
}


@pytest.mark.parametrize("fmt", sorted(HELD))
def test_the_types_a_format_holds_round_trip(recflow_py, tmp_path, fmt):
    columns = every_type(recflow_py)
    written = {name: columns[name][0] for name in HELD[fmt]}
    if fmt == "jsonl":  # uint64 values JSON's int64 holds
        written["uint64"] = np.ma.MaskedArray(np.arange(ROWS, dtype=np.uint64), mask=NULLS)
    recflow_py.write(written, tmp_path / "out", format=fmt)
    schema, values = read_back(recflow_py, tmp_path / "out")
    assert {name: kind for name, kind, _ in schema} == HELD[fmt]
    for name, column in written.items():
        want = pylist(recflow_py, column)
        got = values[name]
        if HELD[fmt][name] in ("float32", "list<float32>"):  # compared as the float32 values the format holds
            assert as_float32(got) == as_float32(want), name
        elif name == "bool":
            assert [None if g is None else bool(g) for g in got] == want, name
        else:
            assert got == want, name


def test_tf_examples_hold_structs_and_maps_as_one_feature_per_member(recflow_py, tmp_path):
    columns = every_type(recflow_py)
    recflow_py.write({"struct": columns["struct"][0], "map": columns["map"][0]}, tmp_path / "out")
    schema, values = read_back(recflow_py, tmp_path / "out")
    assert [(name, kind) for name, kind, _ in schema] == [
        ("struct.x", "int64"), ("struct.y", "utf8"), ("map.key", "list<utf8>"), ("map.value", "list<int64>")]
    assert values["struct.x"] == [0, None, 2, 3, None, 5] and values["struct.y"] == ["a", None, "c", "d", None, "f"]
    assert values["map.key"] == [["a", "b"], None, ["c", "d", "e"], ["f"], None, ["i", "j"]]
    assert values["map.value"] == [[0, 1], None, [2, 3, 4], [5], None, [8, 9]]


@pytest.mark.parametrize("fmt, column, kind", [("csv", "list", "list<int64>"), ("csv", "binary", "binary"),
                                               ("csv", "struct", "struct<x: int64, y: utf8>"),
                                               ("csv", "map", "map<utf8, int32>"), ("csv", "float16", "float16"),
                                               ("csv", "timestamp", "timestamp"), ("csv", "date", "date32")])
def test_a_type_the_format_cannot_hold_is_refused_by_name(recflow_py, tmp_path, fmt, column, kind):
    data = {"id": np.arange(ROWS), column: every_type(recflow_py)[column][0]}
    with pytest.raises(recflow_py.Error, match=f"'{column}'.*{kind[:6]}"):
        recflow_py.write(data, tmp_path / "out", format=fmt)
    assert not (tmp_path / "out").exists()


def test_tf_examples_read_by_protobuf(recflow_py, tmp_path, pb):
    columns = every_type(recflow_py)
    batch = {name: columns[name][0] for name in ("int64", "float32", "utf8", "list", "large_list")}
    recflow_py.write(batch, tmp_path / "out", format="tfrecord")
    [path] = data_files(tmp_path / "out")
    got = protobuf_rows(pb, path)
    assert same_rows(got, recflow_rows(recflow_py, [batch]))


def test_arrow_files_read_by_arrow_js(recflow_py, tmp_path):
    columns = every_type(recflow_py)
    names = ["bool", "int32", "float64", "utf8", "list", "struct", "map"]
    recflow_py.write({name: columns[name][0] for name in names}, tmp_path / "out", format="feather")
    [path] = data_files(tmp_path / "out")
    result = run_node("arrow_read.mjs", path)
    assert result.returncode == 0, result.stderr
    table = json.loads(result.stdout)
    assert table["rows"] == ROWS and [f["name"] for f in table["schema"]] == names
    got = table["columns"]
    assert got["bool"] == [True, None, True, True, None, False]
    assert got["int32"] == [0, None, 6, 9, None, 15]
    assert got["utf8"] == ["a", None, "ccc", "", "é€𝄞", "z"]
    assert got["list"] == [["0", "1"], None, ["2", "3", "4"], ["5"], None, ["8", "9"]]  # int64 as decimal text
    assert got["struct"] == [{"x": "0", "y": "a"}, None, {"x": "2", "y": "c"}, {"x": "3", "y": "d"}, None,
                             {"x": "5", "y": "f"}]
    assert got["map"][0] == {"a": 0, "b": 1} and got["map"][1] is None


def test_a_dataframe_with_nullable_columns(recflow_py, tmp_path):
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({
        "n": pd.array([1, None, 3], dtype="Int64"),
        "f": pd.array([0.5, 1.5, None], dtype="Float32"),
        "b": pd.array([True, None, False], dtype="boolean"),
        "s": pd.array(["x", None, "z"], dtype="string"),
        "o": ["p", None, "r"],
        "nan": ["p", "q", np.nan],  # pandas' missing value in an object column
        "t": pd.to_datetime(["2024-01-01", None, "2024-03-01"]),
        "l": [np.array([1, 2]), np.array([], dtype=np.int64), np.array([3])],
        "tz": pd.to_datetime(["2024-01-01 01:00", "2024-01-01 02:00", None]).tz_localize("Europe/Paris"),
        "d": [{"a": 1, "b": "x"}, None, {"a": 3}],
    })
    recflow_py.write(frame, tmp_path / "out", format="feather")
    schema, values = read_back(recflow_py, tmp_path / "out")
    assert [kind for _, kind, _ in schema] == ["int64", "float32", "bool", "utf8", "utf8", "utf8", "timestamp[ns]",
                                                "list<int64>", "timestamp[ns]", "struct<a: int64, b: utf8>"]
    assert values["n"] == [1, None, 3] and values["f"] == [0.5, 1.5, None] and values["b"] == [True, None, False]
    assert values["s"] == ["x", None, "z"] and values["o"] == ["p", None, "r"] and values["nan"] == ["p", "q", None]
    assert values["t"][1] is None and values["l"] == [[1, 2], [], [3]]
    assert [None if t is None else t // 10**9 for t in values["tz"]] == [1704067200, 1704070800, None]  # UTC
    assert values["d"] == [{"a": 1, "b": "x"}, None, {"a": 3, "b": None}]
    back = recflow_py.read(tmp_path / "out").to_pandas()
    assert back["n"].isna().tolist() == [False, True, False]


def test_strings_past_the_int32_offsets_are_large(recflow_py, tmp_path, monkeypatch):
    from recflow import _nodes

    monkeypatch.setattr(_nodes, "_INT32_MAX", 3)  # as if the bytes passed 2 GiB
    recflow_py.write({"s": np.array(["ab", "cd", "e"], dtype=object), "b": np.array([b"xyz", b"w", b""], dtype=object)},
                     tmp_path / "out", format="arrow")
    schema, values = read_back(recflow_py, tmp_path / "out")
    assert [kind for _, kind, _ in schema] == ["large_utf8", "large_binary"]
    assert values == {"s": ["ab", "cd", "e"], "b": [b"xyz", b"w", b""]}


def test_tensorflow_examples_written_back_equal_the_originals(recflow_py, testdata, tmp_path, pb):
    source = testdata / "tfrecord" / "tfx" / "taxi-train-00000-of-00012.tfrecord.gz"
    stats = recflow_py.write(recflow_py.read(source).batches(100), tmp_path / "out", compression="gzip", threads=2)
    [path] = data_files(tmp_path / "out")
    assert stats["records"] == 826 and path.name.endswith(".tfrecord.gz")
    assert same_rows(protobuf_rows(pb, path), protobuf_rows(pb, source))


def test_a_dataset_is_written_whole(recflow_py, testdata, tmp_path):
    source = recflow_py.read(testdata / "csv" / "penguins_processed.csv")
    assert recflow_py.write(source, tmp_path / "out", format="feather")["records"] == 334
    assert recflow_py.read(tmp_path / "out").to_pandas().equals(source.to_pandas())


def test_a_generator_streams_its_batches_through(recflow_py, tmp_path):
    alive = []

    def batches():
        for i in range(60):
            values = np.arange(i * 100, (i + 1) * 100, dtype=np.int64)
            alive.append(weakref.ref(values))
            # Earlier batches are let go once written: a bound from the queue and the units in flight.
            assert sum(r() is not None for r in alive) <= 16
            yield {"id": values, "name": np.array([f"n{j}" for j in range(100)], dtype=object)}

    stats = recflow_py.write(batches(), tmp_path / "out", format="tfrecord", threads=1)
    assert stats["records"] == 6000
    _, values = read_back(recflow_py, tmp_path / "out")
    assert values["id"] == list(range(6000))


def test_partition_by_makes_hive_directories_the_cli_reads(recflow_py, tmp_path, run):
    data = {"k": np.array(["a", "b", "a", "c"], dtype=object), "v": np.arange(4)}
    stats = recflow_py.write(data, tmp_path / "out", format="jsonl", partition_by="k")
    assert stats["partitions"] == 3
    assert sorted(p.name for p in (tmp_path / "out").iterdir() if p.is_dir()) == ["k=a", "k=b", "k=c"]
    _, values = read_back(recflow_py, tmp_path / "out")
    assert sorted(zip(values["k"], values["v"])) == [("a", 0), ("a", 2), ("b", 1), ("c", 3)]
    out = run("cat", str(tmp_path / "out"))
    assert out.returncode == 0, out.stderr
    rows = sorted((r["k"], r["v"]) for r in map(json.loads, out.stdout.splitlines()))
    assert rows == [("a", 0), ("a", 2), ("b", 1), ("c", 3)]


def test_shards(recflow_py, tmp_path):
    recflow_py.write({"v": np.arange(100)}, tmp_path / "out", shards=3)
    files = [p.name for p in data_files(tmp_path / "out")]
    assert files == [f"part-0000{i}-of-00003.tfrecord" for i in range(3)]
    assert sorted(read_back(recflow_py, tmp_path / "out")[1]["v"]) == list(range(100))


def test_modes(recflow_py, tmp_path):
    out = tmp_path / "out"
    recflow_py.write({"v": np.arange(3)}, out, format="csv")
    with pytest.raises(recflow_py.Error, match="already holds a dataset"):
        recflow_py.write({"v": np.arange(5)}, out, format="csv")
    assert read_back(recflow_py, out)[1]["v"] == [0, 1, 2]
    recflow_py.write({"v": np.arange(10, 12)}, out, format="csv", mode="append")
    assert sorted(read_back(recflow_py, out)[1]["v"]) == [0, 1, 2, 10, 11]
    recflow_py.write({"v": np.arange(20, 21)}, out, format="csv", mode="overwrite")
    assert read_back(recflow_py, out)[1]["v"] == [20]


def test_overwrite_partitions_replaces_only_the_partitions_written(recflow_py, tmp_path):
    out = tmp_path / "out"
    recflow_py.write({"k": np.array(["a", "b"], dtype=object), "v": np.array([1, 2])}, out, format="jsonl",
                     partition_by="k")
    recflow_py.write({"k": np.array(["b", "c"], dtype=object), "v": np.array([20, 30])}, out, format="jsonl",
                     partition_by="k", mode="overwrite-partitions")
    _, values = read_back(recflow_py, out)
    assert sorted(zip(values["k"], values["v"])) == [("a", 1), ("b", 20), ("c", 30)]


def test_sequence_examples_round_trip(recflow_py, tmp_path):
    steps = recflow_py.ListColumn(np.arange(6, dtype=np.int64), np.array([0, 2, 3, 6], dtype=np.int32))
    recflow_py.write({"id": np.arange(3), "steps": steps}, tmp_path / "out", record_type="sequence_example")
    ds = recflow_py.read(tmp_path / "out", record_type="sequence_example")
    batch = next(ds.batches())
    assert batch["id"].tolist() == [0, 1, 2]
    assert [batch["steps"][i].tolist() for i in range(3)] == [[0, 1], [2], [3, 4, 5]]


def snapshot(path):
    """Every file (with its bytes) and directory beside and under `path`: what a failed write leaves unchanged."""
    return {str(p.relative_to(path.parent)): p.read_bytes() if p.is_file() else None for p in path.parent.rglob("*")}


@pytest.mark.parametrize("error", [ValueError("bad batch"), KeyboardInterrupt()])
def test_an_exception_in_the_data_aborts_the_write(recflow_py, tmp_path, error):
    out = tmp_path / "out"
    recflow_py.write({"v": np.arange(3)}, out, format="feather")
    before = snapshot(out)

    def batches():
        yield {"v": np.arange(100)}
        yield {"v": np.arange(100, 200)}
        raise error

    with pytest.raises(type(error)):
        recflow_py.write(batches(), out, format="feather", mode="overwrite")
    assert snapshot(out) == before


@pytest.mark.parametrize("second, message", [
    ({"v": np.arange(3, dtype=np.int32)}, "column 'v' is int32 here but int64 in the first batch"),
    ({"w": np.arange(3)}, "column 'w' is not column 0"),
    ({"v": np.array(["x", 1], dtype=object)}, "column 'v': an object column holds one kind of value"),
])
def test_a_bad_batch_aborts_the_write_naming_the_column(recflow_py, tmp_path, second, message):
    def batches():
        yield {"v": np.arange(3)}
        yield second

    with pytest.raises((recflow_py.Error, TypeError), match=message):
        recflow_py.write(batches(), tmp_path / "out")
    assert list(tmp_path.iterdir()) == []


def test_a_value_the_format_refuses_names_its_record_over_all_batches(recflow_py, tmp_path):
    def strings(values, offsets):
        return recflow_py.ListColumn(np.array(values, dtype=object), np.array(offsets, dtype=np.int32))

    batches = [{"l": strings(["a", "b", "c"], [0, 1, 2, 3])}, {"l": strings(["d", "e", None], [0, 1, 3])}]
    with pytest.raises(recflow_py.Error, match=r"python batches: record 4, field 'l': a list holds a null element"):
        recflow_py.write(batches, tmp_path / "out", format="tfrecord")
    assert list(tmp_path.iterdir()) == []


def test_no_batch_at_all_writes_nothing(recflow_py, tmp_path):
    with pytest.raises(recflow_py.Error, match="nothing to write"):
        recflow_py.write(iter([]), tmp_path / "out")
    assert list(tmp_path.iterdir()) == []


def test_hostile_columns_are_refused_by_name(recflow_py, tmp_path):
    past_the_values = recflow_py.ListColumn(np.arange(3), np.array([0, 2, 9], dtype=np.int32))
    decreasing = recflow_py.ListColumn(np.arange(3), np.array([0, 2, 1], dtype=np.int64))
    entries = recflow_py.StructColumn({"key": np.array(["a", None], dtype=object), "value": np.arange(2)})
    null_key = recflow_py.MapColumn(entries, np.array([0, 2], dtype=np.int32))
    for name, column, message in [("l", past_the_values, "column 'l'"), ("d", decreasing, "column 'd'"),
                                  ("m", null_key, "column 'm': a map's entries and keys cannot be null")]:
        with pytest.raises(recflow_py.Error, match=message):
            recflow_py.write({name: column}, tmp_path / "out", format="arrow")
    assert list(tmp_path.iterdir()) == []


ZERO_COPY_CHILD = r"""
import json, sys
import numpy as np
import recflow

def peak_rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024

# 256 MiB, its pages touched: one batch of 32 Mi rows, or of 256 Ki rows of 1 KiB
values = np.arange(32 << 20, dtype=np.float64).reshape(-1, int(sys.argv[3]))
before = peak_rss()
recflow.write({"x": values}, sys.argv[1], format=sys.argv[2], threads=1)
print(json.dumps({"before": before, "after": peak_rss(), "values": values.nbytes}))
"""


@pytest.mark.parametrize("out_format,width", [("feather", 128), ("feather", 1), ("tfrecord", 1)])
def test_fixed_width_columns_are_written_without_a_copy(python_package_dir, tmp_path, out_format, width):
    child = subprocess.run([sys.executable, "-c", ZERO_COPY_CHILD, str(tmp_path / "out"), out_format, str(width)],
                           capture_output=True, text=True, timeout=300,
                           env={**os.environ, "PYTHONPATH": str(python_package_dir)})
    assert child.returncode == 0, child.stderr
    seen = json.loads(child.stdout)
    # The values go out from the array's own pages, one bounded slice of rows at a time: a copy of them would
    # raise the peak by 256 MiB, the 1.1 GB of TFRecords encoded from one 32 Mi-row batch by far more.
    assert seen["after"] - seen["before"] < seen["values"] // 4, seen


CHILD = r"""
import sys
import numpy as np
import recflow

def batches():
    i = 0
    while True:  # until interrupted
        yield {"v": np.arange(i, i + 1000)}
        if i == 0:
            print("writing", flush=True)
        i += 1000

try:
    recflow.write(batches(), sys.argv[1], format="tfrecord", mode="overwrite")
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


def test_ctrl_c_aborts_a_write(python_package_dir, recflow_py, tmp_path):
    out = tmp_path / "out"
    recflow_py.write({"v": np.arange(3)}, out, format="tfrecord")
    before = snapshot(out)
    returncode, stdout, stderr = interrupt_when_ready(CHILD, [out], python_package_dir, "writing")
    assert returncode == 0, stderr
    assert stdout == "interrupted\n", (stdout, stderr)
    assert snapshot(out) == before


def test_a_string_that_is_not_unicode_is_refused_by_name(recflow_py, tmp_path):
    with pytest.raises(TypeError, match="column 's': a string is not valid Unicode"):
        recflow_py.write({"s": np.array(["ok", "\ud800"], dtype=object)}, tmp_path / "out", format="jsonl")
    assert not (tmp_path / "out").exists()


def test_object_columns_take_every_null_marker_and_scalar_kind(recflow_py, tmp_path):
    import pandas as pd

    nan = float("nan")
    columns = {
        "s": np.array(["a", None, nan, pd.NA, pd.NaT, "é"], dtype=object),
        "b": np.array([b"x", bytearray(b"yz"), memoryview(b"w"), None, b"", np.float64("nan")], dtype=object),
        "t": np.array([True, np.bool_(False), None, True, np.bool_(True), False], dtype=object),
        "i": np.array([1, np.int32(-2), None, 2 ** 62, np.uint8(255), pd.NA], dtype=object),
        "f": np.array([1.5, np.float32(0.25), nan, -2.0, np.float64(3.0), None], dtype=object),
        "strided": np.array(["a", "skip", "b", "skip", None, "skip", "c", "skip", "d", "skip", "e", "skip"],
                            dtype=object)[::2],
        "none": np.array([None] * ROWS, dtype=object),
    }
    recflow_py.write(columns, tmp_path / "out", format="arrow")
    schema, values = read_back(recflow_py, tmp_path / "out")
    assert [(name, kind) for name, kind, _ in schema] == [
        ("s", "utf8"), ("b", "binary"), ("t", "bool"), ("i", "int64"), ("f", "float64"), ("strided", "utf8"),
        ("none", "null")]
    assert values["s"] == ["a", None, None, None, None, "é"]
    assert values["b"] == [b"x", b"yz", b"w", None, b"", None]
    assert values["t"] == [True, False, None, True, True, False]
    assert values["i"] == [1, -2, None, 2 ** 62, 255, None]
    assert values["f"] == [1.5, 0.25, None, -2.0, 3.0, None]
    assert values["strided"] == ["a", "b", None, "c", "d", "e"]
    assert values["none"] == [None] * ROWS


@pytest.mark.parametrize("column, error, message", [
    (np.array(["x", 1], dtype=object), TypeError, r"column 'v': an object column holds one kind of value, not "
                                                   r"\['int', 'str'\]"),
    (np.array([1, 2 ** 63], dtype=object), OverflowError, "column 'v': 9223372036854775808 does not fit in int64"),
    (np.array([object(), None], dtype=object), TypeError, "column 'v': recflow cannot write items of type object"),
])
def test_an_object_column_recflow_cannot_write_is_refused_by_name(recflow_py, tmp_path, column, error, message):
    with pytest.raises(error, match=message):
        recflow_py.write({"v": column}, tmp_path / "out", format="arrow")
    assert not (tmp_path / "out").exists()
