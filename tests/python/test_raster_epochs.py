"""write_raster in an unbounded run commits its rasters per epoch, with the panes that made them: a directory watch of
scene files, each closing the session of the tile before it, on the shared Sentinel-2 bands. A run failing on a
raster of its third epoch keeps the rasters (and the JSON Lines rows) of the two epochs it committed, and leaves
nothing of the failing epoch: neither its other raster nor a staged file."""
import json

import pytest

rasterio = pytest.importorskip("rasterio")

T0 = 1_582_112_000_000
STEP = 600_000  # 10 minutes between sessions: each scene file fires the session before it


def pipeline(tmp_path, inbox, out):
    path = tmp_path / "p.yaml"
    path.write_text(f"""
steps:
  - watch: {{path: {inbox}, format: jsonl, event_time: acquired, poll: 20ms}}
  - window: {{sessions: {{gap: 60s}}}}
  - read_raster: {{datasets: {{blue: blue, red: red, nir: nir}}, scale: 0.0001, window: [0, 0, 512, 512]}}
  - select: [tile, acquired, scene_id, raster]
  - group_by_key: [tile]
  - mosaic: {{rule: max_ndvi}}
  - evi: {{output: evi}}
  - text_template: {{output: path, template: "{{tile}}.tif"}}
  - write_raster: {{column: evi, dir: {out / "rasters"}, path: path, block_size: 256}}
  - select: [tile, path, valid_count]
  - write: {{path: {out / "stats"}, format: jsonl}}
""")
    return path


def test_a_run_failing_in_its_third_epoch_keeps_the_rasters_of_the_two_before(run, testdata, tmp_path):
    s2 = testdata / "raster" / "sentinel2-l2a"
    cut = tmp_path / "B08-cut.tif"  # GDAL opens it; its blocks past the cut fail to read
    data = (s2 / "B08.tif").read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    bands = {"blue": str(s2 / "B02.tif"), "red": str(s2 / "B04.tif"), "nir": str(s2 / "B08.tif")}
    inbox = tmp_path / "in"
    inbox.mkdir()
    files = [[("A", 0, bands)], [("B", 1, bands)], [("C", 2, bands), ("E", 2, {**bands, "nir": str(cut)})],
             [("D", 3, bands)], [("F", 4, bands)]]
    for i, scenes in enumerate(files):
        rows = [{"scene_id": f"{tile}{k}", "tile": tile, "acquired": T0 + k * STEP, **b} for tile, k, b in scenes]
        (inbox / f"f{i}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "out"
    done = run("run", pipeline(tmp_path, inbox, out), "--stop-after-idle", "0.5", "--quiet")
    # The fourth file fires the sessions of C and E: E's raster fails the run, naming the band.
    assert done.returncode == 1, done.stderr
    assert str(cut) in done.stderr, done.stderr
    # The epochs that fired A's and B's sessions were committed, rasters and rows; nothing of C's, E's or D's is there.
    assert sorted(p.name for p in (out / "rasters").iterdir()) == ["A.tif", "B.tif"]
    for name in ("A.tif", "B.tif"):
        with rasterio.open(out / "rasters" / name) as got:
            assert got.dtypes == ("float32",) and got.shape == (512, 512)
    rows = [json.loads(line) for f in sorted((out / "stats").glob("*.jsonl")) for line in f.read_text().splitlines()]
    assert sorted(r["tile"] for r in rows) == ["A", "B"]
    assert [p for p in out.rglob("*") if "recflow-staged" in p.name] == []
