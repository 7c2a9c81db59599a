"""The raster_stats step through `recflow run` against NumPy on rasterio's read with nodata masked: the shared
Sentinel-2 L2A bands (reflectance), Landsat 8 (scale and offset per row), a computed band (NDVI), a window of an
overview; the same rows whatever the thread count."""
import json

import numpy as np
import pytest

from test_raster import reflectance as values

rasterio = pytest.importorskip("rasterio")


def stats_run(run, tmp_path, rows, read_args, extra="", threads=2):
    (tmp_path / "scenes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / f"stats-{threads}"
    (tmp_path / "p.yaml").write_text(f"""
steps:
  - read: {{path: {tmp_path / 'scenes.jsonl'}, format: jsonl}}
  - read_raster: {read_args}
  {extra}
  - raster_stats: {{}}
  - select: [scene_id, band, valid_count, min, max, mean, std]
  - write: {{path: {out}, format: jsonl}}
""")
    result = run("run", tmp_path / "p.yaml", "--threads", str(threads), "--quiet")
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in (out / "part-00000-of-00001.jsonl").read_text().splitlines()]


def assert_stats(row, want):
    valid = want[~np.isnan(want)]
    assert row["valid_count"] == valid.size
    assert row["min"] == valid.min() and row["max"] == valid.max()
    assert row["mean"] == pytest.approx(valid.mean(), rel=1e-12)
    assert row["std"] == pytest.approx(valid.std(), rel=1e-10)


def test_every_band_of_sentinel2_and_landsat_scenes_against_numpy(run, testdata, tmp_path):
    s2 = testdata / "raster" / "sentinel2-l2a"
    l8 = testdata / "raster" / "landsat8-c2l2"
    rows = [
        {"scene_id": "s2", "blue": str(s2 / "B02.tif"), "red": str(s2 / "B04.tif"), "nir": str(s2 / "B08.tif"),
         "scale": 1e-4, "offset": 0.0},
        {"scene_id": "l8", "blue": str(l8 / "SR_B2.TIF"), "red": str(l8 / "SR_B4.TIF"), "nir": str(l8 / "SR_B5.TIF"),
         "scale": 2.75e-5, "offset": -0.2},
    ]
    got = stats_run(run, tmp_path, rows,
                    "{datasets: {blue: blue, red: red, nir: nir}, scale_column: scale, offset_column: offset}")
    assert [(r["scene_id"], r["band"]) for r in got] == [(s, b) for s in ("s2", "l8") for b in ("blue", "red", "nir")]
    for row in got:
        scene = next(r for r in rows if r["scene_id"] == row["scene_id"])
        assert_stats(row, values(scene[row["band"]], scene["scale"], scene["offset"]))
    # Exact and merged in tile order: one thread gives the same numbers to the last bit.
    assert stats_run(run, tmp_path, rows, "{datasets: {blue: blue, red: red, nir: nir}, scale_column: scale, "
                                          "offset_column: offset}", threads=1) == got


def test_a_computed_band_on_a_window_of_an_overview(run, testdata, tmp_path):
    s2 = testdata / "raster" / "sentinel2-l2a"
    rows = [{"scene_id": "s2", "red": str(s2 / "B04.tif"), "nir": str(s2 / "B08.tif")}]
    got = stats_run(run, tmp_path, rows, "{datasets: {red: red, nir: nir}, scale: 0.0001, overview: 0, "
                                         "window: [50, 60, 400, 300]}", extra="- ndvi: {output: raster}")
    assert len(got) == 1 and got[0]["band"] == "(nir - red) / (nir + red)"
    window = rasterio.windows.Window(50, 60, 400, 300)
    red = values(s2 / "B04.tif", 1e-4, 0, overview=0, window=window)
    nir = values(s2 / "B08.tif", 1e-4, 0, overview=0, window=window)
    assert_stats(got[0], (nir - red) / (nir + red))


def test_a_raster_with_no_valid_value_has_nan_statistics(run, testdata, tmp_path):
    s2 = testdata / "raster" / "sentinel2-l2a"
    rows = [{"scene_id": "s2", "red": str(s2 / "B04.tif")}]
    # Every DN declared nodata through a band_math that divides by zero: NaN everywhere.
    got = stats_run(run, tmp_path, rows, "{datasets: {red: red}, window: [0, 0, 64, 64]}",
                    extra="- band_math: {expression: 'red * 0 / 0', output: raster}")
    assert got[0]["valid_count"] == 0
    # recflow writes a NaN double as JSON Lines "NaN".
    assert all(got[0][k] == "NaN" for k in ("min", "max", "mean", "std"))
