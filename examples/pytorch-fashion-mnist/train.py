#!/usr/bin/python3
"""Fashion-MNIST from IDX files to a trained model: recflow-idx-to-tfrecord writes the train and test sets as GZIP
TFRecords of tf.Examples (image bytes, label), recflow.torch.IterableDataset feeds them to a small CPU network
(DataLoader workers reading splits), one epoch of training, then the test accuracy is printed.

Usage: examples/pytorch-fashion-mnist/train.py [--build build/release] [--idx /usr/share/datasets/fashion-mnist]
                                               [--out DIR] [--workers 2] [--seed 0]
"""
import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import torch
from torch import nn

ROOT = Path(__file__).resolve().parents[2]


def to_tfrecord(build, idx, split, out):
    """The IDX pair of `split` ("train", "t10k") as a GZIP TFRecord under `out` (written once)."""
    path = out / f"fashion-{split}.tfrecord.gz"
    if not path.exists():
        subprocess.run([str(build / "bin" / "recflow-idx-to-tfrecord"), str(idx / f"{split}-images-idx3-ubyte.gz"),
                        str(idx / f"{split}-labels-idx1-ubyte.gz"), str(path)], check=True, stdout=subprocess.DEVNULL)
    return path


def batches(path, workers, **options):
    """A DataLoader of recflow batches of 128 (uint8 images N × 784, int64 labels) over `path`."""
    import recflow.torch

    dataset = recflow.torch.IterableDataset(path, batch_size=128, **options)
    return torch.utils.data.DataLoader(dataset, batch_size=None, num_workers=workers)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", type=Path, default=ROOT / "build" / "release")
    parser.add_argument("--idx", type=Path, default=Path("/usr/share/datasets/fashion-mnist"))
    parser.add_argument("--out", type=Path, help="where the TFRecords go (default: a temporary directory)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    sys.path.insert(0, str(args.build / "python"))
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        train = to_tfrecord(args.build, args.idx, "train", out)
        test = to_tfrecord(args.build, args.idx, "t10k", out)

        model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        loss_fn = nn.CrossEntropyLoss()
        model.train()
        seen = 0
        for batch in batches(train, args.workers, shuffle=True, seed=args.seed, split_bytes=4 << 20):
            images = batch["image"].float() / 255.0
            optimizer.zero_grad()
            loss = loss_fn(model(images), batch["label"])
            loss.backward()
            optimizer.step()
            seen += len(images)

        model.eval()
        correct = total = 0
        with torch.no_grad():
            for batch in batches(test, args.workers):
                predicted = model(batch["image"].float() / 255.0).argmax(dim=1)
                correct += int((predicted == batch["label"]).sum())
                total += len(predicted)
    print(f"trained one epoch on {seen} images; test accuracy {correct / total:.4f} on {total} images")


if __name__ == "__main__":
    main()
