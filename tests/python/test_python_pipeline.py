"""recflow.run and recflow.Pipeline from Python (the build's module): a YAML example equal to the CLI's output byte for
byte, Python map / filter / flat_map over TensorFlow's records checked against the python3-protobuf decode, an
exception in a function chained to the run's error, and Ctrl-C stopping a run through its stop token."""
import filecmp
import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from interrupt_util import interrupt_when_ready
from python_oracle import protobuf_rows, same_rows

ROOT = Path(__file__).resolve().parents[2]
IRIS = ROOT / "examples" / "sklearn-features" / "pipeline.yaml"


def tree(path):
    """Every file under `path` (or the file itself), relative path → bytes."""
    path = Path(path)
    if path.is_file():
        return {path.name: path.read_bytes()}
    return {str(f.relative_to(path)): f.read_bytes() for f in sorted(path.rglob("*")) if f.is_file()}


def test_run_equals_the_cli_byte_for_byte(recflow_py, recflow_bin, tmp_path):
    cli_out, py_out = tmp_path / "cli" / "iris", tmp_path / "py" / "iris"
    cli_out.parent.mkdir()
    py_out.parent.mkdir()
    done = subprocess.run([str(recflow_bin), "run", str(IRIS), "--set", f"out={cli_out}", "--quiet"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    metrics = recflow_py.run(IRIS, params={"out": py_out}, threads=2)
    assert tree(py_out) and tree(py_out) == tree(cli_out)
    assert filecmp.cmp(f"{py_out}-species.vocab", f"{cli_out}-species.vocab", shallow=False)
    assert metrics.name == "iris-features" and len(metrics.stages) == 2
    assert metrics.steps["read"]["rows_out"] == 300  # read in both passes
    assert metrics.steps["one_hot"]["rows_in"] == metrics.steps["one_hot"]["rows_out"] == 150
    assert metrics.writes["write"]["records"] == 150 and metrics.writes["write"]["files"] == 2
    assert metrics.writes["write"]["bytes_written"] == sum(len(b) for n, b in tree(py_out).items()
                                                           if n.endswith(".tfrecord"))
    # The write's numbers are named as recflow convert --json names them.
    summary = subprocess.run([str(recflow_bin), "convert", str(py_out), "--output", str(tmp_path / "converted"),
                              "--json"], capture_output=True, text=True, timeout=120)
    assert summary.returncode == 0, summary.stderr
    assert set(metrics.writes["write"]) <= set(json.loads(summary.stdout))


def test_run_reports_the_cli_error_and_leaves_the_output(recflow_py, tmp_path):
    with pytest.raises(recflow_py.Error, match="no parameter 'outt'"):
        recflow_py.run(IRIS, params={"outt": tmp_path / "x"})
    assert not list(tmp_path.iterdir())


def test_a_python_map_writes_the_expected_records(recflow_py, testdata, pb, tmp_path):
    source = testdata / "tfrecord" / "tfx" / "penguin-train.tfrecord.gz"

    def kilograms(batch):
        return {"species": batch["species"], "body_mass_kg": batch["body_mass_g"] / np.float32(1000),
                "name": np.array([f"penguin-{s}" for s in batch["species"]], dtype=str)}

    p = recflow_py.Pipeline("penguins")
    p.read(source).map(kilograms).write(tmp_path / "out", format="tfrecord", shards=1)
    metrics = p.run(threads=2)
    want = [{"species": row["species"], "body_mass_kg": [np.float32(row["body_mass_g"][0]) / np.float32(1000)],
             "name": [f"penguin-{row['species'][0]}"]} for row in protobuf_rows(pb, source)]
    assert metrics.steps["map"]["rows_in"] == metrics.steps["map"]["rows_out"] == len(want)
    [written] = (tmp_path / "out").glob("*.tfrecord")
    assert same_rows(protobuf_rows(pb, written), want)


def test_filter_keeps_the_rows_of_the_mask(recflow_py, testdata, pb, tmp_path):
    source = testdata / "tfrecord" / "tfx" / "mnist.tfrecord"
    p = recflow_py.Pipeline()
    p.read(source).filter(lambda batch: batch["image_class"] % 3 == 0).write(tmp_path / "out", format="tfrecord",
                                                                           shards=1)
    metrics = p.run()
    want = [row for row in protobuf_rows(pb, source) if row["image_class"][0] % 3 == 0]
    [written] = (tmp_path / "out").glob("*.tfrecord")
    assert metrics.steps["filter"]["rows_out"] == len(want) > 0
    assert same_rows(protobuf_rows(pb, written), want)


def test_flat_map_emits_any_number_of_batches(recflow_py, testdata, pb, tmp_path):
    source = testdata / "tfrecord" / "tfx" / "penguin-train.tfrecord.gz"

    def twice_the_heavy_ones(batch):
        heavy = batch["body_mass_g"] > 4000
        yield {"species": batch["species"][heavy], "mass": batch["body_mass_g"][heavy]}
        yield {"species": batch["species"], "mass": batch["body_mass_g"]}

    p = recflow_py.Pipeline()
    p.read(source).flat_map(twice_the_heavy_ones, schema={"species": "int64", "mass": "float32"}) \
        .write(tmp_path / "out", format="jsonl", shards=1)
    metrics = p.run(threads=1)
    rows = protobuf_rows(pb, source)
    heavy = [r for r in rows if r["body_mass_g"][0] > 4000]
    assert metrics.steps["flat_map"]["rows_out"] == len(heavy) + len(rows)
    [written] = (tmp_path / "out").glob("*.jsonl")
    lines = written.read_text().splitlines()
    assert len(lines) == len(heavy) + len(rows)
    assert lines[0].startswith('{"species":') and '"mass":' in lines[0]


@pytest.mark.parametrize("name", ["taxi-train-00000-of-00012.tfrecord.gz", "mnist.tfrecord"])
def test_an_identity_map_writes_the_same_bytes(recflow_py, testdata, tmp_path, name):
    # Strings, nulls (masked arrays, a null-typed column) and lists go to Python and back unchanged.
    source = testdata / "tfrecord" / "tfx" / name
    for with_map in (False, True):
        p = recflow_py.Pipeline()
        step = p.read(source)
        if with_map:
            step = step.map(lambda batch: batch)
        step.write(tmp_path / str(with_map), format="tfrecord", shards=1)
        p.run()
    assert tree(tmp_path / "True") == tree(tmp_path / "False")


def test_map_results_of_the_column_dtype_are_not_copied(recflow_py, testdata, pb, tmp_path):
    # The next map sees the arrays the first one made: NumPy views on Arrow buffers wrapping their memory.
    source = testdata / "tfrecord" / "tfx" / "mnist.tfrecord"
    made, seen = {}, []

    def make(batch):
        doubled = batch["image_class"] * 2                       # int64, as the column
        dense = batch["image_floats"].to_dense() * np.float32(2)  # rows x 784 float32: list<float32>
        made[doubled.ctypes.data] = made[dense.ctypes.data] = True
        return {"image_class": doubled, "image_floats": dense}

    def look(batch):
        if len(batch["image_class"]):
            seen.append(batch["image_class"].base.address in made and batch["image_floats"].values.base.address in made)
        return batch

    p = recflow_py.Pipeline()
    p.read(source).map(make).map(look).write(tmp_path / "out", format="tfrecord", shards=1)
    p.run(threads=2)
    assert seen and all(seen)
    [written] = (tmp_path / "out").glob("*.tfrecord")
    want = [{"image_class": [2 * row["image_class"][0]],
             "image_floats": [2 * np.float32(v) for v in row["image_floats"]]} for row in protobuf_rows(pb, source)]
    assert same_rows(protobuf_rows(pb, written), want)


def test_an_exception_in_fn_fails_the_run_from_it(recflow_py, testdata, tmp_path):
    source = testdata / "tfrecord" / "tfx" / "mnist.tfrecord"

    def fussy(batch):
        if (batch["image_class"] == 7).any():
            raise ValueError("no sevens")
        return batch

    p = recflow_py.Pipeline()
    p.read(source).map(fussy, name="fussy").write(tmp_path / "out", format="tfrecord")
    with pytest.raises(recflow_py.Error) as raised:
        p.run()
    message = str(raised.value)
    assert "step 'fussy'" in message and "ValueError: no sevens" in message, message
    assert str(source) in message and "record 0" in message and "in the batch of records 0 to 999" in message, message
    assert isinstance(raised.value.__cause__, ValueError) and str(raised.value.__cause__) == "no sevens"
    assert raised.value.__cause__.__traceback__ is not None
    assert not (tmp_path / "out").exists() and not list(tmp_path.iterdir())


def test_flat_map_rows_are_attributed_to_the_source_rows_it_yields(recflow_py, testdata, tmp_path):
    source = testdata / "tfrecord" / "tfx" / "mnist.tfrecord"  # one batch: records 0 to 999

    def explode(batch):
        if len(batch["image_class"]) < 8:
            return
        values = np.ma.MaskedArray(np.arange(3), mask=[False, False, True])  # the third row's list holds a null
        yield np.array([3, 7, 7]), {"l": recflow_py.ListColumn(values, np.array([0, 1, 2, 3], dtype=np.int32))}

    p = recflow_py.Pipeline()
    p.read(source).flat_map(explode, schema={"l": "list<int64>"}).write(tmp_path / "out", format="tfrecord")
    with pytest.raises(recflow_py.Error, match=f"{source}: record 7, field 'l': step 'write': a list holds a null"):
        p.run(threads=1)


@pytest.mark.parametrize("rows, message", [
    (np.array([0, 1]), "it yielded 2 source rows for a batch of 3 rows"),
    (np.array([0, 1, 5000]), "it yielded source row 5000, not a row of its batch of 1000"),
    (np.array([0.0, 1.0, 2.0]), "it yielded source rows of dtype float64, not integers"),
])
def test_flat_map_source_rows_are_checked(recflow_py, testdata, tmp_path, rows, message):
    def explode(batch):
        if len(batch["image_class"]):
            yield rows, {"c": batch["image_class"][:3]}

    p = recflow_py.Pipeline()
    p.read(testdata / "tfrecord" / "tfx" / "mnist.tfrecord").flat_map(explode, schema={"c": "int64"}) \
        .write(tmp_path / "out", format="jsonl")
    with pytest.raises(recflow_py.Error, match=rf"step 'flat_map': flat_map function .*explode: {message}"):
        p.run(threads=1)
    assert not list(tmp_path.iterdir())


def test_a_map_result_of_the_wrong_shape_names_the_column(recflow_py, testdata, tmp_path):
    source = testdata / "tfrecord" / "tfx" / "penguin-train.tfrecord.gz"
    p = recflow_py.Pipeline()
    p.read(source).map(lambda b: {"species": b["species"][:10] if len(b["species"]) else b["species"]}) \
        .write(tmp_path / "out", format="jsonl")
    wrong_shape = r"step 'map': map function .*: column 'species': expected \d+ values, got 10"
    with pytest.raises(recflow_py.Error, match=wrong_shape):
        p.run()


def first_row_only(batch):
    return {"first": np.full(len(batch["species"]), batch["species"][0])}  # IndexError on an empty batch


@pytest.mark.parametrize("add, message", [
    (lambda step: step.filter(lambda b: b["species"]), r"filter function .*: it returned an array of dtype int64 and 1 "
                                                        r"dimension\(s\), not a boolean mask of \d+ rows"),
    (lambda step: step.map(first_row_only), r"map function first_row_only raised IndexError: .* when called on an "
                                            r"empty batch to learn its output columns; name them with schema="),
    (lambda step: step.map(lambda b: [1, 2]), r"map function .*: it returned a list, not a dict of columns"),
    (lambda step: step.map(lambda b: {"x": b["species"]}, schema={"x": "utf8"}),
     r"map function .*: column 'x' is int64 here but utf8 in the step's output schema"),
])
def test_what_a_function_returns_is_checked(recflow_py, testdata, tmp_path, add, message):
    p = recflow_py.Pipeline()
    add(p.read(testdata / "tfrecord" / "tfx" / "penguin-train.tfrecord.gz")).write(tmp_path / "out", format="jsonl")
    with pytest.raises(recflow_py.Error, match=message):
        p.run()
    assert not list(tmp_path.iterdir())


def test_builder_steps_come_from_the_registry(recflow_py, testdata, tmp_path):
    source = testdata / "csv" / "penguins_processed.csv"
    p = recflow_py.Pipeline()
    p.read(source).select(["species", "culmen_length_mm"]).filter("culmen_length_mm > 50") \
        .write(tmp_path / "out", format="jsonl", shards=1)
    metrics = p.run()
    assert list(metrics.steps) == ["read", "select", "filter", "write"]
    with pytest.raises(AttributeError, match="no step 'not_a_step'"):
        p.not_a_step()
    frame = recflow_py.read(tmp_path / "out").to_pandas()
    assert list(frame.columns) == ["species", "culmen_length_mm"] and (frame["culmen_length_mm"] > 50).all()


CTRL_C_CHILD = r"""
import signal
import sys
import threading
import recflow

handled = threading.Event()


def on_sigint(signum, frame):
    handled.set()
    raise KeyboardInterrupt


signal.signal(signal.SIGINT, on_sigint)


def wait_for_the_signal(batch):
    if len(batch["image_class"]) == 0:  # the call on an empty batch that learns the output columns
        return batch
    print("progress", flush=True)
    handled.wait()  # the run cannot end before Python's SIGINT handler ran
    return batch


p = recflow.Pipeline()
p.read(sys.argv[1]).map(wait_for_the_signal).write(sys.argv[2], format="tfrecord")
try:
    p.run(threads=2)
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


def test_ctrl_c_stops_a_run_through_its_stop_token(python_package_dir, testdata, tmp_path):
    # The function waits until the child's SIGINT handler ran, and Python runs handlers only on the main thread:
    # a run waited for without the native signal check never ends (the test's timeout bounds that hang).
    mnist = testdata / "tfrecord" / "tfx" / "mnist.tfrecord"
    returncode, out, err = interrupt_when_ready(CTRL_C_CHILD, [mnist, tmp_path / "out"], python_package_dir, "progress")
    assert returncode == 0, err
    assert out.splitlines()[-1] == "interrupted", (out, err)
    assert not list(tmp_path.iterdir())  # no output, no staging left


def test_a_map_returns_every_column_recflow_write_takes(recflow_py, testdata, tmp_path):
    # One conversion for recflow.write and map results: datetimes, masked arrays, dicts as structs, 2-D arrays.
    source = testdata / "tfrecord" / "tfx" / "penguin-train.tfrecord.gz"

    def more(batch):
        species = batch["species"]
        n = len(species)
        return {"when": np.arange(n).astype("datetime64[s]"),
                "even": np.ma.MaskedArray(np.arange(n), mask=np.arange(n) % 2 == 1),
                "pair": {"a": species, "b": species * 2},
                "grid": np.arange(n * 2, dtype=np.int16).reshape(n, 2)}

    p = recflow_py.Pipeline()
    p.read(source).map(more).write(tmp_path / "out", format="arrow", shards=1)
    p.run(threads=2)
    dataset = recflow_py.read(tmp_path / "out")
    assert {name: t for name, t, _ in dataset.schema} == {
        "when": "timestamp[s]", "even": "int64", "pair": "struct<a: int64, b: int64>", "grid": "list<int16>"}
    [batch] = list(dataset.batches(1 << 20))
    n = len(batch["when"])
    assert n > 0 and (batch["when"] == np.arange(n).astype("datetime64[s]")).all()
    assert batch["even"].mask.tolist() == [i % 2 == 1 for i in range(n)]
    assert batch["even"].compressed().tolist() == list(range(0, n, 2))
    assert (batch["pair"]["b"] == 2 * batch["pair"]["a"]).all()
    assert batch["grid"].to_dense().tolist() == np.arange(n * 2).reshape(n, 2).tolist()


def test_a_map_result_of_another_type_than_its_first_names_both(recflow_py, testdata, tmp_path):
    source = testdata / "tfrecord" / "tfx" / "penguin-train.tfrecord.gz"
    p = recflow_py.Pipeline()
    p.read(source).map(lambda b: {"x": b["species"] if len(b["species"]) else b["species"].astype(np.int32)}) \
        .write(tmp_path / "out", format="jsonl")
    with pytest.raises(recflow_py.Error, match=r"column 'x' is int64 here but int32 in the step's output schema"):
        p.run()
