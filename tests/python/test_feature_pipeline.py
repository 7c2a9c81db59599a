"""examples/sklearn-features: scikit-learn's iris CSV through standard_scale, vocabulary and one_hot into TFRecord;
values equal scikit-learn's StandardScaler, read back with python3-protobuf."""
import subprocess
from pathlib import Path

import pytest

from tfrecord_util import read_tfrecord

ROOT = Path(__file__).resolve().parents[2]
IRIS = Path("/usr/lib/python3/dist-packages/sklearn/datasets/data/iris.csv")

np = pytest.importorskip("numpy")
preprocessing = pytest.importorskip("sklearn.preprocessing")


def test_iris_features_equal_scikit_learn(recflow_bin, tmp_path, pb):
    if not IRIS.exists():
        pytest.skip("python3-sklearn is not installed")
    out = tmp_path / "iris"
    done = subprocess.run([str(recflow_bin), "run", ROOT / "examples" / "sklearn-features" / "pipeline.yaml",
                           "--set", f"out={out}", "--quiet"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "2 stages" in done.stderr  # one fitting pass for both fits, then the transform
    rows = np.loadtxt(IRIS, delimiter=",", skiprows=1)
    expected = preprocessing.StandardScaler().fit_transform(rows[:, :4])
    examples = []
    for shard in sorted(out.glob("*.tfrecord")):
        for record in read_tfrecord(shard):
            example = pb.Example()
            example.ParseFromString(record)
            examples.append(example.features.feature)
    assert len(examples) == 150
    names = ["sepal_length", "sepal_width", "petal_length", "petal_width"]
    for i, f in enumerate(examples):
        got = [f[n].float_list.value[0] for n in names]
        assert np.allclose(got, expected[i], rtol=1e-6, atol=1e-6), (i, got, expected[i])
        species = int(rows[i, 4])
        assert f["species"].int64_list.value[0] == species
        # 50 of each class: ties in count order by value, so the ids are the classes themselves.
        assert f["species_id"].int64_list.value[0] == species
        assert list(f["species_one_hot"].float_list.value) == [1.0 if k == species else 0.0 for k in range(3)]
    assert Path(f"{out}-species.vocab").read_text() == "0\n1\n2\n"
