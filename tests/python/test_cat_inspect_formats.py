"""`recflow cat` and `inspect` on CSV, JSON Lines, Avro, Arrow and Hive-partitioned datasets."""
import gzip
import json
from pathlib import Path

import pytest

from tfrecord_util import write_tfrecord

AVRO_DIR = Path(__file__).resolve().parents[2] / "src" / "recflow" / "formats" / "avro" / "testdata"


def lines(result):
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def example(pb, **features):
    ex = pb.Example()
    for name, value in features.items():
        if isinstance(value, int):
            ex.features.feature[name].int64_list.value.append(value)
        else:
            ex.features.feature[name].bytes_list.value.append(value.encode())
    return ex.SerializeToString()


def test_cat_csv_and_tsv_print_what_convert_reads(run, tmp_path):
    src = tmp_path / "rows.csv"
    src.write_text('id,name,score\n1,"a, quoted",1.5\n2,,\n3,c,-2\n')
    assert lines(run("cat", src)) == [
        {"id": 1, "name": "a, quoted", "score": 1.5},
        {"id": 2, "name": None, "score": None},
        {"id": 3, "name": "c", "score": -2.0},
    ]
    assert lines(run("cat", "-n", "1", src)) == [{"id": 1, "name": "a, quoted", "score": 1.5}]
    tsv = tmp_path / "rows.txt"  # no telling suffix: --from says it
    tsv.write_text("k\tv\nx\t1\n")
    assert lines(run("cat", "--from", "csv", "--delimiter", "tab", tsv)) == [{"k": "x", "v": 1}]


def test_cat_jsonl_from_stdin_and_avro(run, tmp_path):
    assert lines(run("cat", "--from", "jsonl", "-", stdin='{"a": [1, 2]}\n{"a": []}\n')) == [{"a": [1, 2]}, {"a": []}]
    avro_rows = lines(run("cat", "-n", "3", AVRO_DIR / "events_deflate.avro"))
    assert len(avro_rows) == 3 and all("id" in row for row in avro_rows)


def test_partitioned_tfrecord_dataset_reads_back_its_partition_columns(run, pb, tmp_path):
    # A feature present only in the second partition: inference samples every file.
    root = tmp_path / "ds"
    (root / "split=train").mkdir(parents=True)
    (root / "split=test").mkdir()
    write_tfrecord(root / "split=test" / "part-0.tfrecord", [example(pb, id=1)])
    write_tfrecord(root / "split=train" / "part-0.tfrecord", [example(pb, id=2, label="cat"), example(pb, id=3)])
    (root / "_SUCCESS").write_text("")
    rows = lines(run("cat", root))
    assert rows == [{"id": 1, "label": None, "split": "test"}, {"id": 2, "label": "cat", "split": "train"},
                    {"id": 3, "label": None, "split": "train"}]
    report = json.loads(run("inspect", "--json", root).stdout)
    assert report["total"]["records"] == 3 and len(report["files"]) == 2
    columns = {c["name"]: c for c in report["columns"]}
    assert list(columns) == ["id", "label", "split"]  # the features, then the partition column
    assert columns["split"]["type"] == "utf8" and columns["split"]["nulls"] == 0
    assert columns["label"]["nullable"] and columns["label"]["nulls"] == 2


def test_inspect_csv_reports_nulls_list_lengths_and_skipped_rows(run, tmp_path):
    src = tmp_path / "rows.jsonl"
    src.write_text('{"a": 1, "t": [1, 2, 3]}\n{"a": null, "t": []}\n{"a": 3, "t": null}\n')
    report = json.loads(run("inspect", "--json", src).stdout)
    assert report["total"]["records"] == 3 and report["total"]["file_bytes"] == src.stat().st_size
    columns = {c["name"]: c for c in report["columns"]}
    assert (columns["a"]["nulls"], columns["t"]["nulls"]) == (1, 1)
    assert (columns["t"]["min_length"], columns["t"]["max_length"]) == (0, 3)
    table = run("inspect", src)
    assert table.returncode == 0 and "3 records, 0 skipped" in table.stdout

    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n3,4,5\n6,7\n")
    failed = run("inspect", bad)
    assert failed.returncode == 1 and "line 3" in failed.stderr and str(bad) in failed.stderr
    skipped = run("inspect", "--json", "--skip-corrupt", bad)
    assert skipped.returncode == 0, skipped.stderr
    assert json.loads(skipped.stdout)["total"]["skipped_records"] == 1
    assert "warning" in skipped.stderr and "record 1" in skipped.stderr


def expected_lengths(json_path: Path, name: str):
    """(nulls, min, max) entry lengths of column `name` over the batches of an Arrow integration JSON."""
    doc = json.loads(gzip.decompress(json_path.read_bytes()))
    field = next(f for f in doc["schema"]["fields"] if f["name"] == name)
    nulls, lengths = 0, []
    for batch in doc["batches"]:
        column = next(c for c in batch["columns"] if c["name"] == name)
        for i, valid in enumerate(column["VALIDITY"]):
            if not valid:
                nulls += 1
            elif field["type"]["name"] == "fixedsizelist":
                lengths.append(field["type"]["listSize"])
            else:
                lengths.append(int(column["OFFSET"][i + 1]) - int(column["OFFSET"][i]))
    return nulls, min(lengths), max(lengths)


@pytest.mark.parametrize("case,column", [("nested", "list_nullable"), ("nested", "fixedsizelist_nullable"),
                                         ("nested_large_offsets", "large_list_nullable"),
                                         ("nested_large_offsets", "large_list_nested"), ("map", "map_nullable")])
def test_inspect_reports_lengths_of_every_list_like_column(run, testdata, case, column):
    stem = testdata / "arrow-integration" / "1.0.0-littleendian" / f"generated_{case}"
    report = json.loads(run("inspect", "--json", f"{stem}.arrow_file").stdout)
    got = next(c for c in report["columns"] if c["name"] == column)
    assert (got["nulls"], got["min_length"], got["max_length"]) == expected_lengths(Path(f"{stem}.json.gz"), column)
