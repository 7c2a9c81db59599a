"""recflow's CSV reading (`recflow convert --to tfrecord`) against DuckDB's read_csv as an independent oracle."""
import json
import shutil

import pytest

from csv_oracle import KINDS, NODE_DIR, compare, duckdb_read, generate_csv, write_schema
from tfrecord_util import read_tfrecord

MIXED = ["int", "float", "bool", "str", "ts", "str", "int", "float"]
# recflow gets `--null-values NA`; in its typed columns an empty field is null too. DuckDB needs '' listed for that,
# which would also null an empty unquoted utf8 field: the generator never writes one (it quotes empty strings).
DUCK_NULLS = ["NA", ""]
NAMES = ["id", "x", "flag", "note, quoted", "when", "caf\u00e9 \u65e5", "big", "y"]


@pytest.fixture(scope="module", autouse=True)
def duckdb_available():
    if not (NODE_DIR / "node_modules" / "@duckdb" / "node-api").is_dir() or shutil.which("node") is None:
        pytest.skip("DuckDB oracle not installed: run scripts/install-deps (npm ci --prefix tests/node)")


def _convert(run, csv_path, out_dir, *extra):
    result = run("convert", csv_path, "-o", out_dir, "--to", "tfrecord", "--mode", "overwrite", *extra)
    assert result.returncode == 0, f"recflow convert {csv_path} failed: {result.stderr}"
    assert (out_dir / "_SUCCESS").exists()
    shards = sorted(out_dir.glob("part-*.tfrecord"))
    assert [s.name for s in shards] == ["part-00000-of-00001.tfrecord"]
    return read_tfrecord(shards[0])


def _check(run, pb, tmp_path, label, kinds, names, **gen):
    """Generates a messy CSV, reads it with both (explicit types, null value NA) and compares every value."""
    csv_path = generate_csv(tmp_path / f"{label}.csv", kinds=kinds, names=names, **gen)
    schema = write_schema(tmp_path / f"{label}.schema.json", names, kinds)
    columns, rows = duckdb_read(csv_path, nulls=DUCK_NULLS, types={n: KINDS[k][1] for n, k in zip(names, kinds)})
    records = _convert(run, csv_path, tmp_path / f"{label}.out", "--schema", schema, "--null-values", "NA")
    problems = compare(pb, records, columns, rows, label)
    assert not problems, "recflow differs from DuckDB:\n" + "\n".join(problems)
    return rows


@pytest.mark.parametrize("seed,crlf,bom", [(1, False, False), (2, True, False), (3, False, True), (4, True, True)])
def test_messy_mixed_types(run, pb, tmp_path, seed, crlf, bom):
    rows = _check(run, pb, tmp_path, f"mixed{seed}", MIXED, NAMES, seed=seed, rows=400, crlf=crlf, bom=bom)
    assert len(rows) == 400


def test_wide_rows_300_columns(run, pb, tmp_path):
    kinds = [list(KINDS)[i % len(KINDS)] for i in range(300)]
    _check(run, pb, tmp_path, "wide", kinds, [f"c{i}" for i in range(300)], seed=5, rows=60, crlf=True)


def test_long_fields_100k(run, pb, tmp_path):
    rows = _check(run, pb, tmp_path, "long", ["int", "str", "float"], ["n", "text", "v"],
                  seed=6, rows=6, long_len=100 * 1024, null_rate=0.0)
    assert len(rows[0][1]) == 100 * 1024


def test_block_size_does_not_matter(run, pb, tmp_path):
    """Quoted newlines across small blocks: the chunker must cut only at row ends."""
    csv_path = generate_csv(tmp_path / "blocks.csv", seed=7, kinds=MIXED, names=NAMES, rows=300, crlf=True)
    schema = write_schema(tmp_path / "blocks.schema.json", NAMES, MIXED)
    columns, rows = duckdb_read(csv_path, nulls=DUCK_NULLS, types={n: KINDS[k][1] for n, k in zip(NAMES, MIXED)})
    records = _convert(run, csv_path, tmp_path / "blocks.out", "--schema", schema, "--null-values", "NA",
                       "--block-size", "4096", "--threads", "2")
    problems = compare(pb, records, columns, rows, "blocks")
    assert not problems, "recflow differs from DuckDB:\n" + "\n".join(problems)


