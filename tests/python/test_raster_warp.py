"""The warp step through `recflow run` against gdalwarp (gdal-bin) on the shared Sentinel-2 L2A and Landsat 8 bands:
the same grid, equal pixels for nearest, resampled pixels within a stated tolerance; like: another raster's grid; nodata
carried; expressions over warped bands; refused options and rasters."""
import json
import subprocess

import numpy as np
import pytest

rasterio = pytest.importorskip("rasterio")


def warp_run(run, tmp_path, testdata, warp, extra_steps="", bands=None, read_args=""):
    """read_raster (Sentinel-2 B04 as red, B08 as nir, DN) -> steps -> write_raster (uncompressed float32 GeoTIFF)."""
    s2 = testdata / "raster" / "sentinel2-l2a"
    bands = bands or {"red": str(s2 / "B04.tif")}
    (tmp_path / "scenes.jsonl").write_text(json.dumps({"scene_id": "s2", **bands}) + "\n")
    datasets = ", ".join(f"{k}: {k}" for k in bands)
    (tmp_path / "p.yaml").write_text(f"""
steps:
  - read: {{path: {tmp_path / 'scenes.jsonl'}, format: jsonl}}
  - read_raster: {{datasets: {{{datasets}}}{read_args}}}
  {extra_steps}
  - warp: {warp}
  - text_template: {{output: path, template: "{{scene_id}}.tif"}}
  - write_raster: {{dir: {tmp_path / 'out'}, format: gtiff, compress: none, overviews: false}}
  - write: {{path: {tmp_path / 'stats'}, format: jsonl}}
""")
    return run("run", tmp_path / "p.yaml", "--quiet")


def gdalwarp(tmp_path, source, *args, t_srs=None, ovr=None):
    """gdalwarp's output of `source` with `args` as (values with nodata as NaN, profile), with warp's fixed options:
    exact transformation (-et 0) and the kernel's scale for the whole grid (-wo XSCALE/YSCALE: the source's own
    resolution in the target CRS, gdalwarp's suggestion, over the target's)."""
    out = tmp_path / "gdalwarp.tif"
    out.unlink(missing_ok=True)
    level = ["-ovr", str(ovr)] if ovr is not None else []
    srs = ["-t_srs", t_srs] if t_srs else []
    grid, natural = tmp_path / "grid.vrt", tmp_path / "natural.vrt"
    # The target grid and the natural one as warped VRTs: computed, no pixel warped.
    for vrt, options in ((grid, args), (natural, ())):
        vrt.unlink(missing_ok=True)
        subprocess.run(["gdalwarp", "-q", "-of", "VRT", *srs, *level, *map(str, options), str(source), str(vrt)],
                       check=True)
    with rasterio.open(grid) as target, rasterio.open(natural) as ds:
        scale = (abs(ds.transform.a / target.transform.a), abs(ds.transform.e / target.transform.e))
    subprocess.run(["gdalwarp", "-q", "-of", "GTiff", "-et", "0", "-wo", f"XSCALE={scale[0]!r}", "-wo",
                    f"YSCALE={scale[1]!r}", *srs, *level, *map(str, args), str(source), str(out)], check=True)
    with rasterio.open(out) as ds:
        values = ds.read(1).astype(np.float64)
        if ds.nodata is not None:
            values[values == ds.nodata] = np.nan
        return values, ds.profile


def ours(tmp_path):
    with rasterio.open(tmp_path / "out" / "s2.tif") as ds:
        return ds.read(1).astype(np.float64), ds.profile


def assert_same_grid(got, want):
    assert (got["width"], got["height"]) == (want["width"], want["height"])
    assert got["crs"] == want["crs"]
    assert got["transform"].almost_equals(want["transform"], precision=1e-9)


def test_nearest_to_wgs84_is_gdalwarp_pixel_for_pixel(run, testdata, tmp_path):
    result = warp_run(run, tmp_path, testdata, "{crs: 'EPSG:4326'}")
    assert result.returncode == 0, result.stderr
    got, got_profile = ours(tmp_path)
    want, want_profile = gdalwarp(tmp_path, testdata / "raster/sentinel2-l2a/B04.tif", t_srs="EPSG:4326")
    assert_same_grid(got_profile, want_profile)
    # Nodata (0 in the source) is carried: outside the scene and its own nodata are NaN in both.
    assert np.isnan(want).any() and np.isfinite(want).any()
    np.testing.assert_array_equal(got, want)
    stats = json.loads((tmp_path / "stats" / "part-00000-of-00001.jsonl").read_text())
    assert stats["valid_count"] == int(np.count_nonzero(~np.isnan(want)))


