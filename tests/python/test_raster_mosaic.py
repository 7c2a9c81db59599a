"""The mosaic step through `recflow run`: two overlapping crops of the shared Sentinel-2 red band (gdal_translate
-srcwin, one with a nodata hole in the overlap) grouped by tile and merged, against NumPy on rasterio's read of the
whole band: the union grid, the first / last valid value per pixel, nodata never over valid data; the largest /
smallest value per pixel and the bands of the scene of largest NDVI (with a noisy third scene), the same bytes on 1
and 2 threads; a crop in another CRS warped onto the grid; rasters that cannot be merged."""
import json
import subprocess

import numpy as np
import pytest

rasterio = pytest.importorskip("rasterio")

# Crops (x, y, width, height) of the 1098 × 1098 band: they overlap on x 400..600, y 300..500.
A = (0, 0, 600, 500)
B = (400, 300, 600, 600)
HOLE = (450, 400, 100, 100)  # x, y, width, height in the band's pixels, inside the overlap: nodata in A


def crops(testdata, tmp_path):
    band = testdata / "raster" / "sentinel2-l2a" / "B04.tif"
    paths = []
    for name, (x, y, w, h) in (("a", A), ("b", B)):
        path = tmp_path / f"{name}.tif"
        subprocess.run(["gdal_translate", "-q", "-srcwin", str(x), str(y), str(w), str(h), str(band), str(path)],
                       check=True)
        paths.append(path)
    with rasterio.open(paths[0], "r+") as a:
        values = a.read(1)
        hx, hy, hw, hh = HOLE
        values[hy:hy + hh, hx:hx + hw] = 0
        a.write(values, 1)
    return band, paths