@pytest.mark.parametrize("seed,crlf,bom", [(1, False, False), (4, True, True)])
def test_messy_file_inferred_by_recflow(run, pb, tmp_path, seed, crlf, bom):
    """recflow's own inference (no schema) on the messy files gives DuckDB's values under the intended types
    (DuckDB's sniffer would call `5.`, `.5`, `+1.5`, `007` VARCHAR, so it gets explicit types here)."""
    csv_path = generate_csv(tmp_path / "m.csv", seed=seed, kinds=MIXED, names=NAMES, rows=400, crlf=crlf, bom=bom)
    columns, rows = duckdb_read(csv_path, nulls=DUCK_NULLS, types={n: KINDS[k][1] for n, k in zip(NAMES, MIXED)})
    records = _convert(run, csv_path, tmp_path / "m.out", "--null-values", "NA")
    problems = compare(pb, records, columns, rows, f"infer{seed}")
    assert not problems, "recflow's inference or values differ from DuckDB:\n" + "\n".join(problems)


def test_inference_agrees_on_clean_file(run, pb, tmp_path):
    """Both infer types (no schema): BIGINT/int64, DOUBLE/float64, BOOLEAN/bool, VARCHAR/utf8, TIMESTAMPTZ/timestamp."""
    kinds = ["int", "float", "bool", "str", "ts", "int"]
    names = ["i", "f", "b", "s", "t", "j"]
    csv_path = generate_csv(tmp_path / "clean.csv", seed=8, kinds=kinds, names=names, rows=500, messy=False,
                            null_text="")
    columns, rows = duckdb_read(csv_path, nulls=[""])
    assert [t for _, t in columns] == ["BIGINT", "DOUBLE", "BOOLEAN", "VARCHAR", "TIMESTAMP WITH TIME ZONE",
                                       "BIGINT"], json.dumps(columns)
    assert any(v is None for row in rows for v in row), "the clean file should hold nulls"
    records = _convert(run, csv_path, tmp_path / "clean.out")
    problems = compare(pb, records, columns, rows, "clean")
    assert not problems, "recflow's inference or values differ from DuckDB:\n" + "\n".join(problems)


def test_duckdb_oracle_reads_dialect_edge_cases(tmp_path):
    """The oracle itself: BOM, CRLF, doubled quotes, quoted newline, quoted NA is a string, nanoseconds truncate."""
    path = tmp_path / "edge.csv"
    path.write_bytes(b'\xef\xbb\xbfa,b,t\r\n1,"x,""y""\r\nz",2024-01-02T03:04:05.123456789Z\r\nNA,"NA",\r\n')
    columns, rows = duckdb_read(path, nulls=DUCK_NULLS, types={"a": "BIGINT", "b": "VARCHAR", "t": "TIMESTAMPTZ"})
    assert [n for n, _ in columns] == ["a", "b", "t"]
    assert rows == [["1", 'x,"y"\r\nz', "1704164645123456"], [None, "NA", None]]


def test_duckdb_reads_generated_files(tmp_path):
    """Every messy file the tests generate is valid for DuckDB with explicit types (no recflow needed)."""
    for seed, crlf, bom in [(1, False, False), (4, True, True)]:
        path = generate_csv(tmp_path / f"g{seed}.csv", seed=seed, kinds=MIXED, names=NAMES, rows=400, crlf=crlf, bom=bom)
        columns, rows = duckdb_read(path, nulls=DUCK_NULLS, types={n: KINDS[k][1] for n, k in zip(NAMES, MIXED)})
        assert len(rows) == 400 and [n for n, _ in columns] == NAMES
        assert any(v is None for row in rows for v in row)