# Resampled pixels: the warped VRT runs GDAL's warper per 512 × 128 block, gdalwarp per chunk of its memory
# limit; with one kernel scale for the grid and exact transformation they agree pixel for pixel.
@pytest.mark.parametrize("resampling", ["bilinear", "cubic", "average"])
def test_resampling_to_web_mercator_is_gdalwarp_pixel_for_pixel(run, testdata, tmp_path, resampling):
    warp = f"{{crs: 'EPSG:3857', resolution: [150, 150], resampling: {resampling}}}"
    result = warp_run(run, tmp_path, testdata, warp)
    assert result.returncode == 0, result.stderr
    got, got_profile = ours(tmp_path)
    want, want_profile = gdalwarp(tmp_path, testdata / "raster/sentinel2-l2a/B04.tif", "-tr", 150, 150, "-r", resampling, t_srs="EPSG:3857")
    assert_same_grid(got_profile, want_profile)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    valid = ~np.isnan(want)
    assert valid.sum() > 100_000
    np.testing.assert_array_equal(got, want)


def test_extent_and_resolution_in_the_source_crs(run, testdata, tmp_path):
    extent = [230000, 2750000, 260000, 2780000]
    warp = f"{{resolution: 30, extent: {extent}, resampling: nearest}}"
    result = warp_run(run, tmp_path, testdata, warp)
    assert result.returncode == 0, result.stderr
    got, got_profile = ours(tmp_path)
    want, want_profile = gdalwarp(tmp_path, testdata / "raster/sentinel2-l2a/B04.tif", "-tr", 30, 30, "-te", *extent)
    assert (got_profile["width"], got_profile["height"]) == (1000, 1000)
    assert_same_grid(got_profile, want_profile)
    np.testing.assert_array_equal(got, want)


def test_like_puts_a_band_on_another_rasters_grid_and_expressions_run_on_warped_bands(run, testdata, tmp_path):
    s2 = testdata / "raster" / "sentinel2-l2a"
    # NIR read at its first overview (200 m), warped bilinear onto red's full 100 m grid (a window of it), then NDVI.
    (tmp_path / "scenes.jsonl").write_text(json.dumps({"scene_id": "s2", "red": str(s2 / "B04.tif"),
                                                       "nir": str(s2 / "B08.tif")}) + "\n")
    (tmp_path / "p.yaml").write_text(f"""
steps:
  - read: {{path: {tmp_path / 'scenes.jsonl'}, format: jsonl}}
  - read_raster: {{datasets: {{red: red}}, window: [100, 200, 300, 250], output: grid}}
  - read_raster: {{datasets: {{nir: nir}}, overview: 0, output: raster}}
  - warp: {{like: grid, resampling: bilinear}}
  - text_template: {{output: path, template: "{{scene_id}}.tif"}}
  - write_raster: {{dir: {tmp_path / 'out'}, format: gtiff, compress: none, overviews: false}}
  - write: {{path: {tmp_path / 'stats'}, format: jsonl}}
""")
    result = run("run", tmp_path / "p.yaml", "--quiet")
    assert result.returncode == 0, result.stderr
    got, got_profile = ours(tmp_path)
    with rasterio.open(s2 / "B04.tif") as red:
        window = rasterio.windows.Window(100, 200, 300, 250)
        transform = red.window_transform(window)
        bounds = rasterio.windows.bounds(window, red.transform)
    want, want_profile = gdalwarp(tmp_path, s2 / "B08.tif", "-r", "bilinear", "-te", *bounds, "-ts", 300, 250,
                                  ovr=0)
    assert got_profile["transform"].almost_equals(transform, precision=1e-6)
    assert_same_grid(got_profile, want_profile)
    np.testing.assert_array_equal(got, want)


