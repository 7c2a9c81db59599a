"""What the README promises about commands and types: suggestions, defaults in --help, null texts, schema hints,
float columns that stay float through text formats, inference that never fails valid data, URI schemes, and
`recflow plan` before a pipeline's input exists and on what `run` would reject."""
import json
from pathlib import Path

from examples_util import example
from tfrecord_util import read_tfrecord, write_tfrecord

ROOT = Path(__file__).resolve().parents[2]


def _rows(stdout):
    return [json.loads(line) for line in stdout.splitlines()]


def _features(pb, path):
    out = []
    for shard in sorted(Path(path).rglob("part-*")):
        for record in read_tfrecord(shard):
            out.append(pb.Example.FromString(record).features.feature)
    return out


def test_a_misspelt_command_is_named_with_its_likely_meaning(run):
    result = run("convrt", "x.csv", "-o", "out")
    assert result.returncode == 2
    assert "unknown command 'convrt'; did you mean 'convert'?" in result.stderr
    assert "A subcommand is required" not in result.stderr
    assert "unknown command 'frobnicate' (commands:" in run("frobnicate").stderr


def test_help_shows_defaults(run):
    text = run("convert", "--help").stdout
    lines = {line.split()[0]: line for line in text.splitlines() if line.strip().startswith("--")}
    assert lines["--to"].endswith("=tfrecord"), lines["--to"]
    assert lines["--mode"].endswith("=error"), lines["--mode"]
    assert lines["--naming"].endswith("=beam"), lines["--naming"]
    assert lines["--infer-rows"].endswith("=10000"), lines["--infer-rows"]
    assert "=[]" not in text and "--json  " in text  # lists and flags show no default


def test_null_values_add_to_the_empty_field(run, tmp_path):
    path = tmp_path / "n.csv"
    path.write_text('a,b\n1,x\n,y\nNA,z\n4,""\n')
    result = run("cat", "--null-values", "NA", path)
    assert result.returncode == 0, result.stderr
    assert _rows(result.stdout) == [{"a": 1, "b": "x"}, {"a": None, "b": "y"}, {"a": None, "b": "z"},
                                    {"a": 4, "b": ""}]


def test_cat_accepts_both_spellings_of_sequence_example(run, testdata):
    path = testdata / "tfrecord" / "tfx" / "transform-sequence-example.tfrecord.gz"
    outputs = set()
    for spelling in ("sequence-example", "sequence_example"):
        result = run("cat", "--record-type", spelling, path)
        assert result.returncode == 0, result.stderr
        assert len(result.stdout.splitlines()) == 3
        outputs.add(result.stdout)
    assert len(outputs) == 1


def test_whole_floats_stay_floats_through_text_formats(run, tmp_path, pb):
    # CSV → TFRecord → JSON Lines → CSV: a float column whose values are whole numbers keeps its type.
    src = tmp_path / "trips.csv"
    src.write_text("trip_id,trip_seconds,fare\n1,600.0,7.25\n2,1200.0,11.5\n3,60.0,3.0\n")
    steps = [("tfrecord", tmp_path / "tfr"), ("jsonl", tmp_path / "jsonl"), ("csv", tmp_path / "csv")]
    current = src
    for fmt, out in steps:
        result = run("convert", current, "-o", out, "--to", fmt)
        assert result.returncode == 0, (fmt, result.stderr)
        current = out
    text = next((tmp_path / "csv").glob("part-*")).read_text()
    assert text.splitlines()[1] == "1,600.0,7.25", text
    jsonl = next((tmp_path / "jsonl").glob("part-*")).read_text()
    assert json.loads(jsonl.splitlines()[0]) == {"trip_id": 1, "trip_seconds": 600.0, "fare": 7.25}
    assert '"trip_seconds":600.0' in jsonl
    schema = json.loads(run("inspect", "--json", tmp_path / "csv").stdout)
    types = {c["name"]: c["type"] for c in schema["columns"]}
    assert types["trip_seconds"] == "float64" and types["trip_id"] == "int64", types


