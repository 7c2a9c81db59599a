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
    pipeline.write_text("steps:\n  - read: x.csv\n  - resize: {height: 0}\n")
    bad = run("plan", pipeline)
    assert bad.returncode != 0 and f"{pipeline}:" in bad.stderr