def test_an_expression_is_computed_over_the_warped_bands(run, testdata, tmp_path):
    s2 = testdata / "raster" / "sentinel2-l2a"
    bands = {"red": str(s2 / "B04.tif"), "nir": str(s2 / "B08.tif")}
    result = warp_run(run, tmp_path, testdata, "{crs: 'EPSG:4326'}", extra_steps="- ndvi: {output: raster}",
                      bands=bands, read_args=", scale: 0.0001")
    assert result.returncode == 0, result.stderr
    got, _ = ours(tmp_path)
    red, _ = gdalwarp(tmp_path, s2 / "B04.tif", t_srs="EPSG:4326")
    nir, _ = gdalwarp(tmp_path, s2 / "B08.tif", t_srs="EPSG:4326")
    red, nir = red * 1e-4, nir * 1e-4
    want = ((nir - red) / (nir + red)).astype(np.float32)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.max(np.abs(got[~np.isnan(want)] - want[~np.isnan(want)])) <= 1e-6


def test_landsat_warped_to_web_mercator_carries_scale_and_offset(run, testdata, tmp_path):
    """Landsat (EPSG:32620, nodata 0, scaled DN) into Web Mercator: reflectance carried through scale and offset."""
    l8 = testdata / "raster" / "landsat8-c2l2"
    result = warp_run(run, tmp_path, testdata, "{crs: 'EPSG:3857', resolution: 500}",
                      bands={"red": str(l8 / "SR_B4.TIF")}, read_args=", scale: 2.75e-5, offset: -0.2")
    assert result.returncode == 0, result.stderr
    got, got_profile = ours(tmp_path)
    want, want_profile = gdalwarp(tmp_path, l8 / "SR_B4.TIF", "-tr", 500, 500, t_srs="EPSG:3857")
    assert_same_grid(got_profile, want_profile)
    want = (want * 2.75e-5 - 0.2).astype(np.float32)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.isfinite(want).any()
    np.testing.assert_allclose(got[np.isfinite(want)], want[np.isfinite(want)], rtol=0, atol=1e-6)


@pytest.mark.parametrize("warp, message", [
    ("{crs: 'EPSG:999999'}", "is not a CRS GDAL knows"),
    ("{crs: 'EPSG:4326', resampling: lanczos}", "is not nearest, bilinear, cubic or average"),
    ("{resolution: -10}", "resolution must be positive"),
    ("{extent: [10, 10, 0, 20]}", "max > min"),
    ("{like: nope}", "step 'warp', like: no column 'nope' in "),
    ("{like: raster, crs: 'EPSG:4326'}", "takes the whole grid"),
])
def test_bad_warp_options_are_refused_when_the_pipeline_is_built(run, testdata, tmp_path, warp, message):
    result = warp_run(run, tmp_path, testdata, warp)
    assert result.returncode != 0
    assert message in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_raster_without_a_crs_is_a_row_error_naming_its_file(run, testdata, tmp_path):
    plain = tmp_path / "nocrs.tif"
    with rasterio.open(testdata / "raster/sentinel2-l2a/B04.tif") as src:
        profile, values = src.profile, src.read()
    profile.update(crs=None)
    with rasterio.open(plain, "w", **profile) as dst:
        dst.write(values)
    result = warp_run(run, tmp_path, testdata, "{crs: 'EPSG:4326'}", bands={"red": str(plain)},
                      read_args=", allow_missing_crs: true")
    assert result.returncode != 0
    assert "warp needs the raster's CRS" in result.stderr
    assert str(plain) in result.stderr


def test_a_block_that_cannot_be_read_through_a_warp_names_the_source_file_not_the_vrt(run, testdata, tmp_path):
    """The warped band's dataset is GDAL's VRT XML: the error names the file the VRT reads."""
    data = (testdata / "raster/sentinel2-l2a/B04.tif").read_bytes()
    cut = tmp_path / "B04-cut.tif"
    cut.write_bytes(data[: len(data) // 2])
    result = warp_run(run, tmp_path, testdata, "{crs: 'EPSG:4326'}", bands={"red": str(cut)})
    assert result.returncode != 0
    assert f"cannot read band 1 ('red') (read through a VRT of {cut}), block 0,0 " in result.stderr, result.stderr
    assert "VRTDataset" not in result.stderr, result.stderr


def test_a_grid_over_max_pixels_is_refused_before_anything_is_read(run, testdata, tmp_path):
    result = warp_run(run, tmp_path, testdata, "{resolution: 0.001, max_pixels: 1000000}")
    assert result.returncode != 0
    assert "more than max_pixels (1000000)" in result.stderr
