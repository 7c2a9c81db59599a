"""Raster steps through the CLI: the sentinel2-evi example and band_math/ndvi against rasterio + NumPy (Debian
python3-rasterio) on the shared Sentinel-2 L2A and Landsat 8 C2 L2 bands; COG layout by gdalinfo; hostile rasters."""
import json
import shutil
import socket
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from evi_rule import evi_numpy
from range_server_util import RangeServer
from tfrecord_util import read_tfrecord

rasterio = pytest.importorskip("rasterio")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "sentinel2-evi" / "pipeline.yaml"


def scenes(testdata):
    s2 = testdata / "raster" / "sentinel2-l2a"
    l8 = testdata / "raster" / "landsat8-c2l2"
    return [
        {"scene_id": "s2", "blue": str(s2 / "B02.tif"), "red": str(s2 / "B04.tif"), "nir": str(s2 / "B08.tif")},
        {"scene_id": "l8", "blue": str(l8 / "SR_B2.TIF"), "red": str(l8 / "SR_B4.TIF"), "nir": str(l8 / "SR_B5.TIF"),
         "red_band": 1, "scale": 2.75e-5, "offset": -0.2},
    ]


def reflectance(path, scale, offset, window=None, overview=None):
    """The band (at `overview`, when given) as float64 reflectance, NaN where it is nodata, read by rasterio."""
    with rasterio.open(path, **({"overview_level": overview} if overview is not None else {})) as src:
        dn = src.read(1, window=window).astype(np.float64)
        nodata = src.nodata
    value = dn * scale + offset
    if nodata is not None:
        value[dn == nodata] = np.nan
    return value


def assert_same_values(got, want):
    """Identical NaN and infinity masks; finite values within 1e-5."""
    assert got.shape == want.shape
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.array_equal(np.isposinf(got), np.isposinf(want))
    assert np.array_equal(np.isneginf(got), np.isneginf(want))
    finite = np.isfinite(want)
    assert finite.any()
    assert np.max(np.abs(got[finite].astype(np.float64) - want[finite].astype(np.float64))) <= 1e-5


