"""recflow.torch.IterableDataset over TensorFlow's TFRecords: every record exactly once per epoch across DataLoader
workers and simulated ranks, values equal to the python3-protobuf decode; the seeded shuffle."""
import numpy as np
import pytest

from python_oracle import protobuf_rows

# torch is imported inside the tests, never at collection: a pytest process that holds it (300 MiB) would hand its
# peak RSS to every child it forks, which test_hostile_input's memory bounds measure.


def record_keys(batches):
    """Each record of tensor batches as (class, image bytes): a multiset key of its values."""
    keys = []
    for batch in batches:
        for label, image in zip(batch["image_class"].tolist(), batch["image_floats"].numpy()):
            keys.append((label, np.float32(image).tobytes()))
    return keys


@pytest.fixture(scope="module")
def mnist(testdata, pb):
    """mnist.tfrecord (1000 records, TensorFlow's) and its records' keys as python3-protobuf decodes them."""
    path = testdata / "tfrecord" / "tfx" / "mnist.tfrecord"
    want = [(row["image_class"][0], np.float32(row["image_floats"]).tobytes()) for row in protobuf_rows(pb, path)]
    return path, want


def test_two_dataloader_workers_read_every_record_once(recflow_py, mnist):
    from torch.utils.data import DataLoader
    import recflow.torch

    path, want = mnist
    ds = recflow.torch.IterableDataset(path, batch_size=64, split_bytes=200_000)
    assert len(ds.splits) > 4
    got = record_keys(DataLoader(ds, batch_size=None, num_workers=2))
    assert sorted(got) == sorted(want)


def test_two_ranks_of_two_workers_each_read_every_record_once(recflow_py, mnist):
    from torch.utils.data import DataLoader
    import recflow.torch

    path, want = mnist
    per_rank = []
    for rank in range(2):
        ds = recflow.torch.IterableDataset(path, batch_size=50, split_bytes=200_000, rank=rank, world_size=2)
        per_rank.append(record_keys(DataLoader(ds, batch_size=None, num_workers=2)))
    assert per_rank[0] and per_rank[1]
    assert sorted(per_rank[0] + per_rank[1]) == sorted(want)


def test_records_one_at_a_time_batch_in_the_dataloader(recflow_py, mnist):
    import torch
    from torch.utils.data import DataLoader
    import recflow.torch

    path, want = mnist
    loader = DataLoader(recflow.torch.IterableDataset(path), batch_size=100)
    batches = list(loader)
    assert [len(b["image_class"]) for b in batches] == [100] * 10
    assert batches[0]["image_floats"].dtype == torch.float32 and batches[0]["image_floats"].shape == (100, 784)
    assert record_keys(batches) == want


def test_the_shuffle_is_seeded_per_epoch_and_still_reads_every_record_once(recflow_py, mnist):
    from torch.utils.data import DataLoader
    import recflow.torch

    path, want = mnist

    def epoch(seed, number):
        ds = recflow.torch.IterableDataset(path, batch_size=32, shuffle=True, seed=seed, shuffle_buffer=300,
                                           split_bytes=200_000)
        ds.set_epoch(number)
        return record_keys(DataLoader(ds, batch_size=None, num_workers=2))

    first = epoch(7, 0)
    assert first == epoch(7, 0)
    assert first != epoch(7, 1) and first != epoch(8, 0)
    assert first != want and sorted(first) == sorted(want)


def test_the_main_process_decodes_on_every_core_in_input_order_and_each_worker_on_one(recflow_py, mnist):
    from torch.utils.data import DataLoader
    import recflow.torch

    class EngineThreads(recflow.torch.IterableDataset):
        """Yields the engine threads its reads would take where it is iterated."""

        def __iter__(self):
            yield self._engine_threads()

    path, want = mnist
    ds = recflow.torch.IterableDataset(path, batch_size=64, split_bytes=200_000)
    assert ds._engine_threads() == 0 and len(ds.splits) > 4
    assert record_keys(ds) == want  # pieces decoded on every core, batches in the input's order
    assert list(DataLoader(EngineThreads(path), batch_size=None, num_workers=2)) == [1, 1]
    assert recflow.torch.IterableDataset(path, threads=3)._engine_threads() == 3