def mosaic_run(run, tmp_path, rows, mosaic, *options):
    (tmp_path / "tiles.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "p.yaml").write_text(f"""
steps:
  - read: {{path: {tmp_path / 'tiles.jsonl'}, format: jsonl}}
  - read_raster: {{datasets: {{red: path}}}}
  - select: [tile, raster]
  - group_by_key: [tile]
  - mosaic: {mosaic}
  - text_template: {{output: path, template: "{{tile}}.tif"}}
  - write_raster: {{dir: {tmp_path / 'out'}, format: gtiff, compress: none, overviews: false}}
  - write: {{path: {tmp_path / 'stats'}, format: jsonl}}
""")
    return run("run", tmp_path / "p.yaml", "--quiet", *options)


def expected(band, rule):
    """The band's DN (NaN for nodata) over the union of A and B, each crop's pixels where it is valid."""
    with rasterio.open(band) as src:
        full = src.read(1).astype(np.float64)
    full[full == 0] = np.nan
    out = np.full((900, 1000), np.nan)
    a = np.full_like(out, np.nan)
    b = np.full_like(out, np.nan)
    a[A[1]:A[1] + A[3], A[0]:A[0] + A[2]] = full[A[1]:A[1] + A[3], A[0]:A[0] + A[2]]
    hx, hy, hw, hh = HOLE
    a[hy:hy + hh, hx:hx + hw] = np.nan
    b[B[1]:B[1] + B[3], B[0]:B[0] + B[2]] = full[B[1]:B[1] + B[3], B[0]:B[0] + B[2]]
    top, under = (a, b) if rule == "first" else (b, a)
    return np.where(np.isnan(top), under, top), a, b


@pytest.mark.parametrize("rule", ["first", "last"])
def test_two_overlapping_crops_merge_with_valid_data_over_nodata(run, testdata, tmp_path, rule):
    band, (a_path, b_path) = crops(testdata, tmp_path)
    rows = [{"tile": "t", "path": str(a_path)}, {"tile": "t", "path": str(b_path)}]
    result = mosaic_run(run, tmp_path, rows, f"{{rule: {rule}}}")
    assert result.returncode == 0, result.stderr
    want, a, b = expected(band, rule)
    with rasterio.open(tmp_path / "out" / "t.tif") as got, rasterio.open(band) as src:
        assert (got.width, got.height) == (1000, 900)
        assert got.transform == src.transform  # A starts at the band's origin
        assert got.crs == src.crs
        values = got.read(1).astype(np.float64)
    np.testing.assert_array_equal(values, want)
    # What the test is about: the overlap holds both crops, they differ nowhere (one scene), so the rule shows in the
    # hole (B's values under first and last alike) and in which crop's nodata is kept.
    hx, hy, hw, hh = HOLE
    assert np.isfinite(values[hy:hy + hh, hx:hx + hw]).all()
    np.testing.assert_array_equal(values[hy:hy + hh, hx:hx + hw], b[hy:hy + hh, hx:hx + hw])
    assert np.isnan(values[0:300, 600:1000]).all() and np.isnan(values[500:900, 0:400]).all()


def test_the_rule_picks_between_two_valid_values(run, testdata, tmp_path):
    """A second copy of crop B with every DN + 1: first keeps B's values in the overlap, last takes the copy's."""
    band, (_, b_path) = crops(testdata, tmp_path)
    plus = tmp_path / "b_plus.tif"
    with rasterio.open(b_path) as src:
        profile, values = src.profile, src.read(1)
    with rasterio.open(plus, "w", **profile) as dst:
        dst.write(np.where(values == 0, 0, values + 1).astype(values.dtype), 1)
    for rule, add in (("first", 0), ("last", 1)):
        out = tmp_path / rule
        out.mkdir()
        rows = [{"tile": "t", "path": str(b_path)}, {"tile": "t", "path": str(plus)}]
        result = mosaic_run(run, out, rows, f"{{rule: {rule}}}")
        assert result.returncode == 0, result.stderr
        with rasterio.open(out / "out" / "t.tif") as got:
            merged = got.read(1).astype(np.float64)
        want = np.where(values == 0, np.nan, values.astype(np.float64) + add)
        np.testing.assert_array_equal(merged, want)


def test_a_crop_in_another_crs_is_warped_onto_the_grid(run, testdata, tmp_path):
    band, (a_path, b_path) = crops(testdata, tmp_path)
    moved = tmp_path / "b_32628.tif"
    subprocess.run(["gdalwarp", "-q", "-t_srs", "EPSG:32628", "-r", "near", str(b_path), str(moved)], check=True)
    rows = [{"tile": "t", "path": str(a_path)}, {"tile": "t", "path": str(moved)}]
    result = mosaic_run(run, tmp_path, rows, "{rule: first}")
    assert result.returncode == 0, result.stderr
    want, a, _ = expected(band, "first")
    with rasterio.open(tmp_path / "out" / "t.tif") as got, rasterio.open(band) as src:
        assert got.crs == src.crs
        assert got.transform.a == src.transform.a and got.transform.e == src.transform.e
        # B's footprint in UTM 28N is turned by about 2.5 degrees: back in 29N its bounding box is wider than the crop.
        assert 1000 <= got.width <= 1040 and 900 <= got.height <= 940
        x0, y0 = ~got.transform * (src.transform.c, src.transform.f)
        values = got.read(1).astype(np.float64)
    x0, y0 = round(x0), round(y0)
    # A's crop is on the grid: its valid pixels are first, unchanged.
    region = values[y0:y0 + 500, x0:x0 + 600]
    np.testing.assert_array_equal(region[np.isfinite(a[0:500, 0:600])], a[0:500, 0:600][np.isfinite(a[0:500, 0:600])])
    # B's part beyond A holds B's warped values: nearest there and back lands on the band's own values mostly.
    beyond = values[y0 + 600:y0 + 850, x0 + 650:x0 + 950]
    truth = want[600:850, 650:950]
    assert np.isfinite(beyond).mean() > 0.99
    assert np.mean(beyond == truth) > 0.9


def test_rasters_that_cannot_merge_fail_the_row_naming_the_raster(run, testdata, tmp_path):
    band, (a_path, b_path) = crops(testdata, tmp_path)
    as_int16 = tmp_path / "b_int16.tif"
    subprocess.run(["gdal_translate", "-q", "-ot", "Int16", str(b_path), str(as_int16)], check=True)
    rows = [{"tile": "scale", "path": str(a_path), "scale": 1.0}, {"tile": "scale", "path": str(b_path), "scale": 1e-4},
            {"tile": "type", "path": str(a_path), "scale": 1.0}, {"tile": "type", "path": str(as_int16), "scale": 1.0}]
    (tmp_path / "tiles.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "p.yaml").write_text(f"""
steps:
  - read: {{path: {tmp_path / 'tiles.jsonl'}, format: jsonl}}
  - read_raster: {{datasets: {{red: path}}, scale_column: scale}}
  - select: [tile, raster]
  - group_by_key: [tile]
  - mosaic: {{rule: first}}
  - write: {{path: {tmp_path / 'stats'}, format: jsonl}}
""")
    result = run("run", tmp_path / "p.yaml", "--quiet")
    assert result.returncode != 0
    assert "mosaic: raster 1 band 'red' is stored or scaled differently from raster 0's" in result.stderr
    assert str(b_path) in result.stderr or str(as_int16) in result.stderr


@pytest.mark.parametrize("mosaic, message", [
    ("{rule: median}", "rule 'median' is not first, last, max, min or max_ndvi"),
    ("{rule: first, resampling: lanczos}", "is not nearest, bilinear, cubic or average"),
])
def test_bad_mosaic_options_are_refused_when_the_pipeline_is_built(run, testdata, tmp_path, mosaic, message):
    _, (a_path, b_path) = crops(testdata, tmp_path)
    result = mosaic_run(run, tmp_path, [{"tile": "t", "path": str(a_path)}], mosaic)
    assert result.returncode != 0
    assert message in result.stderr


def test_a_list_that_is_not_rasters_is_a_type_error(run, testdata, tmp_path):
    (tmp_path / "rows.jsonl").write_text(json.dumps({"tile": "t", "n": 1}) + "\n")
    (tmp_path / "p.yaml").write_text(f"""
steps:
  - read: {{path: {tmp_path / 'rows.jsonl'}, format: jsonl}}
  - group_by_key: [tile]
  - mosaic: {{column: n}}
  - write: {{path: {tmp_path / 'stats'}, format: jsonl}}
""")
    result = run("run", tmp_path / "p.yaml", "--quiet")
    assert result.returncode != 0
    assert "not a list of bytes" in result.stderr


def noisy_copy(path, out, seed):
    """`path` with every valid DN moved by -300..300 (kept >= 1) and 10 % of its pixels made nodata (0)."""
    rng = np.random.default_rng(seed)
    with rasterio.open(path) as src:
        profile, values = src.profile, src.read(1).astype(np.int64)
    moved = np.clip(values + rng.integers(-300, 301, values.shape), 1, 65535)
    moved = np.where((values == 0) | (rng.random(values.shape) < 0.1), 0, moved)
    with rasterio.open(out, "w", **profile) as dst:
        dst.write(moved.astype(np.uint16), 1)
    return out


def on_union(path, x, y):
    """The DN of a crop (NaN for nodata) placed at x, y of the 1000 × 900 union grid."""
    with rasterio.open(path) as src:
        values = src.read(1).astype(np.float64)
    values[values == 0] = np.nan
    out = np.full((900, 1000), np.nan)
    out[y:y + values.shape[0], x:x + values.shape[1]] = values
    return out


def run_on_1_and_2_threads(run, tmp_path, rows, mosaic):
    """The mosaic's file from a run on 1 thread and on 2: asserted byte-identical."""
    files = []
    for threads in (1, 2):
        out = tmp_path / f"threads{threads}"
        out.mkdir()
        result = mosaic_run(run, out, rows, mosaic, "--threads", threads)
        assert result.returncode == 0, result.stderr
        files.append(out / "out" / "t.tif")
    assert files[0].read_bytes() == files[1].read_bytes()
    return files[0]


@pytest.mark.parametrize("rule", ["max", "min"])
def test_max_and_min_take_the_largest_and_smallest_valid_value_per_pixel(run, testdata, tmp_path, rule):
    _, (a_path, b_path) = crops(testdata, tmp_path)
    c_path = noisy_copy(b_path, tmp_path / "c.tif", seed=16)
    rows = [{"tile": "t", "path": str(p)} for p in (a_path, b_path, c_path)]
    got_path = run_on_1_and_2_threads(run, tmp_path, rows, f"{{rule: {rule}}}")
    stack = np.stack([on_union(a_path, 0, 0), on_union(b_path, B[0], B[1]), on_union(c_path, B[0], B[1])])
    with np.errstate(all="ignore"):
        want = (np.fmax if rule == "max" else np.fmin).reduce(stack, axis=0)
    with rasterio.open(got_path) as got:
        assert (got.width, got.height) == (1000, 900)
        values = got.read(1).astype(np.float64)
    np.testing.assert_array_equal(values, want)
    # The noise shows: the third raster wins some overlap pixels and loses others.
    c = stack[2]
    assert 0.2 < np.mean(values[np.isfinite(c)] == c[np.isfinite(c)]) < 0.8


def test_max_ndvi_takes_every_band_of_the_scene_of_largest_ndvi(run, testdata, tmp_path):
    s2 = testdata / "raster" / "sentinel2-l2a"
    paths = {}
    for band in ("B04", "B08"):
        for name, (x, y, w, h) in (("a", A), ("b", B)):
            path = tmp_path / f"{name}_{band}.tif"
            subprocess.run(["gdal_translate", "-q", "-srcwin", str(x), str(y), str(w), str(h), str(s2 / f"{band}.tif"),
                            str(path)], check=True)
            paths[name, band] = path
    # A third scene on B's crop: the same red, a noisy NIR, so its NDVI beats B's on about half of the overlap.
    paths["c", "B04"] = paths["b", "B04"]
    paths["c", "B08"] = noisy_copy(paths["b", "B08"], tmp_path / "c_B08.tif", seed=17)
    rows = [{"tile": "t", "red": str(paths[s, "B04"]), "nir": str(paths[s, "B08"])} for s in ("a", "b", "c")]
    (tmp_path / "tiles.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    files = []
    for threads in (1, 2):
        out = tmp_path / f"threads{threads}"
        (tmp_path / "p.yaml").write_text(f"""
steps:
  - read: {{path: {tmp_path / 'tiles.jsonl'}, format: jsonl}}
  - read_raster: {{datasets: {{red: red, nir: nir}}}}
  - select: [tile, raster]
  - group_by_key: [tile]
  - mosaic: {{rule: max_ndvi}}
  - text_template: {{output: path, template: "{{tile}}.tif"}}
  - write_raster: {{dir: {out}, format: gtiff, compress: none, overviews: false}}
  - write: {{path: {out / 'stats'}, format: jsonl}}
""")
        result = run("run", tmp_path / "p.yaml", "--quiet", "--threads", threads)
        assert result.returncode == 0, result.stderr
        files.append(out / "t.tif")
    assert files[0].read_bytes() == files[1].read_bytes()
    places = {"a": (0, 0), "b": (B[0], B[1]), "c": (B[0], B[1])}
    red = np.stack([on_union(paths[s, "B04"], *places[s]) for s in "abc"])
    nir = np.stack([on_union(paths[s, "B08"], *places[s]) for s in "abc"])
    with np.errstate(all="ignore"):
        ndvi = (nir - red) / (nir + red)
    best = np.argmax(np.where(np.isnan(ndvi), -np.inf, ndvi), axis=0)  # the first of equal maxima, as the rule says
    none = np.isnan(ndvi).all(axis=0)
    rows_, cols = np.indices(best.shape)
    with rasterio.open(files[0]) as got:
        assert got.descriptions == ("red", "nir")
        got_red, got_nir = (got.read(i).astype(np.float64) for i in (1, 2))
    for got_band, stack in ((got_red, red), (got_nir, nir)):
        want = np.where(none, np.nan, stack[best, rows_, cols])
        np.testing.assert_array_equal(got_band, want)
    assert 0.3 < np.mean(best[300:500, 400:600] == 2) < 0.7


def test_max_of_a_computed_band_is_the_largest_computed_value(run, testdata, tmp_path):
    """NDVI rasters merged by max: the NDVI of the scene where it is largest, not the NDVI of the largest bands."""
    s2 = testdata / "raster" / "sentinel2-l2a"
    nir_c = noisy_copy(s2 / "B08.tif", tmp_path / "nir_c.tif", seed=18)
    rows = [{"tile": "t", "red": str(s2 / "B04.tif"), "nir": str(n)} for n in (s2 / "B08.tif", nir_c)]
    (tmp_path / "tiles.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "p.yaml").write_text(f"""
steps:
  - read: {{path: {tmp_path / 'tiles.jsonl'}, format: jsonl}}
  - read_raster: {{datasets: {{red: red, nir: nir}}, window: [100, 200, 300, 250]}}
  - ndvi: {{output: raster}}
  - select: [tile, raster]
  - group_by_key: [tile]
  - mosaic: {{rule: max}}
  - text_template: {{output: path, template: "{{tile}}.tif"}}
  - write_raster: {{dir: {tmp_path / 'out'}, format: gtiff, compress: none, overviews: false}}
  - write: {{path: {tmp_path / 'stats'}, format: jsonl}}
""")
    result = run("run", tmp_path / "p.yaml", "--quiet")
    assert result.returncode == 0, result.stderr
    window = (slice(200, 450), slice(100, 400))
    ndvis = []
    for nir_path in (s2 / "B08.tif", nir_c):
        with rasterio.open(s2 / "B04.tif") as r, rasterio.open(nir_path) as n:
            red, nir = (x.read(1).astype(np.float64)[window] for x in (r, n))
        red[red == 0] = np.nan
        nir[nir == 0] = np.nan
        ndvis.append((nir - red) / (nir + red))
    want = np.fmax(ndvis[0], ndvis[1]).astype(np.float32)
    with rasterio.open(tmp_path / "out" / "t.tif") as got:
        np.testing.assert_array_equal(got.read(1), want)


def test_max_ndvi_over_rasters_without_its_bands_fails_the_row_naming_the_dataset(run, testdata, tmp_path):
    _, (a_path, b_path) = crops(testdata, tmp_path)
    rows = [{"tile": "t", "path": str(a_path)}, {"tile": "t", "path": str(b_path)}]
    result = mosaic_run(run, tmp_path, rows, "{rule: max_ndvi, nir: b08}")
    assert result.returncode != 0
    assert "mosaic: cannot compute '(b08 - red) / (b08 + red)' over the rasters' bands" in result.stderr
    assert str(a_path) in result.stderr
