"""Arrow's newer layouts (views, list views, run-end encoding, decimal32/64) and pre-0.15 streams through the CLI."""
import json
import subprocess
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[2] / "src" / "recflow" / "formats" / "arrow_ipc" / "fuzz_corpus"


def rows(result):
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.mark.parametrize("name", ["views.arrows", "views.arrow"])
def test_views_written_by_arrow_js_print_their_values(run, name):
    # make_fuzz_corpus.mjs wrote them with apache-arrow 21: Utf8View and BinaryView columns.
    assert rows(run("cat", CORPUS / name)) == [
        {"text": "short", "bytes": "\u0001\u0002"},
        {"text": "a value longer than twelve bytes", "bytes": None},
        {"text": None, "bytes": "binary longer than 12"},
        {"text": "", "bytes": ""},
        {"text": "another long value here", "bytes": {"$base64": "/w=="}},
    ]


def test_decimal32_and_decimal64_written_by_arrow_js_print_exactly(run):
    assert rows(run("cat", CORPUS / "decimal_narrow.arrows")) == [
        {"d32": "-12.50", "d64": "-4000.001"},
        {"d32": "7.00", "d64": None},
        {"d32": None, "d64": "4418424.085"},
    ]


def test_legacy_streams_read_like_current_ones_from_files_and_stdin(run, recflow_bin):
    current = rows(run("cat", CORPUS / "primitive.arrows"))
    assert len(current) == 5
    # Arrow JS's writeLegacyIpcFormat output: no continuation markers.
    assert rows(run("cat", CORPUS / "primitive_legacy_js.arrows")) == current
    legacy = (CORPUS / "primitive_legacy_js.arrows").read_bytes()
    assert not legacy.startswith(b"\xff\xff\xff\xff")
    piped = subprocess.run([str(recflow_bin), "cat", "--from", "arrow", "-"], input=legacy, capture_output=True,
                           timeout=120)
    assert piped.returncode == 0, piped.stderr
    assert [json.loads(line) for line in piped.stdout.splitlines()] == current


@pytest.mark.parametrize("to,compression", [("arrow", "none"), ("feather", "lz4"), ("arrow", "zstd")])
def test_newer_types_convert_to_arrow_and_read_back_equal(run, tmp_path, to, compression):
    source = CORPUS / "newer_types.arrows"
    want = rows(run("cat", source))
    assert len(want) == 32
    out = tmp_path / "out"
    result = run("convert", source, "-o", out, "--to", to, "--compression", compression,
                 "--max-records-per-shard", "10", "--no-progress")
    assert result.returncode == 0, result.stderr
    assert len(list(out.glob("*.arrows" if to == "arrow" else "*.feather"))) == 4
    assert rows(run("cat", out)) == want


def test_inspect_reports_list_view_lengths(run):
    report = json.loads(run("inspect", "--json", CORPUS / "newer_types.arrows").stdout)
    lists = next(c for c in report["columns"] if c["name"] == "lists")
    assert lists["type"] == "list_view<int16>"
    assert (lists["min_length"], lists["max_length"]) == (0, 2)
