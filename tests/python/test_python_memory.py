"""Zero-copy at scale: a 1 GiB TFRecord file read from Python into NumPy columns, every batch kept, grows the
process's anonymous memory by less than 1.5 times the decoded values, where a copy into NumPy would need twice them."""
import json
import os
import subprocess
import sys

import pytest

from tfrecord_util import frame

FLOATS = 1 << 14  # per record: 64 KiB of float32
RECORDS = 1 << 14  # 1 GiB of values in all

CHILD = r"""
import json, sys
import recflow

def rss_anon():
    for line in open("/proc/self/status"):
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) * 1024

before = rss_anon()
ds = recflow.read(sys.argv[1], infer_rows=100)
kept, values = [], 0
for batch in ds.batches():
    values_array = batch["x"].values
    assert isinstance(values_array.base, recflow._recflow.ArrowBuffer)  # a view, holding the Arrow buffer
    values += values_array.nbytes
    kept.append(batch)
print(json.dumps({"before": before, "after": rss_anon(), "values": values}))
"""


@pytest.mark.large
def test_reading_a_gigabyte_keeps_one_copy(python_package_dir, pb, tmp_path):
    example = pb.Example()
    example.features.feature["x"].float_list.value.extend([0.5] * FLOATS)
    record = frame(example.SerializeToString())
    path = tmp_path / "big.tfrecord"
    with path.open("wb") as out:
        for _ in range(RECORDS // 256):
            out.write(record * 256)
    assert path.stat().st_size > 1 << 30
    try:
        child = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True,
                               timeout=600, env={**os.environ, "PYTHONPATH": str(python_package_dir)})
    finally:
        path.unlink()  # pytest keeps the last runs' directories: do not leave a gigabyte behind
    assert child.returncode == 0, child.stderr
    seen = json.loads(child.stdout)
    assert seen["values"] == FLOATS * RECORDS * 4
    # Everything kept is one copy of the values (plus NumPy and batch objects, and what the engine
    # allocated and freed on the way); a copy per batch would need twice the values.
    assert seen["after"] - seen["before"] < 1.5 * seen["values"], seen