def test_a_schema_hint_sets_one_column_and_infers_the_rest(run, tmp_path, pb):
    src = tmp_path / "trips.csv"
    src.write_text("trip_id,trip_seconds,company\n1,600,a\n2,1200,b\n")
    out = tmp_path / "out"
    result = run("convert", src, "-o", out, "--schema-hint", "trip_seconds:float32")
    assert result.returncode == 0, result.stderr
    rows = _features(pb, out)
    assert list(rows[0]["trip_seconds"].float_list.value) == [600.0]
    assert list(rows[1]["trip_id"].int64_list.value) == [2]
    assert list(rows[1]["company"].bytes_list.value) == [b"b"]
    bad = run("convert", src, "-o", tmp_path / "bad", "--schema-hint", "no_such:int64")
    assert bad.returncode == 2 and "no_such" in bad.stderr and "no such column" in bad.stderr
    assert run("convert", src, "-o", tmp_path / "bad2", "--schema-hint", "trip_seconds").returncode == 2
    assert "unknown type" in run("convert", src, "-o", tmp_path / "bad3", "--schema-hint", "trip_seconds:real").stderr


def test_a_null_after_the_csv_sample_does_not_fail(run, tmp_path):
    path = tmp_path / "late_null.csv"
    with path.open("w") as f:
        f.write("id,fare\n")
        for i in range(12000):
            f.write(f"{i},{'' if i == 11000 else i * 0.5}\n")
    result = run("convert", path, "-o", tmp_path / "out", "--to", "jsonl")
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for f in sorted((tmp_path / "out").glob("part-*")) for line in f.read_text().splitlines()]
    assert len(rows) == 12000 and rows[11000] == {"id": 11000, "fare": None}


def test_a_feature_missing_after_the_sample_does_not_fail(run, tmp_path, pb):
    # 40 shards, the later ones lacking `company` in some records: the sample (10 000 records,
    # an even share of each shard) never sees it missing.
    (tmp_path / "taxi").mkdir()
    for s in range(40):
        records = []
        for i in range(300):
            features = {"trip_id": ("int64", [s * 1000 + i]), "fare": ("float", [1.5])}
            if not (s >= 30 and i >= 260):
                features["company"] = ("bytes", [b"Flash Cab"])
            records.append(example(pb, **features))
        write_tfrecord(tmp_path / "taxi" / f"data_tfrecord-{s:05d}-of-00040.tfrecord.gz", records, compress=True)
    cat = run("cat", tmp_path / "taxi")
    assert cat.returncode == 0, cat.stderr
    rows = _rows(cat.stdout)
    assert len(rows) == 12000
    assert sum(r["company"] is None for r in rows) == 400
    converted = run("convert", tmp_path / "taxi", "-o", tmp_path / "out", "--to", "jsonl")
    assert converted.returncode == 0, converted.stderr
    # One file longer than the sample, read alone.
    one = write_tfrecord(tmp_path / "one.tfrecord", [example(pb, a=("int64", [i])) for i in range(10005)] +
                         [example(pb, b=("int64", [1]))])
    alone = run("cat", one)
    assert alone.returncode == 0, alone.stderr
    assert _rows(alone.stdout)[-1] == {"a": None}


def test_uri_schemes_other_than_file_are_refused_and_file_uris_work(run, tmp_path, monkeypatch):
    src = tmp_path / "a.csv"
    src.write_text("x\n1\n2\n")
    monkeypatch.chdir(tmp_path)
    result = run("convert", src, "-o", "s3://bucket/out")
    assert result.returncode == 2
    assert "s3://bucket/out" in result.stderr and "does not read or write s3://" in result.stderr
    assert not (tmp_path / "s3:").exists()
    assert run("cat", "gs://bucket/a.csv").returncode == 2
    out = tmp_path / "out"
    done = run("convert", f"file://{src}", "-o", f"file://{out}", "--to", "jsonl")
    assert done.returncode == 0, done.stderr
    assert _rows(run("cat", f"file://{out}").stdout) == [{"x": 1}, {"x": 2}]
    assert run("inspect", f"file://{src}").returncode == 0


