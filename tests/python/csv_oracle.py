"""Messy-CSV generator and DuckDB oracle runner for the recflow-vs-DuckDB CSV tests."""
import ctypes
import json
import math
import random
from pathlib import Path

from node_util import run_node


ROOT = Path(__file__).resolve().parents[2]
NODE_DIR = ROOT / "tests" / "node"
DUCKDB_SCRIPT = NODE_DIR / "duckdb_csv.mjs"

# Column kinds: recflow schema type and DuckDB type.
KINDS = {"int": ("int64", "BIGINT"), "float": ("float64", "DOUBLE"), "bool": ("bool", "BOOLEAN"),
         "str": ("utf8", "VARCHAR"), "ts": ("timestamp", "TIMESTAMPTZ")}
UNICODE = ["café", "naïve", "日本語", "😀🚀", "e\u0301", "Ωμέγα", "\u00a0nbsp", "ß", "\u200bzw"]


def _int_text(rng, messy):
    v = rng.choice([0, 1, -1, 2**63 - 1, -(2**63), 2**62, rng.randint(-(2**63), 2**63 - 1), rng.randint(-999, 999)])
    if messy and v > 0 and rng.random() < 0.2:
        return "+" + str(v)
    if messy and 0 <= v < 1000 and rng.random() < 0.2:
        return "00" + str(v)
    return str(v)


def _float_text(rng, messy):
    clean = [repr(rng.uniform(-1e6, 1e6)), repr(rng.random()), "%.6e" % rng.uniform(-1e30, 1e30),
             "1.5E-7", "-2e3", "3.4028234663852886e38", "16777217.0", "0.1", "-0.0"]
    odd = ["5.", ".5", "+1.5", "1e-310", "1.7976931348623157e308", "1e300", "-1e-300", "inf", "-Infinity", "NaN",
           "nan", "1E+5"]
    return rng.choice(clean + odd if messy else clean)


def _bool_text(rng, messy):
    text = rng.choice(["true", "false"])
    if messy:
        text = "".join(c.upper() if rng.random() < 0.5 else c for c in text)
    return text


def _ts_text(rng, messy):
    secs = rng.randint(-2208988800, 4102444799)  # 1900-01-01 .. 2099-12-31
    y, mo, d, h, mi, s = _civil(secs)
    date = f"{y:04d}-{mo:02d}-{d:02d}"
    if messy and rng.random() < 0.15:
        return date
    text = f"{date}{rng.choice('T ') if messy else 'T'}{h:02d}:{mi:02d}:{s:02d}"
    digits = rng.randint(0, 9) if messy else rng.choice([0, 3, 6])
    if digits:
        text += "." + "".join(rng.choice("0123456789") for _ in range(digits))
    zone = rng.choice(["", "Z", "+05:30", "-08:00", "+00:00"]) if messy else "Z"
    return text + zone


def _civil(secs):
    days, rem = divmod(secs, 86400)
    # Howard Hinnant's civil_from_days.
    z = days + 719468
    era = (z if z >= 0 else z - 146096) // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (m <= 2), m, d, rem // 3600, rem // 60 % 60, rem % 60


