"""The sentinel2-stream example against a real `nats-server -js` (its own store, a free loopback port): the npm `nats`
client publishes scene messages (two sessions of one Sentinel-2 tile, the first of two scenes arriving out of order,
and a Landsat scene), the example runs with --stop-after-idle, and the npm client reads the messages it published:
one per session and tile, naming a raster whose EVI equals NumPy's on rasterio's reads of the bands (the session's
greenest-pixel composite: per pixel the bands of the scene of largest NDVI)."""
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from test_nats import NatsServer, backlog, publish, read_stream
from evi_rule import evi_numpy
from test_raster import assert_same_values, reflectance
from test_raster_mosaic import noisy_copy

rasterio = pytest.importorskip("rasterio")
pytestmark = pytest.mark.skipif(shutil.which("nats-server") is None, reason="nats-server is not installed (install-deps)")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sentinel2-stream" / "pipeline.yaml"
T0 = 1_582_112_000_000  # 2020-02-19, the Sentinel-2 bands' date
GAP = 60_000


@pytest.fixture
def nats(tmp_path):
    server = NatsServer(tmp_path / "store")
    yield server.url
    server.stop()


def bands(scene):
    scale, offset = scene.get("scale") or 1e-4, scene.get("offset") or 0.0
    return [reflectance(scene[b], scale, offset) for b in ("blue", "red", "nir")]


def composite_evi(scenes):
    """EVI (with the evi step's valid-pixel rule) of the greenest-pixel composite: per pixel every band of the scene
    whose NDVI is largest (the first of equal ones), NaN where no scene has an NDVI."""
    stack = np.stack([bands(s) for s in scenes])  # scene, band, y, x
    with np.errstate(divide="ignore", invalid="ignore"):
        ndvi = (stack[:, 2] - stack[:, 1]) / (stack[:, 2] + stack[:, 1])
    best = np.argmax(np.where(np.isnan(ndvi), -np.inf, ndvi), axis=0)
    rows, cols = np.indices(best.shape)
    picked = stack[best, :, rows, cols]  # y, x, band
    picked[np.isnan(ndvi).all(axis=0)] = np.nan
    return evi_numpy(picked[..., 0], picked[..., 1], picked[..., 2]), best


