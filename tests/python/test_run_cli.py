"""recflow run / plan / steps from the command line: listings, Graphviz plans, exit codes and positioned errors."""
import json


def test_steps_lists_every_op(run):
    done = run("steps")
    assert done.returncode == 0
    names = [line.split()[0] for line in done.stdout.splitlines()]
    for op in ("read", "write", "decode_image", "resize", "to_example", "standard_scale", "group_by_key", "filter"):
        assert op in names


def test_plan_prints_stages_and_dot(run, tmp_path, testdata):
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text(f"""
steps:
  - read: {testdata / 'csv' / 'penguins_processed.csv'}
  - standard_scale: [body_mass_g]
  - write: {{path: {tmp_path / 'out'}, format: jsonl}}
""")
    text = run("plan", pipeline)
    assert text.returncode == 0, text.stderr
    assert "stage 1 of 2" in text.stdout and "standard_scale.fit [combine_globally]" in text.stdout
    dot = run("plan", pipeline, "--dot")
    assert dot.stdout.startswith("digraph pipeline {") and "style=dashed" in dot.stdout


def test_run_writes_metrics_and_errors_are_usage_errors(run, tmp_path, testdata):
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text(f"""
params: {{out: {tmp_path / 'out'}}}
steps:
  - read: {testdata / 'csv' / 'penguins_processed.csv'}
  - filter: "species == 1 and body_mass_g > 0.3"
  - combine_globally: {{aggregates: {{n: count_all(), mass: mean(body_mass_g)}}}}
  - write: {{path: "${{out}}", format: jsonl}}
""")
    done = run("run", pipeline, "--metrics", tmp_path / "m.json", "--quiet")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for f in (tmp_path / "out").glob("*.jsonl") for line in f.read_text().splitlines()]
    assert len(rows) == 1 and rows[0]["n"] > 0 and rows[0]["mass"] > 0.3
    steps = {s["name"]: s for s in json.loads((tmp_path / "m.json").read_text())["steps"]}
    assert steps["read"]["rows_out"] == 334 and steps["filter"]["rows_out"] == rows[0]["n"]
    unknown = run("run", pipeline, "--set", "nope=1")
    assert unknown.returncode == 2 and "no parameter 'nope'" in unknown.stderr
    (tmp_path / "x.csv").write_text("image\n1\n")
    pipeline.write_text("steps:\n  - read: x.csv\n  - resize: {height: 0}\n")
    bad = run("plan", pipeline)
    assert bad.returncode == 2 and f"{pipeline}:3:" in bad.stderr


def test_bad_csv_rows_of_a_read_step_go_to_its_dead_letter_file(run, tmp_path):
    (tmp_path / "rows.csv").write_text("a,b\n1,x\n2,y,extra\n3,z\n")
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text("""
steps:
  - read: rows.csv
    on_error: dead_letter
    dead_letter: letters.jsonl
  - write: {path: out, format: jsonl}
""")
    done = run("run", pipeline, "--quiet")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(l) for f in (tmp_path / "out").glob("*.jsonl") for l in f.read_text().splitlines()]
    assert [r["a"] for r in rows] == [1, 3]
    letters = [json.loads(l) for l in (tmp_path / "letters.jsonl").read_text().splitlines()]
    assert len(letters) == 1 and letters[0]["step"] == "read" and letters[0]["row"] == "2,y,extra"
    assert letters[0]["file"].endswith("rows.csv") and letters[0]["record"] == 1


def test_convert_writes_its_bad_rows_as_the_dead_letters_of_a_read_step(run, tmp_path):
    rows = tmp_path / "rows.csv"
    rows.write_text("a,b\n1,x\n2,y,extra\n3,z\n4\n")
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text(f"""
steps:
  - read: {rows}
    on_error: dead_letter
    dead_letter: letters.jsonl
  - write: {{path: out, format: jsonl}}
""")
    done = run("run", pipeline, "--quiet")
    assert done.returncode == 0, done.stderr
    converted = run("convert", rows, "-o", tmp_path / "converted", "--to", "jsonl", "--no-sync",
                    "--bad-rows", f"file:{tmp_path / 'bad.jsonl'}")
    assert converted.returncode == 0, converted.stderr
    letters = (tmp_path / "letters.jsonl").read_text()
    assert len(letters.splitlines()) == 2 and (tmp_path / "bad.jsonl").read_text() == letters


def test_vocabulary_file_is_written_only_by_a_run_that_succeeds(run, tmp_path):
    (tmp_path / "a.txt").write_text("a")
    (tmp_path / "paths.csv").write_text("path\na.txt\nmissing.txt\na.txt\n")
    vocab = tmp_path / "paths.vocab"
    pipeline = tmp_path / "p.yaml"
    # Pass 1 fits the vocabulary; pass 2 applies it and fails on the missing file.
    pipeline.write_text(f"""
steps:
  - read: {tmp_path / 'paths.csv'}
  - vocabulary: {{column: path, file: {vocab}}}
  - load_file: {{column: path, base_dir: {tmp_path}, output: bytes}}
  - write: {{path: {tmp_path / 'out'}, format: jsonl}}
""")
    failed = run("run", pipeline, "--quiet")
    assert failed.returncode == 1 and "missing.txt" in failed.stderr, failed.stderr
    assert not vocab.exists() and not any(tmp_path.glob("paths.vocab*"))
    (tmp_path / "missing.txt").write_text("m")
    done = run("run", pipeline, "--quiet")
    assert done.returncode == 0, done.stderr
    assert vocab.read_text() == "a.txt\nmissing.txt\n"
    assert not any(tmp_path.glob("*.recflow-staged"))
