"""examples/pytorch-fashion-mnist: Debian's Fashion-MNIST IDX files → TFRecords → recflow.torch → one epoch of CPU
training; the printed test accuracy is above 0.75."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
IDX = Path("/usr/share/datasets/fashion-mnist")


def test_one_epoch_on_fashion_mnist_reaches_the_expected_accuracy(python_package_dir, tmp_path):
    if not (IDX / "train-images-idx3-ubyte.gz").is_file():
        pytest.skip("Debian's dataset-fashion-mnist is not installed")
    run = subprocess.run([sys.executable, str(ROOT / "examples" / "pytorch-fashion-mnist" / "train.py"),
                          "--build", str(python_package_dir.parent), "--out", str(tmp_path)],
                         capture_output=True, text=True, timeout=900)  # a bound on a hang, not a timing
    assert run.returncode == 0, run.stderr
    found = re.search(r"trained one epoch on 60000 images; test accuracy ([0-9.]+) on 10000 images", run.stdout)
    assert found, run.stdout
    assert float(found.group(1)) > 0.75
