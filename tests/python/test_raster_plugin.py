"""GDAL is loaded only when a raster is touched: recflow's raster half is a plugin (librecflow_gdal.so beside the
binary) loaded on first use. The loader's own trace (LD_DEBUG=files) says which libraries a command maps."""
import os
import shutil
import subprocess

import pytest


def loaded_libraries(recflow_bin, *args, cwd=None):
    """The CompletedProcess of recflow with `args` and the loader's trace of the files it mapped (its stderr)."""
    env = dict(os.environ, LD_DEBUG="files")
    proc = subprocess.run([str(recflow_bin), *map(str, args)], capture_output=True, text=True, timeout=120, env=env,
                          cwd=cwd)
    return proc, [line for line in proc.stderr.splitlines() if "file=" in line]


def test_version_and_a_convert_do_not_map_gdal(recflow_bin, tmp_path):
    proc, files = loaded_libraries(recflow_bin, "--version")
    assert proc.returncode == 0, proc.stderr
    assert files, "LD_DEBUG=files printed nothing: the check would prove nothing"
    assert not [f for f in files if "gdal" in f], files
    (tmp_path / "a.csv").write_text("x,y\n1,a\n2,b\n")
    proc, files = loaded_libraries(recflow_bin, "convert", tmp_path / "a.csv", "--to", "jsonl", "-o", tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    assert not [f for f in files if "gdal" in f], files


def test_inspecting_a_raster_loads_the_plugin_and_gdal(recflow_bin, testdata):
    band = testdata / "raster" / "sentinel2-l2a" / "B04.tif"
    proc, files = loaded_libraries(recflow_bin, "inspect", band)
    assert proc.returncode == 0, proc.stderr
    plugin = recflow_bin.parent / "librecflow_gdal.so"
    assert [f for f in files if f"file={plugin}" in f and "dynamically loaded" in f], files
    assert [f for f in files if "libgdal.so" in f], files


def test_a_missing_plugin_is_named(recflow_bin, testdata, tmp_path):
    # The binary alone in a directory: its raster commands fail naming the library they looked for.
    binary = tmp_path / "recflow"
    shutil.copy2(recflow_bin, binary)
    band = testdata / "raster" / "sentinel2-l2a" / "B04.tif"
    proc = subprocess.run([str(binary), "inspect", str(band)], capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0
    named = f"cannot load the raster plugin {tmp_path / 'librecflow_gdal.so'} "
    assert named in proc.stderr, proc.stderr
    (tmp_path / "scenes.csv").write_text(f"red\n{band}\n")
    (tmp_path / "p.yaml").write_text(f"""
steps:
  - read: {tmp_path / 'scenes.csv'}
  - read_raster: {{datasets: {{red: red}}}}
  - write: {{path: {tmp_path / 'out'}, format: jsonl}}
""")
    proc = subprocess.run([str(binary), "run", str(tmp_path / "p.yaml")], capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0
    assert f"step 'read_raster': {named}" in proc.stderr, proc.stderr
    assert not (tmp_path / "out").exists()
    # The rest of the binary works without it.
    assert subprocess.run([str(binary), "--version"], capture_output=True, timeout=120).returncode == 0