def test_scene_messages_become_one_evi_raster_and_message_per_tile_session(run, testdata, tmp_path, nats):
    s2 = testdata / "raster" / "sentinel2-l2a"
    l8 = testdata / "raster" / "landsat8-c2l2"
    s2_bands = {"blue": str(s2 / "B02.tif"), "red": str(s2 / "B04.tif"), "nir": str(s2 / "B08.tif")}
    a = {"scene_id": "a", "tile": "29RKH", "acquired": T0, **s2_bands}
    b = {"scene_id": "b", "tile": "29RKH", "acquired": T0 + 20_000, **s2_bands,
         "nir": str(noisy_copy(s2 / "B08.tif", tmp_path / "b_B08.tif", seed=11))}
    c = {"scene_id": "c", "tile": "29RKH", "acquired": T0 + 300_000, **s2_bands}  # a second session
    landsat = {"scene_id": "l8", "tile": "LC08", "acquired": T0 + 10_000, "blue": str(l8 / "SR_B2.TIF"),
               "red": str(l8 / "SR_B4.TIF"), "nir": str(l8 / "SR_B5.TIF"), "scale": 2.75e-5, "offset": -0.2}
    # b comes after c: within the source's out_of_orderness, it still joins a's session.
    publish(nats, "SCENES", "sentinel2.scenes", [("sentinel2.scenes", json.dumps(s)) for s in (a, landsat, c, b)])
    out = tmp_path / "out"
    done = run("run", EXAMPLE, "--set", f"nats={nats}", "--set", f"out={out}", "--stop-after-idle", "1", "--quiet")
    assert done.returncode == 0, done.stderr
    assert backlog(nats, "SCENES", "sentinel2-stream") == (0, 0)  # every scene acknowledged

    messages = read_stream(nats, "EVI")
    assert all(m["subject"] == "sentinel2.evi" for m in messages)
    rows = sorted((json.loads(m["data"]) for m in messages), key=lambda r: (r["tile"], r["window_start"]))
    sessions = [("29RKH", T0, T0 + 20_000 + GAP, ["a", "b"]), ("29RKH", T0 + 300_000, T0 + 300_000 + GAP, ["c"]),
                ("LC08", T0 + 10_000, T0 + 10_000 + GAP, ["l8"])]
    assert [(r["tile"], r["window_start"], r["window_end"], r["scenes"]) for r in rows] == sessions
    ids = sorted(m["msg_id"] for m in messages)
    assert ids == sorted(f'sentinel2.evi|w{s}-{e}|p0|["{t}"]' for t, s, e, _ in sessions)
    # The example's JSON Lines copy holds the same rows.
    copy = [json.loads(line) for f in sorted((out / "messages").glob("part-*")) for line in f.read_text().splitlines()]
    assert sorted(copy, key=lambda r: (r["tile"], r["window_start"])) == rows

    by_id = {"a": a, "b": b, "c": c, "l8": landsat}
    for row in rows:
        assert row["path"] == f"{row['tile']}-{row['window_start']}.tif"
        want, best = composite_evi([by_id[s] for s in row["scenes"]])
        with rasterio.open(out / row["path"]) as got, rasterio.open(by_id[row["scenes"][0]]["red"]) as grid:
            assert got.dtypes == ("float32",)
            assert got.transform == grid.transform and got.crs == grid.crs
            values = got.read(1)
        assert_same_values(values, want)
        assert row["valid_count"] == int(np.count_nonzero(~np.isnan(want)))
        if row["scenes"] == ["a", "b"]:  # the noisy scene wins some pixels, not all
            assert 0.2 < np.mean(best == 1) < 0.8
    assert sorted(p.name for p in out.iterdir()) == sorted(["messages"] + [r["path"] for r in rows])


def test_a_raster_written_before_the_grouping_with_a_checkpoint_is_refused_before_any_message(run, testdata, tmp_path,
                                                                                           nats):
    # Per-row files commit per epoch only in the stage writing the grouping's panes; one written before the grouping
    # would commit at the run's end, so a checkpoint could cover scenes whose rasters a crash then loses.
    s2 = testdata / "raster" / "sentinel2-l2a"
    scene = {"scene_id": "a", "tile": "29RKH", "acquired": T0, "blue": str(s2 / "B02.tif"), "red": str(s2 / "B04.tif"),
             "nir": str(s2 / "B08.tif")}
    publish(nats, "SCENES", "sentinel2.scenes", [("sentinel2.scenes", json.dumps(scene))])
    out = tmp_path / "out"
    pipeline = tmp_path / "pipeline.yaml"
    pipeline.write_text(f"""
steps:
  - nats: {{url: "{nats}", stream: SCENES, consumer: c, subject: sentinel2.scenes, event_time: acquired,
           schema: {{scene_id: utf8, tile: utf8, acquired: int64, blue: utf8, red: utf8, nir: utf8}}}}
  - read_raster: {{datasets: {{blue: blue, red: red, nir: nir}}, scale: 0.0001, window: [0, 0, 256, 256]}}
  - evi: {{output: evi}}
  - text_template: {{output: path, template: "{{scene_id}}.tif"}}
  - write_raster: {{column: evi, dir: {out}, path: path}}
  - select: [tile, acquired, path]
  - window: {{sessions: {{gap: 60s}}}}
  - group_by_key: [tile]
  - write_nats: {{url: "{nats}", subject: sentinel2.evi, stream: EVI, key: [tile]}}
""")
    done = run("run", pipeline, "--stop-after-idle", "1", "--checkpoint", tmp_path / "ckpt", "--quiet")
    assert done.returncode == 2, done.stderr  # a usage error
    assert str(out / "a.tif") in done.stderr and "without --checkpoint" in done.stderr, done.stderr
    assert read_stream(nats, "EVI") == []
    assert not out.exists() or not list(out.glob("*.tif"))
