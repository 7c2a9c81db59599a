#!/usr/bin/python3
"""recflow's Python module against the reader a user would otherwise write (pure-Python TFRecord framing +
python3-protobuf parsing), in the same run, alternating A B A B: Fashion-MNIST train TFRecords (60 000 records) into
torch tensors (uint8 images N × 784, int64 labels), and Chicago taxi tf.Examples into NumPy columns. Prints records/s
of one epoch (best of --rounds; recflow's one-time open — detection, schema inference, split planning — is timed
apart, as a training loop opens once and reads every epoch) and the ratio. recflow reads with its defaults (every
core: one thread frames and checks the CRCs while the others decode, beside the loop's thread) unless --threads says.

Usage: bench/python_read.py [--rounds 5] [--threads N]
"""
import gzip
import struct
import time

import numpy as np
import torch

from python_peer_util import BATCH, TAXI, fashion_tfrecord_gz, measure, workspace

import recflow  # noqa: E402  (python_peer_util put the build's package on the path)
import recflow.torch  # noqa: E402


def python_records(path):
    """The records of an uncompressed TFRecord file, framing read with struct (CRCs not checked, as
    most hand-written readers skip them)."""
    with open(path, "rb") as f:
        data = f.read()
    pos, end = 0, len(data)
    while pos < end:
        (length,) = struct.unpack_from("<Q", data, pos)
        yield data[pos + 12:pos + 12 + length]
        pos += 16 + length


def python_fashion(pb, path):
    """Peer: batches of (uint8 images, int64 labels) tensors via python3-protobuf."""
    rows = 0
    images, labels = [], []
    for record in python_records(path):
        feature = pb.Example.FromString(record).features.feature
        images.append(feature["image"].bytes_list.value[0])
        labels.append(feature["label"].int64_list.value[0])
        if len(labels) == BATCH:
            image = torch.from_numpy(np.frombuffer(bytearray(b"".join(images)), np.uint8).reshape(len(labels), -1))
            label = torch.tensor(labels)
            rows += len(label) + 0 * image.shape[0]
            images, labels = [], []
    return rows + len(labels)


def recflow_fashion(dataset):
    """recflow.torch.IterableDataset batches of the same tensors: one epoch."""
    rows = 0
    for batch in dataset:
        rows += len(batch["label"]) + 0 * batch["image"].shape[0]
    return rows


def python_taxi(pb, path):
    """Peer: every feature of each tf.Example into per-column lists, then NumPy arrays per batch."""
    rows = 0
    columns = {}
    count = 0
    for record in python_records(path):
        for name, feature in pb.Example.FromString(record).features.feature.items():
            kind = feature.WhichOneof("kind")
            if kind is not None:
                columns.setdefault(name, []).append(getattr(feature, kind).value[0])
        count += 1
        if count == BATCH:
            arrays = {name: np.array(values) for name, values in columns.items()}
            rows += count + 0 * len(arrays)
            columns, count = {}, 0
    return rows + count


def recflow_taxi(dataset):
    """recflow.read batches of NumPy columns: one pass."""
    return sum(len(batch["fare"]) for batch in dataset.batches(BATCH))


def prepare(work):
    """Fashion-MNIST train as an uncompressed TFRecord (recflow-idx-to-tfrecord's GZIP output, inflated), and the
    taxi file's records × 20 uncompressed (16 520 Examples)."""
    gz = fashion_tfrecord_gz(work)
    fashion = work / "fashion.tfrecord"
    fashion.write_bytes(gzip.decompress(gz.read_bytes()))
    taxi = work / "taxi.tfrecord"
    taxi.write_bytes(gzip.decompress(TAXI.read_bytes()) * 20)
    return fashion, taxi


def main():
    with workspace(__doc__, threads=None) as (args, work, pb):
        fashion, taxi = prepare(work)
        threads = {} if args.threads is None else {"threads": args.threads}
        start = time.perf_counter()
        fashion_dataset = recflow.torch.IterableDataset(fashion, batch_size=BATCH, **threads)
        taxi_dataset = recflow.read(taxi, **threads)
        print(f"recflow open (both inputs, once): {time.perf_counter() - start:.3f} s")
        measure("Fashion-MNIST train → torch tensors", lambda: python_fashion(pb, fashion),
                lambda: recflow_fashion(fashion_dataset), args.rounds)
        measure("taxi tf.Examples → NumPy columns", lambda: python_taxi(pb, taxi),
                lambda: recflow_taxi(taxi_dataset), args.rounds)


if __name__ == "__main__":
    main()
