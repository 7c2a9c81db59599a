"""What the Dask benchmarks (dask_convert.py, dask_task_cost.py) share: the build's recflow importable here and in
the workers, the taxi input, and CPU seconds from getrusage."""
import gzip
import os
import resource
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = Path(os.environ.get("RECFLOW_BUILD_DIR", ROOT / "build" / "release"))
TAXI = Path(os.environ.get("RECFLOW_TESTDATA_DIR", ROOT.parent / "shared" / "testdata")) / "tfrecord" / "tfx" / \
    "taxi-train-00000-of-00012.tfrecord.gz"


def use_build():
    """Makes the build's recflow package importable in this process, and it and this module (whose functions the
    benchmarks run in the workers) in the worker processes it starts."""
    sys.path.insert(0, str(BUILD / "python"))
    paths = [str(BUILD / "python"), str(Path(__file__).resolve().parent), os.environ.get("PYTHONPATH")]
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, paths))


def taxi_input(work, copies):
    """TensorFlow's taxi Examples repeated `copies` times as one uncompressed TFRecord file in directory `work` (made);
    returns its path (a gzip file would be one split)."""
    work.mkdir(parents=True, exist_ok=True)
    source = work / "taxi.tfrecord"
    with gzip.open(TAXI) as taxi:
        source.write_bytes(taxi.read() * copies)
    return source


def cpu_seconds(who=resource.RUSAGE_SELF):
    """User + system CPU seconds of this process (RUSAGE_SELF) or of its waited-for children (RUSAGE_CHILDREN)."""
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime
