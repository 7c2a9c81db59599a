"""recflow from Python: read any input recflow reads (TFRecord/tf.Example, CSV, JSON Lines, Avro, Arrow IPC; files,
directories, globs, Hive partitions) or a `recflow serve` stream as batches of NumPy columns, pandas DataFrames or
Arrow C streams, and write batches as datasets (recflow.write); recflow.torch feeds PyTorch. See docs/python.md."""
from recflow._recflow import Error
from recflow._columns import ListColumn, MapColumn, StructColumn
from recflow._dataset import Dataset, Connection, Split, read, connect
from recflow._pipeline import Pipeline, RunMetrics, Step, run
from recflow._write import write

__all__ = ["Error", "ListColumn", "MapColumn", "StructColumn", "Dataset", "Connection", "Split", "read", "connect",
           "write", "Pipeline", "RunMetrics", "Step", "run"]
