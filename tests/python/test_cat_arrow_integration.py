"""`recflow cat` on every Arrow integration file (Arrow's own golden files), values checked against their JSON."""
import gzip
import json
from pathlib import Path

import pytest

INTEGRATION = ["1.0.0-littleendian", "2.0.0-compression", "4.0.0-shareddict"]


def integration_cases(testdata: Path):
    """(stem, form) of every case of the integration folders, both the file and the stream form."""
    for folder in INTEGRATION:
        for expected in sorted((testdata / "arrow-integration" / folder).glob("*.json.gz")):
            stem = expected.with_name(expected.name[: -len(".json.gz")])
            for form in (".arrow_file", ".stream"):
                yield stem, form


def expected_doc(stem: Path):
    return json.loads(gzip.decompress(Path(f"{stem}.json.gz").read_bytes()))


def column_values(doc, name):
    """The values of column `name` over the batches (None where VALIDITY says null)."""
    out = []
    for batch in doc["batches"]:
        column = next(c for c in batch["columns"] if c["name"] == name)
        out += [value if valid else None for value, valid in zip(column["DATA"], column["VALIDITY"])]
    return out


def clock(value: int, per_second: int, digits: int) -> str:
    """A time of day as recflow prints it, hours past 23 kept (Arrow allows 86400 s)."""
    seconds, fraction = divmod(value, per_second)
    text = f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
    return text + (f".{fraction:0{digits}d}" if digits else "")


def test_cat_reads_every_integration_file_whole(run, testdata):
    cases = list(integration_cases(testdata))
    assert len(cases) == 54
    for stem, form in cases:
        result = run("cat", f"{stem}{form}")
        assert result.returncode == 0, f"{stem.name}{form}: {result.stderr}"
        rows = sum(batch["count"] for batch in expected_doc(stem)["batches"])
        assert len(result.stdout.splitlines()) == rows, f"{stem.name}{form}"


@pytest.mark.parametrize("form", [".arrow_file", ".stream"])
def test_times_of_a_whole_day_print_instead_of_failing_the_file(run, testdata, form):
    stem = testdata / "arrow-integration" / "1.0.0-littleendian" / "generated_datetime"
    doc = expected_doc(stem)
    result = run("cat", f"{stem}{form}")
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    units = {"f2": (1, 0), "f3": (1000, 3), "f4": (10**6, 6), "f5": (10**9, 9)}
    saw_full_day = False
    for name, (per_second, digits) in units.items():
        expected = [None if v is None else clock(int(v), per_second, digits) for v in column_values(doc, name)]
        assert [row[name] for row in rows] == expected, name
        saw_full_day |= f"24:00:00{'.' + '0' * digits if digits else ''}" in expected
    assert saw_full_day  # the integration data holds 86400 s and its equivalents
