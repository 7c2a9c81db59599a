"""`recflow run` reads standard input and FIFOs exactly once: the source opened when the pipeline is built (for its
schema) is the one the run reads, and a pipeline that would read such an input twice says so before reading it."""
import json
import subprocess

from pipe_util import fifo_fed

# A bound on a hang (a FIFO opened a second time waits for a writer forever), not a timing.
HANG_BOUND_S = 60


def run_with(recflow_bin, args, stdin=None):
    return subprocess.run([str(recflow_bin), *map(str, args)], input=stdin, capture_output=True,
                          timeout=HANG_BOUND_S)


def rows_of(out):
    return [json.loads(line) for f in sorted(out.glob("*.jsonl")) for line in f.read_text().splitlines()]


def write_pipeline(tmp_path, read, out, *middle):
    pipeline = tmp_path / f"{out.name}.yaml"
    steps = "".join(f"  - {step}\n" for step in middle)
    pipeline.write_text(f'steps:\n  - read: "{read}"\n{steps}  - write: {{path: {out}, format: jsonl, sync: false}}\n')
    return pipeline


def test_run_reads_standard_input_and_a_fifo_once(recflow_bin, testdata, tmp_path):
    csv = testdata / "csv" / "penguins_processed.csv"
    expected_out = tmp_path / "from_file"
    done = run_with(recflow_bin, ["run", write_pipeline(tmp_path, csv, expected_out), "--quiet"])
    assert done.returncode == 0, done.stderr
    expected = rows_of(expected_out)
    assert len(expected) == 334

    stdin_out = tmp_path / "from_stdin"
    done = run_with(recflow_bin, ["run", write_pipeline(tmp_path, "-", stdin_out), "--quiet"], stdin=csv.read_bytes())
    assert done.returncode == 0, done.stderr
    assert rows_of(stdin_out) == expected

    fifo_out = tmp_path / "from_fifo"
    with fifo_fed(tmp_path, csv.read_bytes()) as fifo:
        done = run_with(recflow_bin, ["run", write_pipeline(tmp_path, fifo, fifo_out), "--quiet"])
    assert done.returncode == 0, done.stderr
    assert rows_of(fifo_out) == expected


def test_a_pipeline_that_reads_standard_input_twice_fails_before_reading_it(recflow_bin, testdata, tmp_path):
    # standard_scale is fitted in a first pass over the input, then applied in a second.
    csv = testdata / "csv" / "penguins_processed.csv"
    out = tmp_path / "scaled"
    pipeline = write_pipeline(tmp_path, "-", out, "standard_scale: [body_mass_g]")
    done = run_with(recflow_bin, ["run", pipeline, "--quiet"], stdin=csv.read_bytes())
    assert done.returncode == 2, done.stderr
    assert ("step 'read': its input standard input can be read only once (it is not a regular file) and the "
            "pipeline reads it in 2 passes" in done.stderr.decode()), done.stderr
    assert not out.exists()
    with fifo_fed(tmp_path, csv.read_bytes()) as fifo:
        done = run_with(recflow_bin, ["run", write_pipeline(tmp_path, fifo, out, "standard_scale: [body_mass_g]")])
    assert done.returncode == 2 and f"its input {fifo} can be read only once" in done.stderr.decode(), done.stderr
    assert not out.exists()
