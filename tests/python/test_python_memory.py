"""Zero-copy at scale: a 1 GiB TFRecord file read from Python into NumPy columns, every batch kept, grows the
process's anonymous memory by less than 1.5 times the decoded values, where a copy into NumPy would need twice them.
And the memory of a batch let go is kept for the next one once recflow is imported."""
import json
import os
import subprocess
import sys

import pytest

from tfrecord_util import frame

HERE = os.path.dirname(os.path.abspath(__file__))
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


HEAP_KEEPS = r"""
import recflow
from malloc_util import heap_keeps_a_freed_batch

print(heap_keeps_a_freed_batch())
"""


@pytest.mark.parametrize("tunables", [None, "glibc.malloc.check=0"])
def test_importing_recflow_keeps_freed_batch_memory_for_the_next_batch(python_package_dir, recflow_bin, tunables):
    if "libasan" in subprocess.run(["ldd", str(recflow_bin)], capture_output=True, text=True).stdout:
        pytest.skip("under AddressSanitizer, memory is ASan's allocator's: glibc's malloc settings do not apply")
    env = {key: value for key, value in os.environ.items() if not key.startswith(("MALLOC_", "GLIBC_TUNABLES"))}
    if tunables is not None:
        env["GLIBC_TUNABLES"] = tunables
    child = subprocess.run([sys.executable, "-c", HEAP_KEEPS], capture_output=True, text=True, timeout=60,
                           env={**env, "PYTHONPATH": os.pathsep.join([str(python_package_dir), HERE])})
    assert child.returncode == 0, child.stderr
    # glibc's defaults map a 4 MiB block and unmap it when freed (its next use faults every page in again); once
    # recflow is imported the heap keeps it, as the recflow command's does — unless the user set glibc's tunables.
    assert child.stdout.split() == ["False" if tunables else "True"]
