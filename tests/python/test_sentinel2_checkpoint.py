"""The sentinel2-stream example with --checkpoint against a real `nats-server -js` (its own store, a free loopback
port): six tile sessions, each fired by the next one's scene (one scene per pull), so each raster commits in an epoch
of its own. A run SIGKILLed after an epoch's commit, after a checkpoint, or between an epoch's rasters' commit and its
messages, then restarted, leaves what an uninterrupted run leaves: each message once (its Nats-Msg-Id), none missing,
each naming a raster that is there, opens with rasterio and has the message's EVI statistics, the rasters pixel-equal
to the uninterrupted run's, no staged file left. An independent subscriber (the npm `nats` client) opens the file a
message names the moment the message arrives: every open succeeds, in the killed run and its restart."""
import json
import signal
import subprocess

import numpy as np
import pytest

from node_util import NODE_DIR
from test_checkpoint import environment
from test_nats import NatsServer, next_line, publish, read_stream
from test_raster_mosaic import noisy_copy
from test_sentinel2_stream import EXAMPLE, composite_evi, pytestmark  # noqa: F401

rasterio = pytest.importorskip("rasterio")

HANG_BOUND = 300  # seconds: a bound on a hang, not a timing
T0 = 1_582_112_000_000
SESSION_STEP = 600_000  # 10 minutes between sessions: past the 5-minute out_of_orderness, each fires the one before


def scenes(testdata, tmp):
    """Six sessions over two tiles in acquisition order, every other one of two scenes (the second 20 s later with a
    noisy NIR band)."""
    s2 = testdata / "raster" / "sentinel2-l2a"
    bands = {"blue": str(s2 / "B02.tif"), "red": str(s2 / "B04.tif"), "nir": str(s2 / "B08.tif")}
    out = []
    for k in range(6):
        tile = ("29RKH", "29RKJ")[k % 2]
        out.append({"scene_id": f"s{k}", "tile": tile, "acquired": T0 + k * SESSION_STEP, **bands})
        if k % 2 == 0:
            nir = noisy_copy(s2 / "B08.tif", tmp / f"nir{k}.tif", seed=k + 1)
            out.append({"scene_id": f"s{k}b", "tile": tile, "acquired": T0 + k * SESSION_STEP + 20_000, **bands,
                        "nir": str(nir)})
    return out


def example_copy(tmp):
    """The example as it runs here: one scene per pull, an AckWait of 2 s (a killed run's scenes come again to the
    restart) and the input ending once the run caught up (its malformed scenes to ${out}-bad-scenes.jsonl, as in the
    example)."""
    text = EXAMPLE.read_text()
    assert "dead_letter:" in text
    text = text.replace("out_of_orderness: 5m}", "out_of_orderness: 5m, batch: 1, ack_wait: 2s, until_caught_up: true}")
    assert "until_caught_up" in text
    path = tmp / "pipeline.yaml"
    path.write_text(text)
    return path


def run_example(recflow_bin, path, url, out, checkpoint, kill_at=None, interval="0"):
    return subprocess.run([str(recflow_bin), "run", str(path), "--set", f"nats={url}", "--set", f"out={out}", "--quiet",
                           "--checkpoint", str(checkpoint), "--checkpoint-interval", interval],
                          env=environment(kill_at), capture_output=True, text=True, timeout=HANG_BOUND)


