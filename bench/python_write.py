#!/usr/bin/python3
"""recflow.write against the writer a user would otherwise write (python3-protobuf Examples framed as TFRecords in
pure Python), in the same run, alternating A B A B: the Chicago taxi tf.Examples (× 20) and Fashion-MNIST train, held
in memory as batches of NumPy columns (what recflow.read gives), written as one uncompressed TFRecord file. Prints
records/s (best of --rounds) and the ratio.

Usage: bench/python_write.py [--rounds 5] [--threads 1]
"""
import gzip
import shutil
import struct

import numpy as np

from python_peer_util import BATCH, TAXI, fashion_tfrecord_gz, measure, workspace

import recflow  # noqa: E402  (python_peer_util put the build's package on the path)

ZERO_CRC = struct.pack("<I", 0)


def python_write(pb, batches, path):
    """Peer: one tf.Example per row built with python3-protobuf (int64_list for integers, float_list for floats,
    bytes_list for strings and bytes; nulls left out), framed with struct. The CRCs are written as zeros (a
    pure-Python CRC32C would dominate; no C one is packaged for Debian's Python), which favours the peer."""
    rows = 0
    with open(path, "wb") as out:
        for batch in batches:
            columns = list(batch.items())
            count = len(columns[0][1])
            for i in range(count):
                example = pb.Example()
                feature = example.features.feature
                for name, column in columns:
                    if np.ma.isMaskedArray(column):
                        if column.mask[i]:
                            continue
                        value = column.data[i]
                    else:
                        value = column[i]
                    if value is None:
                        continue
                    if isinstance(value, str):
                        feature[name].bytes_list.value.append(value.encode())
                    elif isinstance(value, bytes):
                        feature[name].bytes_list.value.append(value)
                    elif isinstance(value, (float, np.floating)):
                        feature[name].float_list.value.append(value)
                    else:
                        feature[name].int64_list.value.append(int(value))
                record = example.SerializeToString()
                out.write(struct.pack("<Q", len(record)) + ZERO_CRC + record + ZERO_CRC)
            rows += count
    return rows


def recflow_write(batches, path, threads):
    """recflow.write of the same batches (one shard, no fsync: the peer does not sync either)."""
    return recflow.write(batches, path, format="tfrecord", mode="overwrite", sync=False, threads=threads)["records"]


def prepare(work):
    """Both inputs as lists of batch dicts of 256 rows, read once by recflow: taxi × 20 (16 520 Examples, 18
    features, nulls) and Fashion-MNIST train (60 000 rows: image bytes, int64 label)."""
    taxi = work / "taxi.tfrecord"
    taxi.write_bytes(gzip.decompress(TAXI.read_bytes()) * 20)
    return ([dict(b) for b in recflow.read(taxi).batches(BATCH)],
            [dict(b) for b in recflow.read(fashion_tfrecord_gz(work)).batches(BATCH)])


def main():
    with workspace(__doc__) as (args, work, pb):
        taxi, fashion = prepare(work)
        for name, batches in (("taxi tf.Examples", taxi), ("Fashion-MNIST train", fashion)):
            out = work / "out"
            measure(f"{name} → TFRecord", lambda: python_write(pb, batches, work / "peer.tfrecord"),
                    lambda: recflow_write(batches, out, args.threads), args.rounds)
            shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
