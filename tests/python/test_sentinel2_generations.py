"""The sentinel2-stream example with --checkpoint across generations (docs/streaming.md, "Generations") against a real
`nats-server -js`: a run that caught up drains and marks its checkpoint drained; a scene published afterwards for the
same tile and session start is read by the next start, generation 1, whose raster name carries its generation
(`{@generation}` in the example's path template: `<tile>-<window_start>-g1.tif`). So generation 1's raster lies beside
generation 0's, whose bytes stay as they were, and each message — generation 0's and generation 1's (`|g1` in its
Nats-Msg-Id) — names the raster made of its own scenes. An independent subscriber (the npm `nats` client) opens each
message's raster the moment the message arrives."""
import hashlib
import json

import numpy as np
import pytest

from test_nats import NatsServer, publish
from test_nats_checkpoint import checkpoint_json
from test_raster_mosaic import noisy_copy
from test_sentinel2_checkpoint import (OpenEach, T0, assert_clean_output, assert_statistics, example_copy,
                                       messages_and_rasters, run_example, scenes)
from test_sentinel2_stream import composite_evi, pytestmark  # noqa: F401

rasterio = pytest.importorskip("rasterio")


def digests(out):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in out.glob("*.tif")}


def test_a_generation_writes_its_raster_of_a_session_beside_the_earlier_generations(recflow_bin, testdata, tmp_path):
    server = NatsServer(tmp_path / "store")
    try:
        first = scenes(testdata, tmp_path)
        # After the drain: one more scene of the first session's tile, acquired when that session started.
        nir = noisy_copy(first[0]["nir"], tmp_path / "later.tif", seed=9)
        later = {**first[0], "scene_id": "later", "nir": str(nir)}
        assert later["acquired"] == T0
        publish(server.url, "SCENES", "sentinel2.scenes", [("sentinel2.scenes", json.dumps(s)) for s in first])
        publish(server.url, "EVI", "sentinel2.evi", [])
        out, path, ckpt = tmp_path / "out", example_copy(tmp_path), tmp_path / "ckpt"
        watcher = OpenEach(server.url, out)
        done = run_example(recflow_bin, path, server.url, out, ckpt)
        assert done.returncode == 0, done.stderr
        assert (checkpoint_json(ckpt)["generation"], checkpoint_json(ckpt)["drained"]) == (0, True)
        generation0 = digests(out)
        assert len(generation0) == 6 and "29RKH-1582112000000.tif" in generation0

        publish(server.url, "SCENES", "sentinel2.scenes", [("sentinel2.scenes", json.dumps(later))])
        done = run_example(recflow_bin, path, server.url, out, ckpt)
        assert done.returncode == 0, done.stderr
        assert checkpoint_json(ckpt)["generation"] == 1
        seen = watcher.seen()
        rows, rasters = messages_and_rasters(server.url, out)
    finally:
        server.stop()
    # Generation 0's rasters are as it wrote them; generation 1's is a file of its own beside them.
    after = digests(out)
    assert {name: after[name] for name in generation0} == generation0
    assert set(after) - set(generation0) == {"29RKH-1582112000000-g1.tif"}
    # Seven messages, each opened the moment it arrived, each naming the raster of its own generation's scenes.
    assert len(rows) == 7 and len(seen) == 7 and all(s["opened"] for s in seen), seen
    renewed = [(msg_id, row) for msg_id, row in rows.items() if "|g1|" in msg_id]
    assert [(row["path"], row["scenes"]) for _, row in renewed] == [("29RKH-1582112000000-g1.tif", ["later"])]
    by_id = {s["scene_id"]: s for s in first + [later]}
    for row in rows.values():
        want, _ = composite_evi([by_id[s] for s in row["scenes"]])
        assert np.nanmax(np.abs(rasters[row["path"]] - want)) <= 1e-5, row["path"]
        assert_statistics(row, rasters[row["path"]])
    assert_clean_output(out, rows)