class OpenEach:
    """nats_open_each.mjs on the output subject: opens each message's file as the message arrives."""

    def __init__(self, url, out):
        self.proc = subprocess.Popen(["node", str(NODE_DIR / "nats_open_each.mjs"), url, "sentinel2.evi", str(out)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert next_line(self.proc, []) == "ready"

    def seen(self):
        out, _ = self.proc.communicate(timeout=HANG_BOUND)
        assert self.proc.returncode == 0
        return [json.loads(line) for line in out.splitlines()]


def read_band(path):
    with rasterio.open(path) as src:
        return src.read(1)


def messages_and_rasters(url, out):
    """The output stream's messages (rows by Nats-Msg-Id, each id once) and the rasters they name, read."""
    messages = read_stream(url, "EVI")
    ids = [m["msg_id"] for m in messages]
    assert len(ids) == len(set(ids)), f"a message was published twice: {ids}"
    rows = {m["msg_id"]: json.loads(m["data"]) for m in messages}
    return rows, {row["path"]: read_band(out / row["path"]) for row in rows.values()}


def assert_statistics(row, values):
    valid = values[~np.isnan(values)]
    assert row["valid_count"] == valid.size
    assert row["min"] == pytest.approx(float(valid.min()), abs=1e-4)
    assert row["max"] == pytest.approx(float(valid.max()), abs=1e-4)
    assert row["mean"] == pytest.approx(float(valid.mean()), abs=1e-4)


def assert_clean_output(out, rows):
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(["messages"] + [r["path"] for r in rows.values()]), names
    leftovers = [p for p in out.rglob("*") if "recflow-staged" in p.name or p.name.startswith(".")]
    assert leftovers == []
    copy = [json.loads(line) for f in sorted((out / "messages").glob("part-*")) for line in f.read_text().splitlines()]
    key = lambda r: (r["tile"], r["window_start"])  # noqa: E731
    assert sorted(copy, key=key) == sorted(rows.values(), key=key)  # each pane once in the JSON Lines copy too


@pytest.fixture(scope="module")
def uninterrupted(recflow_bin, testdata, tmp_path_factory):
    """The example over the scenes, run once with a checkpoint and not killed: its messages by id and its rasters,
    checked against NumPy's composite EVI on rasterio's reads."""
    tmp = tmp_path_factory.mktemp("uninterrupted")
    server = NatsServer(tmp / "store")
    try:
        evs = scenes(testdata, tmp)
        publish(server.url, "SCENES", "sentinel2.scenes", [("sentinel2.scenes", json.dumps(s)) for s in evs])
        publish(server.url, "EVI", "sentinel2.evi", [])
        watcher = OpenEach(server.url, tmp / "out")
        done = run_example(recflow_bin, example_copy(tmp), server.url, tmp / "out", tmp / "ckpt")
        assert done.returncode == 0, done.stderr
        seen = watcher.seen()
        rows, rasters = messages_and_rasters(server.url, tmp / "out")
    finally:
        server.stop()
    assert len(rows) == 6 and all(s["opened"] for s in seen), seen
    by_id = {s["scene_id"]: s for s in evs}
    for row in rows.values():
        want, _ = composite_evi([by_id[s] for s in row["scenes"]])
        assert np.array_equal(np.isnan(rasters[row["path"]]), np.isnan(want))
        assert np.nanmax(np.abs(rasters[row["path"]] - want)) <= 1e-5
        assert_statistics(row, rasters[row["path"]])
    assert_clean_output(tmp / "out", rows)
    return evs, rows, rasters


KILL_POINTS = [
    ("epoch-committed:2", "0"),        # the second session's epoch committed (its JSON Lines), its raster not yet
    ("epoch-files-committed:3", "0"),  # the third session's raster renamed in, its message not published
    ("checkpoint-written:4", "0"),     # a checkpoint written, its scenes not acknowledged
    # No checkpoint but the first run's empty one: three epochs committed and published, then taken back by the
    # restart, which makes their rasters again over the published ones and sends their messages again.
    ("epoch-committed:4", "3600"),
]


@pytest.mark.parametrize("kill_at,interval", KILL_POINTS)
def test_a_killed_and_restarted_checkpointed_run_leaves_each_raster_and_its_message_once(
        recflow_bin, tmp_path, uninterrupted, kill_at, interval):
    evs, want_rows, want_rasters = uninterrupted
    server = NatsServer(tmp_path / "store")
    try:
        publish(server.url, "SCENES", "sentinel2.scenes", [("sentinel2.scenes", json.dumps(s)) for s in evs])
        publish(server.url, "EVI", "sentinel2.evi", [])
        out, path = tmp_path / "out", example_copy(tmp_path)
        watcher = OpenEach(server.url, out)
        killed = run_example(recflow_bin, path, server.url, out, tmp_path / "ckpt", kill_at, interval)
        assert killed.returncode == -signal.SIGKILL, killed.stderr
        published = {m["msg_id"] for m in read_stream(server.url, "EVI")}
        done = run_example(recflow_bin, path, server.url, out, tmp_path / "ckpt")
        assert done.returncode == 0, done.stderr
        seen = watcher.seen()
        rows, rasters = messages_and_rasters(server.url, out)
    finally:
        server.stop()
    # Every message any subscriber could see named a raster already there (a re-sent one too, which the stream drops).
    assert seen and all(s["opened"] and s["magic"] in ("49492a00", "4d4d002a") for s in seen), seen
    assert {s["msg_id"] for s in seen} == set(want_rows)
    # What the killed run published is there once (the restart's copies were dropped), beside the rest.
    assert published < set(rows)
    assert rows == want_rows
    assert rasters.keys() == want_rasters.keys()
    for name, values in rasters.items():
        assert np.array_equal(values, want_rasters[name], equal_nan=True), name
        assert_statistics(next(r for r in rows.values() if r["path"] == name), values)
    assert_clean_output(out, rows)