def test_a_corrupt_record_read_on_every_core_names_its_file_record_and_offset(recflow_py, mnist, tmp_path):
    import recflow.torch

    data = bytearray(mnist[0].read_bytes())
    data[len(data) * 3 // 4] ^= 0xFF  # in a record of a later split
    bad = tmp_path / "bad.tfrecord"
    bad.write_bytes(bytes(data))
    ds = recflow.torch.IterableDataset(bad, batch_size=64, split_bytes=200_000, infer_rows=1)
    assert ds._engine_threads() == 0 and len(ds.splits) > 4
    with pytest.raises(recflow_py.Error) as error:
        for _ in ds:
            pass
    text = str(error.value)
    assert text.startswith(f"{bad}: record ") and ", byte offset " in text and "CRC" in text, text


def test_rank_needs_world_size(recflow_py, mnist):
    import recflow.torch

    with pytest.raises(ValueError, match="rank"):
        recflow.torch.IterableDataset(mnist[0], rank=1)
    with pytest.raises(ValueError, match="rank 2"):
        next(iter(recflow.torch.IterableDataset(mnist[0], rank=2, world_size=2)))


def test_fashion_mnist_images_are_uint8_tensors_equal_to_the_idx_bytes(recflow_py, recflow_bin, tmp_path):
    import torch
    import gzip
    from pathlib import Path

    import recflow.torch

    fashion = Path("/usr/share/datasets/fashion-mnist")
    images, labels = fashion / "t10k-images-idx3-ubyte.gz", fashion / "t10k-labels-idx1-ubyte.gz"
    if not images.is_file():
        pytest.skip("Debian's dataset-fashion-mnist is not installed")
    out = tmp_path / "fashion.tfrecord.gz"
    import subprocess

    subprocess.run([str(recflow_bin.parent / "recflow-idx-to-tfrecord"), str(images), str(labels), str(out)],
                   check=True, capture_output=True, timeout=120)
    batches = list(recflow.torch.IterableDataset(out, batch_size=4096))
    got_images = torch.cat([b["image"] for b in batches])
    got_labels = torch.cat([b["label"] for b in batches])
    want_images = np.frombuffer(gzip.decompress(images.read_bytes())[16:], np.uint8).reshape(10000, 784)
    want_labels = np.frombuffer(gzip.decompress(labels.read_bytes())[8:], np.uint8)
    assert got_images.dtype == torch.uint8 and got_images.shape == (10000, 784)
    assert np.array_equal(got_images.numpy(), want_images)
    assert np.array_equal(got_labels.numpy(), want_labels)


RANK_CHILD = r"""
import json, sys
import numpy as np
import torch.distributed
import recflow.torch

path, init, rank, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
torch.distributed.init_process_group("gloo", init_method=init, rank=rank, world_size=2)
try:
    ds = recflow.torch.IterableDataset(path, batch_size=50, split_bytes=200_000)
    labels = [int(v) for batch in ds for v in batch["image_class"]]
    sums = [float(np.float32(v).sum()) for batch in ds for v in batch["image_floats"].numpy()]
    json.dump({"labels": labels, "sums": sums}, open(out, "w"))
finally:
    torch.distributed.destroy_process_group()
"""


def test_ranks_come_from_torch_distributed_when_it_is_initialised(python_package_dir, mnist, tmp_path):
    import json
    import os
    import subprocess
    import sys

    path, want = mnist
    env = {**os.environ, "PYTHONPATH": str(python_package_dir)}
    init = f"file://{tmp_path / 'rendezvous'}"
    children = [subprocess.Popen([sys.executable, "-c", RANK_CHILD, str(path), init, str(rank),
                                  str(tmp_path / f"rank{rank}.json")], env=env) for rank in range(2)]
    for child in children:
        assert child.wait(timeout=300) == 0
    parts = [json.loads((tmp_path / f"rank{rank}.json").read_text()) for rank in range(2)]
    assert parts[0]["labels"] and parts[1]["labels"]
    got = sorted(zip(parts[0]["labels"] + parts[1]["labels"], parts[0]["sums"] + parts[1]["sums"]))
    expected = sorted((label, float(np.frombuffer(image, np.float32).sum())) for label, image in want)
    assert got == expected
