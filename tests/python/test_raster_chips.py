"""The chips step through `recflow run` into TFRecord: the tf.Examples decoded with python3-protobuf hold the same
float32 pixels as rasterio's windowed read of the shared Sentinel-2 bands (HWC, NaN for nodata); stride, padding,
the nodata fraction and a label raster sampled at the chip's center; the chips through to_example's tensor layout."""
import json

import numpy as np
import pytest

from tfrecord_util import read_tfrecord

rasterio = pytest.importorskip("rasterio")


def chips_run(run, tmp_path, testdata, chips, read_args="window: [0, 0, 300, 200]", extra="", to_example=None):
    """read_raster (red and nir) -> `extra` -> chips -> the chip columns (or `to_example`'s arguments) -> TFRecord."""
    s2 = testdata / "raster" / "sentinel2-l2a"
    columns = f"select: [scene_id, chip_x, chip_y, height, width, channels, pixels{', label' if 'label_raster' in chips else ''}]"
    (tmp_path / "scenes.jsonl").write_text(json.dumps({"scene_id": "s2", "red": str(s2 / "B04.tif"),
                                                       "nir": str(s2 / "B08.tif")}) + "\n")
    (tmp_path / "p.yaml").write_text(f"""
steps:
  - read: {{path: {tmp_path / 'scenes.jsonl'}, format: jsonl}}
  - read_raster: {{datasets: {{red: red, nir: nir}}, scale: 0.0001, {read_args}}}
  {extra}
  - chips: {chips}
  - {columns if to_example is None else 'to_example: ' + to_example}
  - write: {{path: {tmp_path / 'chips'}, format: tfrecord}}
""")
    result = run("run", tmp_path / "p.yaml", "--quiet")
    assert result.returncode == 0, result.stderr
    return sorted((tmp_path / "chips").glob("part-*"))


def features(pb, files):
    """Each record's tf.Example features, decoded by python3-protobuf."""
    for path in files:
        for record in read_tfrecord(path):
            ex = pb.Example()
            ex.ParseFromString(record)
            yield ex.features.feature


def examples(pb, files):
    out = []
    for f in features(pb, files):
        shape = (f["height"].int64_list.value[0], f["width"].int64_list.value[0], f["channels"].int64_list.value[0])
        pixels = np.frombuffer(f["pixels"].bytes_list.value[0], dtype="<f4").reshape(shape)
        label = f["label"].float_list.value[0] if "label" in f else None
        out.append((f["chip_x"].int64_list.value[0], f["chip_y"].int64_list.value[0], pixels, label))
    return sorted(out, key=lambda e: (e[1], e[0]))


def window_read(testdata, x, y, size, bounds=(300, 200)):
    """rasterio's read of red and nir over the chip (clipped to the raster's window), as float32 HWC with NaN for
    nodata and for pixels beyond the window."""
    s2 = testdata / "raster" / "sentinel2-l2a"
    out = np.full((size, size, 2), np.nan, dtype=np.float32)
    w, h = min(size, bounds[0] - x), min(size, bounds[1] - y)
    for c, name in enumerate(("B04.tif", "B08.tif")):
        with rasterio.open(s2 / name) as src:
            dn = src.read(1, window=rasterio.windows.Window(x, y, w, h)).astype(np.float64)
            v = dn * 1e-4
            v[dn == src.nodata] = np.nan
        out[:h, :w, c] = v.astype(np.float32)
    return out


def test_chips_decode_to_rasterios_windowed_read(run, testdata, tmp_path, pb):
    got = examples(pb, chips_run(run, tmp_path, testdata, "{size: 64, stride: 48}"))
    # Origins every 48 pixels with a whole 64-pixel chip inside 300 × 200: x 0..192 (5), y 0..96 (3).
    assert [(x, y) for x, y, _, _ in got] == [(x, y) for y in range(0, 97, 48) for x in range(0, 193, 48)]
    for x, y, pixels, _ in got:
        np.testing.assert_array_equal(pixels, window_read(testdata, x, y, 64))


def test_partial_chips_are_padded_with_nodata(run, testdata, tmp_path, pb):
    got = examples(pb, chips_run(run, tmp_path, testdata, "{size: 128, partial: pad}"))
    assert [(x, y) for x, y, _, _ in got] == [(0, 0), (128, 0), (256, 0), (0, 128), (128, 128), (256, 128)]
    for x, y, pixels, _ in got:
        np.testing.assert_array_equal(pixels, window_read(testdata, x, y, 128))
    assert np.isnan(got[-1][2][72:, :, :]).all() and np.isnan(got[-1][2][:, 44:, :]).all()


def test_chips_above_the_nodata_fraction_are_skipped(run, testdata, tmp_path, pb):
    with_all = examples(pb, chips_run(run, tmp_path, testdata, "{size: 128, stride: 64, partial: pad}"))
    fractions = {(x, y): float(np.isnan(p).mean()) for x, y, p, _ in with_all}
    assert any(f > 0.5 for f in fractions.values()) and any(f < 0.5 for f in fractions.values())
    (tmp_path / "chips").rename(tmp_path / "all")
    kept = examples(pb, chips_run(run, tmp_path, testdata, "{size: 128, stride: 64, partial: pad, max_nodata: 0.5}"))
    assert [(x, y) for x, y, _, _ in kept] == [k for k, f in sorted(fractions.items(), key=lambda i: (i[0][1], i[0][0]))
                                               if f <= 0.5]


