"""The Python module's raster steps load the raster plugin copied beside the extension (librecflow_gdal.so in the
package directory), as the recflow binary loads the one beside it (test_raster_plugin.py)."""
import os
import subprocess


def test_the_python_module_loads_the_plugin_beside_it(python_package_dir, testdata, tmp_path):
    band = testdata / "raster" / "sentinel2-l2a" / "B04.tif"
    (tmp_path / "scenes.csv").write_text(f"red,path\n{band},red.tif\n")
    (tmp_path / "p.yaml").write_text(f"""
steps:
  - read: {tmp_path / 'scenes.csv'}
  - read_raster: {{datasets: {{red: red}}, window: [0, 0, 300, 200]}}
  - write_raster: {{dir: {tmp_path / 'out'}, format: gtiff}}
  - write: {{path: {tmp_path / 'stats'}, format: jsonl}}
""")
    env = dict(os.environ, PYTHONPATH=str(python_package_dir), LD_DEBUG="files")
    proc = subprocess.run(["/usr/bin/python3", "-c", f"import recflow; recflow.run({str(tmp_path / 'p.yaml')!r})"],
                          capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    plugin = python_package_dir / "recflow" / "librecflow_gdal.so"
    assert [line for line in proc.stderr.splitlines() if f"file={plugin}" in line], proc.stderr[-3000:]
    assert (tmp_path / "out" / "red.tif").stat().st_size > 0