def _str_text(rng, messy, long_len=0):
    if long_len:
        chunk = 'ab,c"d\ne' + rng.choice(UNICODE) + "\r\nf g "
        return (chunk * (long_len // len(chunk) + 1))[:long_len]
    if messy and rng.random() < 0.08:
        return rng.choice(["NA", "", " ", "null"])  # quoted by _quote: a string, never a null
    parts = ["w" + str(rng.randint(0, 99))]
    if messy:
        parts += rng.sample([",", '"', '""', "\n", "\r\n", " lead", "trail ", "NA", "'", "\t", "#"] + UNICODE, 3)
    else:
        parts.append(rng.choice(UNICODE))
    rng.shuffle(parts)
    return "".join(parts)


def _quote(text, force=False):
    needs = force or any(c in text for c in ',"\r\n') or text in ("", "NA") or text[:1] == " " or text[-1:] == " "
    return '"' + text.replace('"', '""') + '"' if needs else text


def generate_csv(path: Path, seed: int, kinds, rows: int, *, crlf=False, bom=False, messy=True,
                 null_rate=0.1, null_text="NA", long_len=0, names=None) -> Path:
    """Writes a seeded CSV with a header; returns `path`. `kinds` is a list of KINDS keys, one per column."""
    rng = random.Random(seed)
    names = names or [f"{k}{i}" for i, k in enumerate(kinds)]
    eol = "\r\n" if crlf else "\n"
    gens = {"int": _int_text, "float": _float_text, "bool": _bool_text, "ts": _ts_text}
    lines = [",".join(_quote(n) for n in names)]
    for r in range(rows):
        fields = []
        for c, kind in enumerate(kinds):
            if r > 0 and rng.random() < null_rate:  # row 0 holds values, so inference sees every type
                fields.append(null_text if rng.random() < 0.7 else "")  # empty unquoted: null in typed columns
                if kind == "str" and fields[-1] == "" and null_text != "":
                    fields[-1] = null_text  # an empty unquoted utf8 field would be "" (not null) in both readers
                continue
            if kind == "str":
                fields.append(_quote(_str_text(rng, messy, long_len), force=messy and rng.random() < 0.3))
            else:
                fields.append(_quote(gens[kind](rng, messy), force=messy and rng.random() < 0.1))
        lines.append(",".join(fields))
    data = (eol.join(lines) + eol).encode("utf-8")
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + data)
    return path


def write_schema(path: Path, names, kinds) -> Path:
    """recflow --schema JSON with every field nullable."""
    fields = [{"name": n, "type": KINDS[k][0], "nullable": True} for n, k in zip(names, kinds)]
    path.write_text(json.dumps({"fields": fields}))
    return path


def duckdb_read(csv_path: Path, nulls=("",), types=None):
    """Runs tests/node/duckdb_csv.mjs; returns (columns [(name, duckdb type)], rows)."""
    cmd = [csv_path]
    for n in nulls:
        cmd += ["--null", n]
    if types is not None:
        cmd += ["--types", json.dumps(types)]
    out = run_node(DUCKDB_SCRIPT.name, *cmd, timeout=300)
    if out.returncode != 0:
        raise AssertionError(f"DuckDB failed on {csv_path}: {out.stderr}")
    doc = json.loads(out.stdout)
    return [(c["name"], c["type"]) for c in doc["columns"]], doc["rows"]


def f32(x: float) -> float:
    """`x` rounded to float32 as a C cast does (overflow gives infinity)."""
    return ctypes.c_float(x).value


def expected_feature(duck_type: str, value):
    """(kind, [values]) recflow must write for a DuckDB value, or None when the feature must be absent."""
    if value is None:
        return None
    if duck_type in ("BIGINT", "INTEGER", "SMALLINT", "TINYINT"):
        return "int64_list", [int(value)]
    if duck_type in ("DOUBLE", "FLOAT"):
        return "float_list", [f32(float(value))]  # float("NaN"), float("-Infinity") work
    if duck_type == "BOOLEAN":
        return "int64_list", [1 if value else 0]
    if duck_type.startswith("TIMESTAMP") or duck_type == "DATE":
        return "int64_list", [int(value)]
    if duck_type == "VARCHAR":
        return "bytes_list", [value.encode("utf-8")]
    raise AssertionError(f"unexpected DuckDB type {duck_type}")


def _same(a, b):
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


def compare(pb, records, columns, rows, label=""):
    """Mismatch descriptions (empty when recflow's records equal DuckDB's rows); at most 20."""
    problems = []
    if len(records) != len(rows):
        problems.append(f"{label}: {len(records)} records, DuckDB has {len(rows)} rows")
    for r, (record, row) in enumerate(zip(records, rows)):
        ex = pb.Example.FromString(record)
        feats = ex.features.feature
        extra = set(feats) - {name for name, _ in columns}
        if extra:
            problems.append(f"{label} row {r}: unexpected features {sorted(extra)}")
        for (name, duck_type), value in zip(columns, row):
            want = expected_feature(duck_type, value)
            if want is None:
                if name in feats:
                    problems.append(f"{label} row {r} col {name!r}: DuckDB null, recflow {_show(feats[name])}")
                continue
            got = _values(feats[name]) if name in feats else None
            if got is None or got[0] != want[0] or len(got[1]) != len(want[1]) or \
                    not all(_same(a, b) for a, b in zip(got[1], want[1])):
                problems.append(f"{label} row {r} col {name!r} ({duck_type}): DuckDB {_short(value)} -> "
                                f"{_short(want)}, recflow {_short(got)}")
        if len(problems) >= 20:
            break
    return problems


def _values(feature):
    kind = feature.WhichOneof("kind")
    return (kind, list(getattr(feature, kind).value)) if kind else (None, [])


def _show(feature):
    return _short(_values(feature))


def _short(x):
    text = repr(x)
    return text if len(text) < 200 else text[:200] + f"...({len(text)} chars)"
