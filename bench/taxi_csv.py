#!/usr/bin/python3
"""Writes a deterministic Chicago-taxi-like CSV (18 columns, ~136 bytes a row) from the TFX taxi Examples."""
import argparse
import datetime
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "python"))
from tfrecord_util import generate_proto_module, read_tfrecord  # noqa: E402

TAXI = ROOT.parent / "shared" / "testdata" / "tfrecord" / "tfx" / "taxi-train-00000-of-00012.tfrecord.gz"
COLUMNS = ["pickup_community_area", "fare", "trip_start_month", "trip_start_hour", "trip_start_day",
           "trip_start_timestamp", "pickup_latitude", "pickup_longitude", "dropoff_latitude",
           "dropoff_longitude", "trip_miles", "pickup_census_tract", "dropoff_census_tract", "payment_type",
           "company", "trip_seconds", "dropoff_community_area", "tips"]
# 2013-01-01 .. 2017-12-31, the span of the public Chicago taxi data.
FIRST_START, LAST_START = 1356998400, 1514678400


def templates(proto_dir: Path):
    """The real taxi Examples as dicts of column → value (None where the Example has no value)."""
    pb = generate_proto_module(ROOT / "tests" / "proto" / "example.proto", proto_dir)
    rows = []
    for record in read_tfrecord(TAXI):
        example = pb.Example()
        example.ParseFromString(record)
        row = {}
        for name in COLUMNS:
            feature = example.features.feature[name]
            kind = feature.WhichOneof("kind")
            values = list(getattr(feature, kind).value) if kind else []
            row[name] = values[0] if values else None
        rows.append(row)
    return rows


def text(name: str, value) -> str:
    """As the City of Chicago exports it: coordinates to 9 decimals, money to cents."""
    if value is None:
        return ""
    if isinstance(value, bytes):
        return value.decode()
    if name.endswith(("latitude", "longitude")):
        return f"{value:.9f}"
    if name in ("fare", "tips"):
        return f"{value:.2f}"
    return str(value)


def quoted(field: str) -> str:
    return '"' + field + '"' if "," in field else field


def row(rng: random.Random, template: dict) -> str:
    """One trip: places, company and payment from a real trip; time, length, fare and tip drawn anew."""
    start = FIRST_START + rng.randrange((LAST_START - FIRST_START) // 900) * 900
    when = datetime.datetime.fromtimestamp(start, datetime.timezone.utc)
    miles = round(rng.expovariate(1 / 3.2), 1)
    seconds = 60 * max(1, int(miles * rng.uniform(2.5, 5.0) + rng.randint(0, 6)))
    fare = round((3.25 + 2.25 * miles + 0.25 * (seconds // 36) / 10) * 4) / 4
    cash = template["payment_type"] == b"Cash"
    tips = 0.0 if cash or rng.random() < 0.35 else round(fare * rng.uniform(0.1, 0.3), 2)
    values = dict(template, trip_start_timestamp=start, trip_start_month=when.month, trip_start_hour=when.hour,
                  trip_start_day=when.isoweekday() % 7 + 1, trip_miles=miles, trip_seconds=seconds, fare=fare,
                  tips=tips)
    return ",".join(quoted(text(name, values[name])) for name in COLUMNS) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "bench-data" / "taxi-1m.csv")
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    proto_dir = args.out.parent / "proto"
    proto_dir.mkdir(exist_ok=True)
    pool = templates(proto_dir)
    rng = random.Random(args.seed)
    tmp = args.out.with_suffix(".tmp")
    with open(tmp, "w", newline="") as f:
        f.write(",".join(COLUMNS) + "\n")
        for begin in range(0, args.rows, 10_000):
            f.write("".join(row(rng, rng.choice(pool)) for _ in range(min(10_000, args.rows - begin))))
    tmp.replace(args.out)
    print(f"{args.out}: {args.rows} rows, {args.out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
