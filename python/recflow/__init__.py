"""recflow from Python: read any input recflow reads (TFRecord/tf.Example, CSV, JSON Lines, Avro, Arrow IPC; files,
directories, globs, Hive partitions) or a `recflow serve` stream as batches of NumPy columns, pandas DataFrames or
Arrow C streams; recflow.torch feeds PyTorch. See docs/python.md."""
from recflow._recflow import Error
from recflow._columns import ListColumn
from recflow._dataset import Dataset, Connection, Split, read, connect
from recflow._pipeline import Pipeline, RunMetrics, Step, run

__all__ = ["Error", "ListColumn", "Dataset", "Connection", "Split", "read", "connect", "Pipeline", "RunMetrics", "Step", "run"]