def test_a_label_raster_is_sampled_at_the_chip_center(run, testdata, tmp_path, pb):
    s2 = testdata / "raster" / "sentinel2-l2a"
    extra = f"- read_raster: {{datasets: {{label: red}}, window: [0, 0, 300, 200], output: labels}}"
    files = chips_run(run, tmp_path, testdata, "{size: 50, label_raster: labels}", extra=extra)
    got = examples(pb, files)
    assert len(got) == 6 * 4
    with rasterio.open(s2 / "B04.tif") as src:
        dn = src.read(1, window=rasterio.windows.Window(0, 0, 300, 200))
    for x, y, _, label in got:
        assert label == np.float32(dn[y + 25, x + 25])


def red_chips_run(run, tmp_path, testdata, steps):
    """read_raster (the Sentinel-2 red band as red) -> `steps` -> write as TFRecord; the finished process."""
    s2 = testdata / "raster" / "sentinel2-l2a"
    (tmp_path / "scenes.jsonl").write_text(json.dumps({"red": str(s2 / "B04.tif")}) + "\n")
    (tmp_path / "p.yaml").write_text(f"""
steps:
  - read: {{path: {tmp_path / 'scenes.jsonl'}, format: jsonl}}
  - read_raster: {{datasets: {{red: red}}, window: [0, 0, 300, 200]}}
  {steps}
  - write: {{path: {tmp_path / 'chips'}, format: tfrecord}}
""")
    return run("run", tmp_path / "p.yaml", "--quiet")


def test_a_label_raster_on_another_grid_is_a_row_error(run, testdata, tmp_path):
    result = red_chips_run(run, tmp_path, testdata, """- read_raster: {datasets: {label: red}, window: [1, 0, 300, 200], output: labels}
  - chips: {size: 50, label_raster: labels}""")
    assert result.returncode != 0
    assert "the label raster is on another grid than the raster" in result.stderr
    assert str(testdata / "raster" / "sentinel2-l2a" / "B04.tif") in result.stderr


@pytest.mark.parametrize("chips, message", [
    ("{size: 0}", "size must be 1..16384 pixels"),
    ("{size: 64, partial: keep}", "must be drop or pad"),
    ("{size: 64, max_nodata: 2}", "is a fraction, 0..1"),
    # 12 chips of 64 × 64 × 1 float32 (16 KiB each): more than 100 000 bytes for the row.
    ("{size: 64, max_bytes: 100000}", "more than max_bytes (100000)"),
])
def test_bad_chip_options_and_too_many_chip_bytes_are_refused(run, testdata, tmp_path, chips, message):
    result = red_chips_run(run, tmp_path, testdata, f"- chips: {chips}")
    assert result.returncode != 0
    assert message in result.stderr
    assert not (tmp_path / "chips").exists()


def test_chips_through_to_example_decode_to_rasterios_windowed_read(run, testdata, tmp_path, pb):
    """chips -> to_example {tensor: pixels}: image/encoded holds the raw float32 HWC bytes, image/shape its shape,
    image/label the label raster's value; what python3-protobuf decodes equals rasterio's windowed read."""
    s2 = testdata / "raster" / "sentinel2-l2a"
    files = chips_run(run, tmp_path, testdata, "{size: 64, stride: 48, label_raster: labels}",
                      extra="- read_raster: {datasets: {label: red}, window: [0, 0, 300, 200], output: labels}",
                      to_example="{tensor: pixels, label: label, extra: [scene_id, chip_x, chip_y]}")
    got = []
    for f in features(pb, files):
        assert sorted(f.keys()) == ["chip_x", "chip_y", "image/channels", "image/dtype", "image/encoded",
                                    "image/format", "image/height", "image/label", "image/shape", "image/width",
                                    "scene_id"]
        assert f["image/format"].bytes_list.value == [b"raw"] and f["image/dtype"].bytes_list.value == [b"float32"]
        shape = tuple(f["image/shape"].int64_list.value)
        assert shape == (f["image/height"].int64_list.value[0], f["image/width"].int64_list.value[0],
                         f["image/channels"].int64_list.value[0]) == (64, 64, 2)
        pixels = np.frombuffer(f["image/encoded"].bytes_list.value[0], dtype="<f4").reshape(shape)
        got.append((f["chip_x"].int64_list.value[0], f["chip_y"].int64_list.value[0], pixels,
                    f["image/label"].float_list.value[0]))
    got.sort(key=lambda e: (e[1], e[0]))
    assert [(x, y) for x, y, _, _ in got] == [(x, y) for y in range(0, 97, 48) for x in range(0, 193, 48)]
    with rasterio.open(s2 / "B04.tif") as src:
        dn = src.read(1, window=rasterio.windows.Window(0, 0, 300, 200))
    for x, y, pixels, label in got:
        np.testing.assert_array_equal(pixels, window_read(testdata, x, y, 64))
        assert label == np.float32(dn[y + 32, x + 32])


def test_a_tensor_whose_bytes_do_not_match_its_shape_fails_naming_the_row(run, tmp_path):
    rows = [{"pixels": "abcd", "height": 1, "width": 1, "channels": 1},
            {"pixels": "abcdefg", "height": 1, "width": 2, "channels": 1}]
    (tmp_path / "t.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "p.yaml").write_text(f"""
steps:
  - read: {{path: {tmp_path / 't.jsonl'}, format: jsonl}}
  - to_example: {{tensor: pixels}}
  - write: {{path: {tmp_path / 'out'}, format: tfrecord}}
""")
    result = run("run", tmp_path / "p.yaml", "--quiet")
    assert result.returncode != 0
    assert "tensor 'pixels' holds 7 bytes, not height × width × channels (1 × 2 × 1) float32 values" in result.stderr
    assert "t.jsonl" in result.stderr and "record 1" in result.stderr
