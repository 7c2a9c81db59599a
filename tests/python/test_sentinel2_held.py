"""The sentinel2-stream example run without --checkpoint (a run that is one transaction) against a real `nats-server -js`:
the run commits once, at its end, and its messages wait for that commit. An independent subscriber (the npm `nats`
client) opens the raster each message names the moment the message arrives: every open succeeds, though the sessions'
panes fire one after the other while the run reads. A run that fails on its last session (a tile whose raster path
leaves the output directory), after every earlier session's pane fired and its raster was written, publishes no
message, leaves no raster and acknowledges no scene."""
import json
import subprocess

import numpy as np
import pytest

from test_nats import NatsServer, consumer_info, publish, read_stream
from test_sentinel2_checkpoint import (HANG_BOUND, OpenEach, assert_clean_output, assert_statistics,
                                       messages_and_rasters, scenes)
from test_sentinel2_stream import EXAMPLE, composite_evi, pytestmark  # noqa: F401

rasterio = pytest.importorskip("rasterio")

TIFF_MAGIC = ("49492a00", "4d4d002a")


def example_without_checkpoint(tmp):
    """The example as the demo runs it (its dead letters kept), with one scene per pull, so that each session's pane
    fires while the run still reads, and the input ending once the run caught up."""
    text = EXAMPLE.read_text().replace("out_of_orderness: 5m}",
                                       "out_of_orderness: 5m, batch: 1, until_caught_up: true}")
    assert "until_caught_up" in text
    path = tmp / "pipeline.yaml"
    path.write_text(text)
    return path


def run_example(recflow_bin, path, url, out):
    return subprocess.run([str(recflow_bin), "run", str(path), "--set", f"nats={url}", "--set", f"out={out}",
                           "--quiet"], capture_output=True, text=True, timeout=HANG_BOUND)


def acknowledged(url):
    """The scene consumer's (ack floor, messages waiting for their acknowledgement)."""
    info = consumer_info(url, "SCENES", "sentinel2-stream")
    return info["ack_floor"], info["num_ack_pending"]


def test_without_a_checkpoint_each_message_comes_after_its_raster(recflow_bin, testdata, tmp_path):
    server = NatsServer(tmp_path / "store")
    try:
        evs = scenes(testdata, tmp_path)
        publish(server.url, "SCENES", "sentinel2.scenes", [("sentinel2.scenes", json.dumps(s)) for s in evs])
        publish(server.url, "EVI", "sentinel2.evi", [])
        out = tmp_path / "out"
        watcher = OpenEach(server.url, out)
        done = run_example(recflow_bin, example_without_checkpoint(tmp_path), server.url, out)
        assert done.returncode == 0, done.stderr
        seen = watcher.seen()
        rows, rasters = messages_and_rasters(server.url, out)
        assert acknowledged(server.url) == (len(evs), 0)
    finally:
        server.stop()
    assert len(rows) == 6
    # The moment each message arrived, the raster it names opened as a TIFF.
    assert len(seen) == 6 and all(s["opened"] and s["magic"] in TIFF_MAGIC for s in seen), seen
    by_id = {s["scene_id"]: s for s in evs}
    for row in rows.values():
        want, _ = composite_evi([by_id[s] for s in row["scenes"]])
        assert np.nanmax(np.abs(rasters[row["path"]] - want)) <= 1e-5
        assert_statistics(row, rasters[row["path"]])
    assert_clean_output(out, rows)


def test_a_run_failing_after_panes_fired_publishes_nothing_writes_no_raster_and_acknowledges_nothing(
        recflow_bin, testdata, tmp_path):
    server = NatsServer(tmp_path / "store")
    try:
        evs = scenes(testdata, tmp_path)
        # The last session, after the six others fired: a tile that makes its raster's path leave the output directory.
        bad = {**evs[-1], "scene_id": "bad", "tile": "../escape", "acquired": evs[-1]["acquired"] + 600_000}
        publish(server.url, "SCENES", "sentinel2.scenes", [("sentinel2.scenes", json.dumps(s)) for s in evs + [bad]])
        publish(server.url, "EVI", "sentinel2.evi", [])
        out = tmp_path / "out"
        watcher = OpenEach(server.url, out)
        failed = run_example(recflow_bin, example_without_checkpoint(tmp_path), server.url, out)
        assert failed.returncode == 1, failed.stderr
        assert "leaves the output directory" in failed.stderr, failed.stderr
        seen = watcher.seen()
        published = read_stream(server.url, "EVI")
        floor, _ = acknowledged(server.url)
    finally:
        server.stop()
    assert (seen, published, floor) == ([], [], 0)
    assert not out.exists() or sorted(p.name for p in out.rglob("*")) == []
    assert list(tmp_path.glob("escape*")) == []
