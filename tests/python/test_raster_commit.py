"""write_raster's rasters are committed with the run (`recflow run`): all published when it succeeds, none when it
fails on a later scene or is interrupted (SIGINT) while its rasters are staged; a previous file stays as it was."""
import errno
import os
import signal
import subprocess
import time

import pytest

from range_server_util import RangeServer
from test_interrupt import send_and_wait_until_handled, wait_until_blocked_in

pytest.importorskip("rasterio")


def write_pipeline(testdata, tmp_path, nir_bands, extra=""):
    """read → read_raster (the shared Sentinel-2 bands, a 1024-pixel window) → evi → write_raster to tmp_path/out,
    one scene per NIR band (ids a, b, c ...), then `extra` steps and a stats dataset; returns the pipeline file."""
    s2 = testdata / "raster" / "sentinel2-l2a"
    rows = "".join(f"{chr(ord('a') + i)},{s2 / 'B02.tif'},{s2 / 'B04.tif'},{nir},small.txt\n"
                   for i, nir in enumerate(nir_bands))
    (tmp_path / "small.txt").write_text("x")
    (tmp_path / "scenes.csv").write_text("scene_id,blue,red,nir,side\n" + rows)
    (tmp_path / "p.yaml").write_text(f"""
steps:
  - read: {tmp_path / 'scenes.csv'}
  - read_raster: {{datasets: {{blue: blue, red: red, nir: nir}}, scale: 0.0001, window: [0, 0, 1024, 1024]}}
  - evi: {{output: evi}}
  - text_template: {{output: path, template: "{{scene_id}}.tif"}}
  - write_raster: {{column: evi, dir: {tmp_path / 'out'}, path: path, block_size: 256}}
{extra}  - select: [scene_id, valid_count]
  - write: {{path: {tmp_path / 'stats'}, format: jsonl}}
""")
    return tmp_path / "p.yaml"


def test_a_successful_run_publishes_every_raster(run, testdata, tmp_path):
    s2 = testdata / "raster" / "sentinel2-l2a"
    result = run("run", write_pipeline(testdata, tmp_path, [s2 / "B08.tif"] * 3), "--quiet", "--threads", "2")
    assert result.returncode == 0, result.stderr
    assert sorted(os.listdir(tmp_path / "out")) == ["a.tif", "b.tif", "c.tif"]
    info = subprocess.run(["gdalinfo", str(tmp_path / "out" / "c.tif")], capture_output=True, text=True, check=True)
    assert "LAYOUT=COG" in info.stdout


def test_a_run_failing_on_its_third_scene_publishes_none_and_keeps_the_previous_file(run, testdata, tmp_path):
    s2 = testdata / "raster" / "sentinel2-l2a"
    cut = tmp_path / "B08-cut.tif"
    data = (s2 / "B08.tif").read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "a.tif").write_bytes(b"the previous a")
    result = run("run", write_pipeline(testdata, tmp_path, [s2 / "B08.tif", s2 / "B08.tif", cut]), "--quiet", "--threads", "2")
    assert result.returncode == 1
    assert str(cut) in result.stderr and "record 2" in result.stderr, result.stderr
    assert sorted(os.listdir(tmp_path / "out")) == ["a.tif"]
    assert (tmp_path / "out" / "a.tif").read_bytes() == b"the previous a"
    assert not (tmp_path / "stats").exists()


def test_an_interrupted_run_removes_its_staged_rasters(recflow_bin, testdata, tmp_path):
    # After write_raster, load_file reads scene c's FIFO: the run holds there with all three rasters staged.
    s2 = testdata / "raster" / "sentinel2-l2a"
    fifo = tmp_path / "c.fifo"
    os.mkfifo(fifo)
    pipeline = write_pipeline(testdata, tmp_path, [s2 / "B08.tif"] * 3,
                              extra=f"  - load_file: {{column: side, base_dir: {tmp_path}, output: bytes}}\n")
    rows = (tmp_path / "scenes.csv").read_text().splitlines()
    rows[3] = rows[3].replace("small.txt", fifo.name)
    (tmp_path / "scenes.csv").write_text("\n".join(rows) + "\n")
    proc = subprocess.Popen([str(recflow_bin), "run", str(pipeline), "--quiet", "--threads", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_until_blocked_in(proc, "wait_for_partner")  # load_file opening the FIFO: no writer yet
        assert sorted(os.listdir(tmp_path / "out")) == [f"{s}.tif.recflow-staged" for s in "abc"]
        assert send_and_wait_until_handled(proc, signal.SIGINT)
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:  # let load_file's open return
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError as e:
                assert e.errno == errno.ENXIO, e
            time.sleep(0.01)
        assert proc.wait(timeout=60) == 130
    finally:
        proc.kill()
    stderr = proc.stderr.read().decode()
    assert "interrupted by SIGINT" in stderr, stderr
    assert os.listdir(tmp_path / "out") == []
    assert not (tmp_path / "stats").exists()


def test_a_run_ended_while_writing_a_cog_removes_its_intermediate_file(recflow_bin, testdata, tmp_path):
    # The band comes over /vsicurl/ from a server that holds every read of its pixels: write_raster is stuck reading
    # the first tile, its COG's uncompressed intermediate created. A first SIGINT cannot stop it, a second ends it.
    server = RangeServer(testdata / "raster" / "sentinel2-l2a" / "B04.tif", limit=16384)
    (tmp_path / "scenes.csv").write_text(f"red,path\n/vsicurl/{server.url},red.tif\n")
    (tmp_path / "p.yaml").write_text(f"""
steps:
  - read: {tmp_path / 'scenes.csv'}
  - read_raster: {{datasets: {{red: red}}}}
  - write_raster: {{dir: {tmp_path / 'out'}, format: cog}}
  - write: {{path: {tmp_path / 'stats'}, format: jsonl}}
""")
    proc = subprocess.Popen([str(recflow_bin), "run", str(tmp_path / "p.yaml"), "--quiet", "--threads", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert server.stalled.wait(60), proc.stderr.read().decode() if proc.poll() is not None else "no tile read"
        assert sorted(os.listdir(tmp_path / "out")) == ["red.tif.recflow-staged.recflow-tiles.tif"]
        assert send_and_wait_until_handled(proc, signal.SIGINT), "it stopped: it was not stuck"
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130
    finally:
        proc.kill()
        server.close()
    stderr = proc.stderr.read().decode()
    assert "interrupted by SIGINT" in stderr, stderr
    assert os.listdir(tmp_path / "out") == []
    assert not (tmp_path / "stats").exists()