def test_plan_draws_a_pipeline_before_its_input_exists(run, tmp_path):
    example_dir = ROOT / "examples" / "image-classification"
    data = tmp_path / "not-unpacked-yet"
    result = run("plan", example_dir / "pipeline.yaml", "--set", f"data={data}", "--set", f"out={tmp_path / 'out'}")
    assert result.returncode == 0, result.stderr
    assert "stage 1 of 1" in result.stdout
    for step in ("load", "decode", "resize", "augment", "to_example", "write"):
        assert step + " [" in result.stdout, step
    assert "checks wait for the input" in result.stdout
    assert "recflow: warning: step 'read':" in result.stderr
    assert "no such file or directory" in result.stderr and "are checked when it exists" in result.stderr
    # run still refuses, with a runtime error (exit 1) naming the input.
    ran = run("run", example_dir / "pipeline.yaml", "--set", f"data={data}", "--set", f"out={tmp_path / 'out'}")
    assert ran.returncode == 1 and str(data) in ran.stderr
    dot = run("plan", "--dot", example_dir / "pipeline.yaml", "--set", f"data={data}")
    assert dot.returncode == 0 and dot.stdout.startswith("digraph")
    # Only a missing input defers: one that is there is checked now. This one is CSV without the
    # column 'load' needs, so the plan fails as the run would — a usage error quoting the header,
    # its control bytes and malformed UTF-8 escaped for the terminal.
    data.mkdir()
    (data / "labels").write_bytes(b"\x00\x01\x1b[31m not a header recflow expects \xff\n")
    unreadable = run("plan", example_dir / "pipeline.yaml", "--set", f"data={data}")
    assert unreadable.returncode == 2 and "warning" not in unreadable.stderr, unreadable.stderr
    assert "no column 'path'" in unreadable.stderr and "\\x00\\x01\\x1b[31m not a header recflow expects \\xff" in unreadable.stderr


def test_a_wrong_column_is_a_usage_error_and_a_missing_input_a_runtime_error(run, tmp_path):
    csv_path = tmp_path / "d.csv"
    csv_path.write_text("species,x\na,1\n")
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text(f"""steps:
  - read: {{path: "{csv_path}"}}
  - group_by_key: [no_such_column]
  - write: {{path: "{tmp_path}/out"}}
""")
    for command in ("plan", "run"):
        result = run(command, pipeline)
        assert result.returncode == 2 and f"{pipeline}:3:" in result.stderr and "no_such_column" in result.stderr, result
    csv_path.unlink()
    result = run("run", pipeline)
    assert result.returncode == 1 and f"{pipeline}:2:" in result.stderr and "no such file" in result.stderr, result


def test_plan_catches_what_run_would_reject(run, tmp_path):
    csv_path = tmp_path / "d.csv"
    csv_path.write_text("species,x\na,1\nb,2\n")
    vocab = tmp_path / "p.yaml"
    vocab.write_text(f"""steps:
  - read: {{path: "{csv_path}"}}
  - vocabulary: {{column: species, file: "{tmp_path}/no/such/dir/species.vocab"}}
  - write: {{path: "{tmp_path}/out"}}
""")
    result = run("plan", vocab)
    assert result.returncode == 2
    assert f"{vocab}:3:" in result.stderr and "no/such/dir" in result.stderr and "does not exist" in result.stderr
    png = ROOT / "tests" / "python"  # any directory: the image path column is never read at plan time
    images = tmp_path / "i.yaml"
    images.write_text(f"""steps:
  - read: {{path: "{csv_path}"}}
  - load_file: {{column: species, base_dir: "{png}", output: png}}
  - decode_image: {{column: png, output: image}}
  - write: {{path: "{tmp_path}/out", format: tfrecord}}
""")
    result = run("plan", images)
    assert result.returncode == 2, result.stdout
    assert f"{images}:5:" in result.stderr and "image" in result.stderr, result.stderr
