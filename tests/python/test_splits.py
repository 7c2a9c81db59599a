"""`recflow splits`, then `recflow cat --split` / `convert --splits-from` in separate processes: every split read
on its own, in any order, gives exactly the records of the whole input."""
import json
import os
import random
import subprocess
from pathlib import Path

import pytest

from tfrecord_util import write_tfrecord

AVRO_DIR = Path(__file__).resolve().parents[2] / "src" / "recflow" / "formats" / "avro" / "testdata"


def ok(result):
    assert result.returncode == 0, result.stderr
    return result.stdout


def splits_of(run, *args):
    return ok(run("splits", *args)).splitlines()


def cat_splits_in_processes(recflow_bin, splits, *flags):
    """Reads every split in its own `recflow cat` process, started in a shuffled order and run side by side;
    returns the outputs concatenated in split order."""
    order = list(range(len(splits)))
    random.Random(len(splits)).shuffle(order)
    outputs = [None] * len(splits)
    for start in range(0, len(order), 8):
        batch = order[start:start + 8]
        procs = {i: subprocess.Popen([str(recflow_bin), "cat", "--split", splits[i], *flags],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in batch}
        for i, proc in procs.items():
            out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err
            outputs[i] = out
    return "".join(outputs)


def csv_with_quoted_newlines(path: Path) -> Path:
    rows = ["id,text,n"]
    for i in range(80):
        rows.append(f'{i},"one\n{i + 100},""x"",7\nlast",{i * 3}')
        rows.append(f"{i},plain,{i}")
    path.write_text("\n".join(rows) + "\n")
    return path


def jsonl(path: Path) -> Path:
    path.write_text("".join(f'{{"i": {i}, "s": "a\\nb {i}"}}\n' + ("\n" if i % 7 == 0 else "") for i in range(150)))
    return path


CASES = {
    "tfrecord": lambda td, tmp: td / "tfrecord" / "tfx" / "mnist.tfrecord",
    "tfrecord.gz": lambda td, tmp: td / "tfrecord" / "tfx" / "penguin-train.tfrecord.gz",
    "csv": lambda td, tmp: td / "csv" / "penguins_processed.csv",
    "csv-quoted-newlines": lambda td, tmp: csv_with_quoted_newlines(tmp / "quoted.csv"),
    "jsonl": lambda td, tmp: jsonl(tmp / "rows.jsonl"),
    "avro": lambda td, tmp: AVRO_DIR / "events_deflate.avro",
    "arrow-file": lambda td, tmp: td / "arrow-integration" / "1.0.0-littleendian" / "generated_decimal.arrow_file",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_splits_read_in_separate_processes_give_the_whole_file(run, recflow_bin, testdata, tmp_path, case):
    path = CASES[case](testdata, tmp_path)
    whole = ok(run("cat", path))
    assert whole
    size = path.stat().st_size
    sizes = [max(1, size // 23), size // 3 + 1, size * 2] + ([997] if size < 100_000 else [])
    for split_size in sizes:
        splits = splits_of(run, "--split-size", split_size, path)
        assert splits and all(json.loads(s)["path"] == os.path.abspath(path) for s in splits)
        assert cat_splits_in_processes(recflow_bin, splits) == whole, f"split size {split_size}: {len(splits)} splits"


def test_partitioned_dataset_splits_carry_their_partition_values(run, recflow_bin, tmp_path):
    src = tmp_path / "rows.csv"
    src.write_text("k,year,v\n" + "".join(f"k{i % 3},{2020 + i % 2},{i}\n" for i in range(90)))
    out = tmp_path / "ds"
    ok(run("convert", src, "-o", out, "--partition-by", "year,k", "--to", "jsonl", "--no-sync"))
    splits = splits_of(run, "--split-size", 50, out)
    assert len(splits) > 12
    levels = json.loads(splits[0])["partition"]
    assert [level[:2] for level in levels] == [["year", "int64"], ["k", "utf8"]]
    assert cat_splits_in_processes(recflow_bin, splits) == ok(run("cat", out))


def test_convert_reads_the_splits_a_file_names(run, tmp_path):
    src = csv_with_quoted_newlines(tmp_path / "quoted.csv")
    listing = tmp_path / "splits.jsonl"
    listing.write_text("\n".join(splits_of(run, "--split-size", 300, src)) + "\n\n")
    out = tmp_path / "out"
    ok(run("convert", "--splits-from", listing, "-o", out, "--to", "jsonl", "--no-sync"))
    assert sorted(ok(run("cat", out)).splitlines()) == sorted(ok(run("cat", src)).splitlines())
    # Inputs and splits together are a usage error.
    assert run("convert", src, "--splits-from", listing, "-o", tmp_path / "o2").returncode == 2


def test_split_of_a_changed_file_fails_naming_it(run, tmp_path):
    src = jsonl(tmp_path / "rows.jsonl")
    split = splits_of(run, "--split-size", 100, src)[1]
    with src.open("a") as f:
        f.write('{"i": 1000, "s": "new"}\n')
    result = run("cat", "--split", split)
    assert result.returncode == 1
    assert os.path.abspath(src) in result.stderr and "changed since the split was made" in result.stderr


def test_corrupt_record_fails_one_split_naming_file_offset_and_record(run, tmp_path):
    src = write_tfrecord(tmp_path / "raw.tfrecord", [bytes([i % 251]) * 50 for i in range(40)])
    data = bytearray(src.read_bytes())
    record = 66  # header + 50 bytes + footer
    data[17 * record + 12 + 20] ^= 0xFF  # inside record 17's data: its data CRC fails
    src.write_bytes(bytes(data))
    failures = []
    for split in splits_of(run, "--split-size", 333, src):
        result = run("cat", "--record-type", "bytes", "--split", split)
        if result.returncode != 0:
            failures.append(result)
    assert len(failures) == 1
    assert failures[0].returncode == 1
    err = failures[0].stderr
    assert os.path.abspath(src) in err and f"byte offset {17 * record}" in err and "record" in err, err


def test_bad_split_text_is_a_usage_error(run, tmp_path):
    for text in ["", "{", '{"path": "x"}', "[1, 2]"]:
        result = run("cat", "--split", text)
        assert result.returncode == 2, (text, result.stderr)
        assert "bad split" in result.stderr or "no split" in result.stderr
    assert run("splits", "--split-size", 0, tmp_path).returncode == 2
    piped = run("splits", "-", stdin='{"a": 1}\n')
    assert piped.returncode == 2 and "standard input cannot be split" in piped.stderr


def test_csv_dialect_flags_reach_the_split_planner_and_every_split_reader(run, recflow_bin, tmp_path):
    # A ';'-delimited file quoting with "'" and holding '#' comment lines: cut with the default dialect, the quoted
    # newlines would be taken for row ends; read with it, every row would be one column.
    rows = ["# made by hand", "id;text;n"]
    for i in range(60):
        rows.append(f"{i};'one\n{i + 100};''x'';7\nlast';{i * 3}")
        rows.append(f"# note {i}")
        rows.append(f"{i};plain;{i}")
    path = tmp_path / "dialect.csv"
    path.write_text("\n".join(rows) + "\n")
    dialect = ["--delimiter", ";", "--quote", "'", "--comment", "#"]
    whole = ok(run("cat", path, *dialect))
    assert json.loads(whole.splitlines()[0]) == {"id": 0, "text": "one\n100;'x';7\nlast", "n": 0}
    for split_size in (1, 7, 97, path.stat().st_size // 3 + 1):
        splits = splits_of(run, "--split-size", split_size, path, *dialect)
        assert cat_splits_in_processes(recflow_bin, splits, *dialect) == whole, f"split size {split_size}"
