"""The format words every command and pipeline step takes come from the format registry: the same words for --from,
--to and a step's format:, the unknown ones answered with the registered list, and a word one format owns refused
for another."""
from test_convert import write_rows

INPUT_WORDS = "tfrecord, csv, jsonl, json, avro, arrow, feather"
OUTPUT_WORDS = "tfrecord, csv, jsonl, arrow, feather"


def test_every_registered_word_reads_and_writes(run, tmp_path):
    src = tmp_path / "rows.csv"
    write_rows(src, 5)
    for word in OUTPUT_WORDS.split(", "):
        out = tmp_path / word
        result = run("convert", src, "--from", "csv", "-o", out, "--to", word, "--no-sync")
        assert result.returncode == 0, result.stderr
        back = run("cat", "--from", "json" if word == "jsonl" else word, *sorted(p for p in out.rglob("part-*")))
        assert back.returncode == 0, (word, back.stderr)
        assert len(back.stdout.splitlines()) == 5, word


def test_unknown_words_list_the_registered_ones(run, tmp_path):
    src = tmp_path / "rows.csv"
    write_rows(src, 2)
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text(f"""
steps:
  - read: {{path: {src}, format: parquet}}
  - write: {{path: {tmp_path / 'out'}, format: jsonl}}
""")
    read = run("run", pipeline, "--quiet")
    assert read.returncode == 2 and f"unknown input format 'parquet' ({INPUT_WORDS})" in read.stderr, read.stderr
    pipeline.write_text(f"""
steps:
  - read: {{path: {src}}}
  - write: {{path: {tmp_path / 'out'}, format: parquet}}
""")
    write = run("run", pipeline, "--quiet")
    assert write.returncode == 2 and f"unknown output format 'parquet' ({OUTPUT_WORDS})" in write.stderr, write.stderr


def test_a_word_one_format_owns_is_refused_for_another(run, tmp_path):
    src = tmp_path / "rows.csv"
    write_rows(src, 2)
    bad = run("convert", src, "-o", tmp_path / "out", "--to", "csv", "--decimals", "float", "--no-sync")
    assert bad.returncode == 2 and "decimals 'float' is for tfrecord output, not csv" in bad.stderr, bad.stderr
    ok = run("convert", src, "-o", tmp_path / "out", "--to", "tfrecord", "--decimals", "float", "--no-sync")
    assert ok.returncode == 0, ok.stderr
