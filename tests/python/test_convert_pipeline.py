"""`recflow convert` runs as the pipeline read → (select) → write, and reads as the command it always was: its
errors name the input, byte offset and record but no pipeline step, its bad rows go to the read step's dead-letter
file, and its summary counts what the pipeline's metrics counted."""
import json


def test_convert_errors_name_no_pipeline_step(run, tmp_path, testdata):
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,x\n2,y,extra\n3,z\n")
    row = run("convert", bad, "-o", tmp_path / "o1", "--to", "jsonl", "--no-sync")
    assert row.returncode == 1
    assert row.stderr == f"recflow: {bad}: record 1, byte offset 8: line 3: expected 2 fields, found 3\n"
    piped = run("convert", "-", "-o", tmp_path / "o2", "--to", "jsonl", "--no-sync", stdin=bad.read_text())
    assert piped.stderr == "recflow: <stdin>: record 1, byte offset 8: line 3: expected 2 fields, found 3\n"
    # An error of the write step (the sink's Consume) and one of its commit.
    long = tmp_path / "long.csv"
    long.write_text("k,v\n" + "/" * 3000 + ",1\n")
    sink = run("convert", long, "-o", tmp_path / "o3", "--partition-by", "k", "--to", "jsonl", "--no-sync")
    assert sink.returncode == 1 and sink.stderr.startswith(f"recflow: {long}: record 0: partition path for column 'k'")
    (tmp_path / "ints.csv").write_text("zip,n\n1,2\n")
    (tmp_path / "strs.csv").write_text("zip,n\nab,2\n")
    assert run("convert", tmp_path / "ints.csv", "-o", tmp_path / "o4", "--to", "jsonl", "--no-sync").returncode == 0
    append = run("convert", tmp_path / "strs.csv", "-o", tmp_path / "o4", "--to", "jsonl", "--mode", "append",
                 "--no-sync")
    assert append.returncode == 1
    assert append.stderr == (f"recflow: the rows do not match the dataset in '{tmp_path / 'o4'}' (its "
                             "_recflow_schema.json): its column 0 is 'zip' of type int64, the rows' is 'zip' of type utf8\n")
    assert "step '" not in row.stderr + piped.stderr + sink.stderr + append.stderr


def test_convert_select_bad_rows_and_summary_come_from_the_pipeline(run, tmp_path):
    src = tmp_path / "rows.csv"
    src.write_text("a,b,c\n1,x,p\n2,y\n3,z,q\n")
    out = tmp_path / "out"
    letters = tmp_path / "letters.jsonl"
    done = run("convert", src, "-o", out, "--to", "jsonl", "--select", "c,a", "--bad-rows", f"file:{letters}",
               "--json", "--no-sync")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for f in sorted(out.glob("*.jsonl")) for line in f.read_text().splitlines()]
    assert rows == [{"c": "p", "a": 1}, {"c": "q", "a": 3}]
    assert [json.loads(line) for line in letters.read_text().splitlines()] == [{
        "step": "read", "file": str(src), "record": 1, "offset": 12, "error": "line 3: expected 3 fields, found 2",
        "row": "2,y"}]
    summary = json.loads(done.stdout)
    assert (summary["records"], summary["skipped"], summary["input_bytes"], summary["files"]) == (2, 1, src.stat().st_size, 1)
    assert "2 records into 1 files of" in done.stderr and "; 1 bad records skipped" in done.stderr