def write_scenes(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def run_example(run, testdata, tmp_path):
    """The example on both scenes into tmp_path/out; the scenes and the output directory."""
    rows = scenes(testdata)
    write_scenes(tmp_path / "scenes.jsonl", rows)
    out = tmp_path / "out"
    result = run("run", EXAMPLE, "--set", f"scenes={tmp_path / 'scenes.jsonl'}", "--set", f"out={out}", "--quiet")
    assert result.returncode == 0, result.stderr
    return rows, out


def test_sentinel2_evi_example_matches_rasterio_and_numpy(run, testdata, tmp_path):
    rows, out = run_example(run, testdata, tmp_path)
    stats = {}
    for line in (out / "stats" / "part-00000-of-00001.jsonl").read_text().splitlines():
        row = json.loads(line)
        stats[row["scene_id"]] = row
    for scene in rows:
        scale, offset = scene.get("scale", 1e-4), scene.get("offset", 0.0)
        blue = reflectance(scene["blue"], scale, offset)
        red = reflectance(scene["red"], scale, offset)
        nir = reflectance(scene["nir"], scale, offset)
        want = evi_numpy(blue, red, nir)
        tif = out / f"{scene['scene_id']}.tif"
        with rasterio.open(tif) as got, rasterio.open(scene["red"]) as grid:
            assert got.dtypes == ("float32",)
            assert got.transform == grid.transform
            assert got.crs == grid.crs
            assert np.isnan(got.nodata)
            values = got.read(1)
        assert_same_values(values, want)
        assert not np.isinf(values).any()
        if scene["scene_id"] == "l8":  # the rule at work: cloud pixels whose EVI was ±inf or ±1e13 before it
            with np.errstate(divide="ignore", invalid="ignore"):
                plain = 2.5 * (nir - red) / (nir + 6 * red - 7.5 * blue + 1)
            assert np.isinf(plain).any() and (np.abs(plain) > 1e12).sum() >= 2
            assert np.count_nonzero(~np.isnan(plain)) - np.count_nonzero(~np.isnan(want)) > 10000
        # The statistics are finite floats (no Infinity string), NumPy's over the valid pixels.
        valid = want[~np.isnan(want)].astype(np.float64)
        row = stats[scene["scene_id"]]
        assert row["valid_count"] == valid.size > 0
        assert all(isinstance(row[k], float) and np.isfinite(row[k]) for k in ("min", "max", "mean")), row
        assert (row["min"], row["max"]) == (valid.min(), valid.max())
        assert row["mean"] == pytest.approx(valid.mean(), rel=1e-12)
        assert -1 <= row["min"] <= row["max"] <= 1
        info = subprocess.run(["gdalinfo", str(tif)], capture_output=True, text=True, check=True).stdout
        assert "LAYOUT=COG" in info
        # GDAL's COG driver adds overviews down to one 512-pixel tile: Landsat's 379 × 386 needs none.
        assert ("Overviews:" in info) == (values.shape[1] > 512)
    # Nothing but the rasters, the stats and the chips datasets: no staged or intermediate files.
    assert sorted(p.name for p in out.iterdir()) == ["chips", "l8.tif", "s2.tif", "stats"]


def test_the_examples_chips_decode_to_rasterios_windowed_reads(run, testdata, tmp_path, pb):
    """The example's chips branch: 256-pixel chips of blue, red and NIR reflectance as tf.Examples (to_example's
    tensor layout), decoded with python3-protobuf, equal to rasterio's windowed reads scaled as the example does."""
    rows, out = run_example(run, testdata, tmp_path)
    chips = {}
    for path in sorted((out / "chips").glob("part-*")):
        for record in read_tfrecord(path):
            ex = pb.Example()
            ex.ParseFromString(record)
            f = ex.features.feature
            assert f["image/format"].bytes_list.value == [b"raw"] and f["image/dtype"].bytes_list.value == [b"float32"]
            shape = tuple(f["image/shape"].int64_list.value)
            key = (f["scene_id"].bytes_list.value[0].decode(), f["chip_x"].int64_list.value[0],
                   f["chip_y"].int64_list.value[0])
            chips[key] = np.frombuffer(f["image/encoded"].bytes_list.value[0], dtype="<f4").reshape(shape)
    # Sentinel-2's 1098 × 1098 bands hold 4 × 4 whole chips, Landsat's 379 × 386 one.
    assert sorted(chips) == sorted([("s2", x, y) for y in range(0, 769, 256) for x in range(0, 769, 256)] +
                                   [("l8", 0, 0)])
    for scene in rows:
        scale, offset = scene.get("scale", 1e-4), scene.get("offset", 0.0)
        for (scene_id, x, y), got in chips.items():
            if scene_id != scene["scene_id"]:
                continue
            window = rasterio.windows.Window(x, y, 256, 256)
            want = np.stack([reflectance(scene[b], scale, offset, window=window) for b in ("blue", "red", "nir")],
                            axis=-1).astype(np.float32)
            np.testing.assert_array_equal(got, want)


def test_band_math_and_ndvi_on_a_window_of_an_overview(run, testdata, tmp_path):
    s2 = testdata / "raster" / "sentinel2-l2a"
    write_scenes(tmp_path / "scenes.jsonl", [{"scene_id": "a", "red": str(s2 / "B04.tif"), "nir": str(s2 / "B08.tif")}])
    (tmp_path / "p.yaml").write_text(f"""
steps:
  - read: {{path: {tmp_path / 'scenes.jsonl'}, format: jsonl}}
  - read_raster: {{datasets: {{red: red, nir: nir}}, scale: 0.0001, overview: 0, window: [100, 50, 300, 200]}}
  - ndvi: {{output: ndvi}}
  - band_math: {{column: raster, output: ratio, expression: "max(nir, red) / (abs(red - nir) + 0.5)"}}
  - text_template: {{output: p1, template: "{{scene_id}}-ndvi.tif"}}
  - text_template: {{output: p2, template: "{{scene_id}}-ratio.tif"}}
  - write_raster: {{column: ndvi, dir: {tmp_path / 'out'}, path: p1, format: gtiff, compress: zstd, block_size: 128}}
  - write_raster: {{column: ratio, dir: {tmp_path / 'out'}, path: p2, format: cog, compress: zstd, overviews: false}}
  - select: [scene_id, valid_count]
  - write: {{path: {tmp_path / 'stats'}, format: jsonl}}
""")
    result = run("run", tmp_path / "p.yaml", "--quiet")
    assert result.returncode == 0, result.stderr
    with rasterio.open(s2 / "B04.tif") as src:
        overview = src.overviews(1)[0]
    window = rasterio.windows.Window(100, 50, 300, 200)

    def level(path):
        with rasterio.open(path, overview_level=0) as src:
            return src.read(1, window=window).astype(np.float64), src.nodata, src.window_transform(window), src.crs

    red, nodata, transform, crs = level(s2 / "B04.tif")
    nir, _, _, _ = level(s2 / "B08.tif")
    mask = (red == nodata) | (nir == nodata)
    red, nir = red * 1e-4, nir * 1e-4
    red[mask] = np.nan
    nir[mask] = np.nan
    with np.errstate(divide="ignore", invalid="ignore"):
        ndvi = ((nir - red) / (nir + red)).astype(np.float32)
        ratio = (np.maximum(nir, red) / (np.abs(red - nir) + 0.5)).astype(np.float32)
    with rasterio.open(tmp_path / "out" / "a-ndvi.tif") as got:
        assert got.profile["blockxsize"] == 128 and got.compression.name == "zstd"
        assert got.transform == transform and got.crs == crs
        assert got.width == 300 and got.height == 200 and overview == 2
        assert_same_values(got.read(1), ndvi)
    with rasterio.open(tmp_path / "out" / "a-ratio.tif") as got:
        assert got.overviews(1) == []
        assert_same_values(got.read(1), ratio)


def test_a_truncated_band_fails_naming_it_and_leaves_no_file(run, testdata, tmp_path):
    s2 = testdata / "raster" / "sentinel2-l2a"
    cut = tmp_path / "B08-cut.tif"
    data = (s2 / "B08.tif").read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    write_scenes(tmp_path / "scenes.jsonl", [{"scene_id": "cut", "blue": str(s2 / "B02.tif"),
                                              "red": str(s2 / "B04.tif"), "nir": str(cut)}])
    out = tmp_path / "out"
    result = run("run", EXAMPLE, "--set", f"scenes={tmp_path / 'scenes.jsonl'}", "--set", f"out={out}", "--quiet")
    assert result.returncode == 1
    assert str(cut) in result.stderr and "band 1 ('nir'), block 0,0 " in result.stderr, result.stderr
    assert ") at byte offset " in result.stderr, result.stderr
    assert not out.exists() or list(out.rglob("*.tif*")) == []


def test_an_unknown_band_name_in_an_expression_names_the_row(run, testdata, tmp_path):
    s2 = testdata / "raster" / "sentinel2-l2a"
    write_scenes(tmp_path / "scenes.jsonl", [{"red": str(s2 / "B04.tif")}])
    (tmp_path / "p.yaml").write_text(f"""
steps:
  - read: {{path: {tmp_path / 'scenes.jsonl'}, format: jsonl}}
  - read_raster: {{datasets: {{red: red}}}}
  - band_math: "red * swir"
  - write: {{path: {tmp_path / 'out'}, format: jsonl}}
""")
    result = run("run", tmp_path / "p.yaml", "--quiet")
    assert result.returncode == 1
    assert "record 0" in result.stderr and "no band 'swir' (bands: red)" in result.stderr, result.stderr


@pytest.mark.parametrize("band", ["sentinel2-l2a/B04.tif", "landsat8-c2l2/SR_B5.TIF"])
def test_inspect_describes_a_raster_as_rasterio_sees_it(run, testdata, band):
    path = testdata / "raster" / band
    result = run("inspect", "--json", path)
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout)
    with rasterio.open(path) as src:
        assert (got["width"], got["height"]) == (src.width, src.height)
        assert got["crs"] == f"EPSG:{src.crs.to_epsg()}"
        assert rasterio.Affine.from_gdal(*got["transform"]) == src.transform
        [b] = got["bands"]
        assert b["type"].lower() == src.dtypes[0]
        assert b["nodata"] == src.nodata
        assert tuple(b["block"]) == tuple(reversed(src.block_shapes[0]))
        assert [w for w, _ in b["overviews"]] == [src.width // f + (src.width % f > 0) for f in src.overviews(1)]
        dn = src.read(1).astype(np.float64)
    valid = dn[dn != src.nodata]
    assert b["valid_count"] == valid.size
    assert (b["min"], b["max"]) == (valid.min(), valid.max())
    assert b["mean"] == pytest.approx(valid.mean(), rel=1e-12)
    assert b["std"] == pytest.approx(valid.std(), rel=1e-9)
    text = run("inspect", path)
    assert text.returncode == 0 and f"EPSG:{src.crs.to_epsg()}" in text.stdout and str(valid.size) in text.stdout


def test_inspect_of_a_truncated_raster_names_it(run, testdata, tmp_path):
    cut = tmp_path / "cut.tif"
    data = (testdata / "raster" / "sentinel2-l2a" / "B04.tif").read_bytes()
    cut.write_bytes(data[: len(data) // 3])
    result = run("inspect", cut)
    assert result.returncode == 1
    assert str(cut) in result.stderr and "cannot read band 1 rows" in result.stderr, result.stderr


@pytest.fixture
def nginx(testdata, tmp_path):
    """nginx (Debian) serving the shared raster folder on a loopback port, with range requests; yields
    (base URL, access log path) and stops it."""
    exe = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(exe).exists():
        pytest.skip("nginx not installed (scripts/install-deps installs it)")
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    for attempt in range(5):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        conf = prefix / "nginx.conf"
        conf.write_text(f"""
daemon off;
master_process off;
user root;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log;
events {{ worker_connections 64; }}
http {{
  access_log {prefix}/access.log;
  client_body_temp_path {prefix}; proxy_temp_path {prefix}; fastcgi_temp_path {prefix};
  uwsgi_temp_path {prefix}; scgi_temp_path {prefix};
  server {{ listen 127.0.0.1:{port}; root {testdata / 'raster'}; }}
}}
""")
        proc = subprocess.Popen([exe, "-p", str(prefix), "-c", str(conf)], stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while proc.poll() is None and time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        if proc.poll() is None:
            break
        if attempt == 4:
            pytest.fail(f"nginx did not start: {proc.stderr.read().decode()}")
    try:
        yield f"http://127.0.0.1:{port}", prefix / "access.log"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_vsicurl_reads_the_bands_over_http_range_requests(run, testdata, tmp_path, nginx):
    base, access_log = nginx
    local = scenes(testdata)[:1]
    remote = [dict(local[0], **{k: f"/vsicurl/{base}/sentinel2-l2a/{Path(local[0][k]).name}"
                                for k in ("blue", "red", "nir")})]
    outputs = {}
    for name, rows in (("local", local), ("remote", remote)):
        write_scenes(tmp_path / f"{name}.jsonl", rows)
        out = tmp_path / name
        result = run("run", EXAMPLE, "--set", f"scenes={tmp_path / f'{name}.jsonl'}", "--set", f"out={out}", "--quiet")
        assert result.returncode == 0, result.stderr
        with rasterio.open(out / "s2.tif") as src:
            outputs[name] = (src.read(1), src.transform, src.crs)
    assert np.array_equal(outputs["local"][0], outputs["remote"][0], equal_nan=True)
    assert outputs["local"][1:] == outputs["remote"][1:]
    requests = access_log.read_text().splitlines()
    gets = [line for line in requests if '"GET ' in line]
    assert gets and all('" 206 ' in line for line in gets), requests  # every GET a range request
    assert not any('/ HTTP' in line for line in requests), requests  # no directory listing (EMPTY_DIR)
    result = run("inspect", "--json", f"/vsicurl/{base}/sentinel2-l2a/B04.tif")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["crs"] == "EPSG:32629"


def test_read_rasters_config_also_reads_the_bands_write_raster_computes(run, testdata, tmp_path):
    # The band needs HTTP credentials, given to read_raster only: write_raster reads its tiles with them too, and
    # no row holds them (the raster column carries the configuration's name).
    band = testdata / "raster" / "sentinel2-l2a" / "B04.tif"
    server = RangeServer(band, userpwd="reader:s3cret")
    try:
        (tmp_path / "scenes.csv").write_text(f"red,path\n/vsicurl/{server.url},red.tif\n")
        (tmp_path / "p.yaml").write_text(f"""
steps:
  - read: {tmp_path / 'scenes.csv'}
  - read_raster: {{datasets: {{red: red}}, config: {{GDAL_HTTP_USERPWD: "reader:s3cret"}}}}
  - write_raster: {{dir: {tmp_path / 'out'}, format: gtiff, overviews: false}}
  - write: {{path: {tmp_path / 'rows'}, format: jsonl}}
""")
        result = run("run", tmp_path / "p.yaml", "--quiet", "--threads", "2")
    finally:
        server.close()
    assert result.returncode == 0, result.stderr
    assert server.refused == 0
    with rasterio.open(tmp_path / "out" / "red.tif") as got, rasterio.open(band) as src:
        dn = src.read(1)
        expected = np.where(dn == src.nodata, np.nan, dn).astype(np.float32)
        assert np.array_equal(got.read(1), expected, equal_nan=True)
    rows = "".join(p.read_text() for p in (tmp_path / "rows").glob("*.jsonl"))
    assert '"config\\":\\"gdal-config-' in rows, rows[:500]
    assert "s3cret" not in rows


def test_read_rasters_config_also_reads_the_bands_warp_and_raster_stats_compute(run, testdata, tmp_path):
    # The same band behind HTTP basic authorization, config on read_raster only: warp opens it and keeps the
    # configuration's name in the warped raster, raster_stats reads the warped tiles with it; the statistics are
    # those of the same pipeline on the local file.
    band = testdata / "raster" / "sentinel2-l2a" / "B04.tif"

    def stats(name, dataset):
        (tmp_path / f"{name}.csv").write_text(f"red\n{dataset}\n")
        (tmp_path / f"{name}.yaml").write_text(f"""
steps:
  - read: {tmp_path / f'{name}.csv'}
  - read_raster: {{datasets: {{red: red}}, config: {{GDAL_HTTP_USERPWD: "reader:s3cret"}}}}
  - warp: {{resolution: 20}}
  - raster_stats: {{}}
  - select: [band, valid_count, min, max, mean, std]
  - write: {{path: {tmp_path / name}, format: jsonl}}
""")
        result = run("run", tmp_path / f"{name}.yaml", "--quiet", "--threads", "2")
        assert result.returncode == 0, result.stderr
        return "".join(p.read_text() for p in (tmp_path / name).glob("*.jsonl"))

    server = RangeServer(band, userpwd="reader:s3cret")
    try:
        remote = stats("remote", f"/vsicurl/{server.url}")
    finally:
        server.close()
    assert server.refused == 0
    local = stats("local", band)
    assert json.loads(remote)["valid_count"] > 0
    assert remote == local


def test_bands_chosen_by_description_and_by_index_column_inside_a_zip(run, testdata, tmp_path):
    """read_raster through /vsizip/: one two-band GeoTIFF (made with rasterio, bands described "B4 red" and "B8 nir")
    inside a zip; red chosen by its description, nir by a per-row index column: NDVI as NumPy computes it."""
    import zipfile
    s2 = testdata / "raster" / "sentinel2-l2a"
    window = rasterio.windows.Window(200, 300, 256, 192)
    stack = []
    for name in ("B04.tif", "B08.tif"):
        with rasterio.open(s2 / name) as src:
            stack.append(src.read(1, window=window))
            profile = dict(driver="GTiff", width=256, height=192, count=2, dtype=src.dtypes[0], crs=src.crs,
                           transform=src.window_transform(window), nodata=src.nodata)
    with rasterio.open(tmp_path / "stack.tif", "w", **profile) as dst:
        dst.write(np.stack(stack))
        dst.set_band_description(1, "B4 red")
        dst.set_band_description(2, "B8 nir")
    with zipfile.ZipFile(tmp_path / "scene.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.write(tmp_path / "stack.tif", "granule/stack.tif")
    dataset = f"/vsizip/{tmp_path / 'scene.zip'}/granule/stack.tif"
    write_scenes(tmp_path / "scenes.jsonl", [{"scene_id": "z", "stack": dataset, "nir_band": 2}])
    (tmp_path / "p.yaml").write_text(f"""
steps:
  - read: {{path: {tmp_path / 'scenes.jsonl'}, format: jsonl}}
  - read_raster: {{datasets: {{red: stack, nir: stack}}, band: {{red: "B4 red", nir: nir_band}}, scale: 0.0001}}
  - ndvi: {{output: ndvi}}
  - text_template: {{output: path, template: "{{scene_id}}.tif"}}
  - write_raster: {{column: ndvi, dir: {tmp_path / 'out'}, format: gtiff, overviews: false}}
  - select: [scene_id, valid_count]
  - write: {{path: {tmp_path / 'rows'}, format: jsonl}}
""")
    result = run("run", tmp_path / "p.yaml", "--quiet")
    assert result.returncode == 0, result.stderr
    red, nir = (band.astype(np.float64) for band in stack)
    mask = (red == profile["nodata"]) | (nir == profile["nodata"])
    red, nir = red * 1e-4, nir * 1e-4
    with np.errstate(divide="ignore", invalid="ignore"):
        want = ((nir - red) / (nir + red)).astype(np.float32)
    want[mask] = np.nan
    with rasterio.open(tmp_path / "out" / "z.tif") as got:
        assert got.transform == profile["transform"] and got.crs == profile["crs"]
        assert_same_values(got.read(1), want)
