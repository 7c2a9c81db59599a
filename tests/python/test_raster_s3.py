"""Rasters read over S3's API: the Sentinel-2 bands uploaded to a local S3 server (npm s3rver on a loopback port,
started by the test) and read through GDAL's /vsis3/ with the endpoint and credentials given as environment variables
or as read_raster's `config` — the same EVI as from the local files, every GET a SigV4-signed range request with the
given key, nothing written under HOME (no key file), the secret in no output row; `recflow inspect` on a /vsis3/
band, saying which endpoint and credentials it used (environment, --config, a profile of ~/.aws/credentials) and never
the secret; a key the server does not know fails naming the dataset."""
import json
import os
import shutil
import subprocess
import threading
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest

rasterio = pytest.importorskip("rasterio")

ROOT = Path(__file__).resolve().parents[2]
NODE_DIR = ROOT / "tests" / "node"
EXAMPLE = ROOT / "examples" / "sentinel2-evi" / "pipeline.yaml"
KEY_ID, SECRET = "RECFLOWTESTKEY", "recflow-test-secret-0123456789"
BANDS = ("B02.tif", "B04.tif", "B08.tif")


class S3Server:
    """node s3_server.mjs: bucket `bands` in `directory`, the only key KEY_ID; `requests` the ones it received."""

    def __init__(self, directory):
        self.proc = subprocess.Popen(["node", str(NODE_DIR / "s3_server.mjs"), str(directory), "bands", KEY_ID, SECRET],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.port = json.loads(self.proc.stdout.readline())["port"]
        self._received = []  # every logged request, markers included, as the reader thread took them in
        self._first = 0  # the first of them `requests` shows (clear moves it)
        self._marks = 0
        self._changed = threading.Condition()
        self.reader = threading.Thread(target=self._read_log)
        self.reader.start()

    def _read_log(self):
        for line in self.proc.stdout:
            with self._changed:
                self._received.append(json.loads(line))
                self._changed.notify_all()

    def _settle(self):
        """Waits until the log holds every request answered so far: the server logs a request when it arrives, so
        once a marker request sent now is in the log, so is every request before it."""
        self._marks += 1
        mark = f"/recflow-test-marker/{self._marks}"
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{self.port}{mark}", timeout=30).close()
        except urllib.error.HTTPError:
            pass  # s3rver refuses the marker; it was logged all the same
        with self._changed:
            assert self._changed.wait_for(lambda: any(r["path"] == mark for r in self._received), timeout=60), mark

    @property
    def requests(self):
        """The requests received since the last `clear`, markers left out."""
        self._settle()
        with self._changed:
            return [r for r in self._received[self._first:] if not r["path"].startswith("/recflow-test-marker/")]

    def clear(self):
        """Forgets the requests received so far (all of them: their log lines are in)."""
        self._settle()
        with self._changed:
            self._first = len(self._received)

    def put(self, key, data):
        """An unsigned PUT (s3rver takes anonymous writes): the upload is not what the tests are about."""
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/bands/{key}", data=data, method="PUT")
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.status == 200

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)
        self.reader.join(timeout=30)


@pytest.fixture
def s3(testdata, tmp_path):
    if not (NODE_DIR / "node_modules" / "s3rver").is_dir() or shutil.which("node") is None:
        pytest.skip("s3rver not installed: run scripts/install-deps (npm ci --prefix tests/node)")
    (tmp_path / "s3").mkdir()
    server = S3Server(tmp_path / "s3")
    try:
        for name in BANDS:
            server.put(f"s2/{name}", (testdata / "raster" / "sentinel2-l2a" / name).read_bytes())
        server.clear()
        yield server
    finally:
        server.close()


def s3_options(server, key_id=KEY_ID):
    """GDAL's options for the local server: endpoint, plain HTTP, path-style buckets, the key pair."""
    return {"AWS_S3_ENDPOINT": f"127.0.0.1:{server.port}", "AWS_HTTPS": "NO", "AWS_VIRTUAL_HOSTING": "FALSE",
            "AWS_ACCESS_KEY_ID": key_id, "AWS_SECRET_ACCESS_KEY": SECRET}


def recflow(recflow_bin, home, *args, env_extra=None):
    """recflow with no AWS_* variable of the caller's, HOME an empty directory of the test's, and `env_extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(HOME=str(home), CPL_AWS_AUTODETECT_EC2="NO", **(env_extra or {}))
    return subprocess.run([str(recflow_bin), *map(str, args)], capture_output=True, text=True, timeout=300, env=env)


def scene(testdata, prefix):
    s2 = testdata / "raster" / "sentinel2-l2a"
    return {"scene_id": "s2", **{k: f"{prefix}/{b}" if prefix else str(s2 / b)
                                 for k, b in zip(("blue", "red", "nir"), BANDS)}}


def evi(path):
    with rasterio.open(path) as src:
        return src.read(1), src.transform, src.crs


def assert_signed_range_gets(server, prefix="/bands/s2/B0"):
    requests = server.requests
    gets = [r for r in requests if r["method"] == "GET"]
    assert gets, requests
    assert all(r["range"] and r["range"].startswith("bytes=") for r in gets), gets  # every GET a range request
    assert all(r["scheme"] == "AWS4-HMAC-SHA256" and r["key_id"] == KEY_ID for r in requests), requests
    assert all(r["path"].startswith(prefix) for r in requests), requests  # no listing


def test_the_example_reads_vsis3_with_the_endpoint_and_keys_from_the_environment(recflow_bin, testdata, tmp_path, s3):
    home = tmp_path / "home"
    home.mkdir()
    outputs = {}
    for name, env in (("local", None), ("s3", s3_options(s3))):
        (tmp_path / f"{name}.jsonl").write_text(json.dumps(scene(testdata, "/vsis3/bands/s2" if env else "")) + "\n")
        out = tmp_path / name
        result = recflow(recflow_bin, home, "run", EXAMPLE, "--set", f"scenes={tmp_path / f'{name}.jsonl'}",
                         "--set", f"out={out}", "--quiet", env_extra=env)
        assert result.returncode == 0, result.stderr
        outputs[name] = evi(out / "s2.tif")
    assert np.array_equal(outputs["local"][0], outputs["s3"][0], equal_nan=True)
    assert outputs["local"][1:] == outputs["s3"][1:]
    assert_signed_range_gets(s3)
    assert list(home.iterdir()) == []  # no key file, no cache, nothing under HOME


def test_read_rasters_config_gives_the_endpoint_and_keys_and_no_row_holds_the_secret(recflow_bin, testdata, tmp_path,
                                                                                   s3):
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "scenes.jsonl").write_text(json.dumps(scene(testdata, "/vsis3/bands/s2")) + "\n")
    config = json.dumps(s3_options(s3))
    (tmp_path / "p.yaml").write_text(f"""
steps:
  - read: {{path: {tmp_path / 'scenes.jsonl'}, format: jsonl}}
  - read_raster: {{datasets: {{blue: blue, red: red, nir: nir}}, scale: 0.0001, config: {config}}}
  - evi: {{output: evi}}
  - text_template: {{output: path, template: "{{scene_id}}.tif"}}
  - write_raster: {{column: evi, dir: {tmp_path / 'out'}, format: gtiff, overviews: false}}
  - write: {{path: {tmp_path / 'rows'}, format: jsonl}}
""")
    result = recflow(recflow_bin, home, "run", tmp_path / "p.yaml", "--quiet")
    assert result.returncode == 0, result.stderr
    (tmp_path / "local.jsonl").write_text(json.dumps(scene(testdata, "")) + "\n")
    local = recflow(recflow_bin, home, "run", EXAMPLE, "--set", f"scenes={tmp_path / 'local.jsonl'}",
                    "--set", f"out={tmp_path / 'local'}", "--quiet")
    assert local.returncode == 0, local.stderr
    got, want = evi(tmp_path / "out" / "s2.tif"), evi(tmp_path / "local" / "s2.tif")
    assert np.array_equal(got[0], want[0], equal_nan=True) and got[1:] == want[1:]
    assert_signed_range_gets(s3)
    rows = "".join(p.read_text() for p in (tmp_path / "rows").glob("*.jsonl"))
    assert "/vsis3/bands/s2/B04.tif" in rows and SECRET not in rows and KEY_ID not in rows
    assert list(home.iterdir()) == []


def test_inspect_describes_a_vsis3_band_as_the_local_file(recflow_bin, testdata, tmp_path, s3):
    home = tmp_path / "home"
    home.mkdir()
    remote = recflow(recflow_bin, home, "inspect", "--json", "/vsis3/bands/s2/B04.tif", env_extra=s3_options(s3))
    assert remote.returncode == 0, remote.stderr
    local = recflow(recflow_bin, home, "inspect", "--json", testdata / "raster" / "sentinel2-l2a" / "B04.tif")
    got, want = json.loads(remote.stdout), json.loads(local.stdout)
    assert got.pop("path") == "/vsis3/bands/s2/B04.tif"
    assert got.pop("access")["service"] == "s3" and want.pop("access") is None
    want.pop("path")
    assert got == want
    assert_signed_range_gets(s3)
    assert list(home.iterdir()) == []


def inspect_access(recflow_bin, home, *args, env_extra=None):
    """`recflow inspect` of the red band on the server, as text and as JSON: (text, the JSON's "access")."""
    outputs = [recflow(recflow_bin, home, "inspect", *flags, *args, "/vsis3/bands/s2/B04.tif", env_extra=env_extra)
               for flags in ((), ("--json",))]
    for result in outputs:
        assert result.returncode == 0, result.stderr
        assert SECRET not in result.stdout + result.stderr
    return outputs[0].stdout, json.loads(outputs[1].stdout)["access"]


def test_inspect_says_the_credentials_came_from_the_environment_with_their_key_id(recflow_bin, tmp_path, s3):
    home = tmp_path / "home"
    home.mkdir()
    text, access = inspect_access(recflow_bin, home, env_extra=s3_options(s3))
    assert access == {"service": "s3", "endpoint": f"127.0.0.1:{s3.port}", "endpoint_source": "environment",
                      "region": "us-east-1", "region_source": "default", "credentials": "environment",
                      "key_id": KEY_ID, "credentials_file": "", "https": False, "virtual_hosting": False,
                      "session_token": False}
    assert f"access:      s3, endpoint 127.0.0.1:{s3.port} (environment), http, path-style, region us-east-1 " \
           "(default)\n" in text
    assert f"credentials: environment, key id {KEY_ID}\n" in text
    assert_signed_range_gets(s3, prefix="/bands/s2/B04.tif")
    # A key the server refuses: the error says which key and endpoint were tried, not the secret.
    refused = recflow(recflow_bin, home, "inspect", "/vsis3/bands/s2/B04.tif",
                      env_extra=s3_options(s3, key_id="SOMEONEELSE"))
    assert refused.returncode != 0
    assert "/vsis3/bands/s2/B04.tif" in refused.stderr and SECRET not in refused.stderr
    assert "(credentials: environment, key id SOMEONEELSE; s3, endpoint 127.0.0.1:" in refused.stderr, refused.stderr


def test_inspect_takes_gdal_options_and_says_the_credentials_came_from_an_option(recflow_bin, tmp_path, s3):
    home = tmp_path / "home"
    home.mkdir()
    config = [arg for key, value in s3_options(s3).items() for arg in ("--config", f"{key}={value}")]
    text, access = inspect_access(recflow_bin, home, *config)
    assert (access["credentials"], access["key_id"], access["endpoint_source"]) == ("option", KEY_ID, "option")
    assert f"credentials: option, key id {KEY_ID}\n" in text
    assert_signed_range_gets(s3, prefix="/bands/s2/B04.tif")
    assert list(home.iterdir()) == []


def test_inspect_names_the_profile_of_the_users_credentials_file(recflow_bin, tmp_path, s3):
    """The file is the user's own (here the test's, in a temporary HOME): recflow reads it as GDAL does, writes none."""
    home = tmp_path / "home"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text(
        f"[default]\naws_access_key_id = NOTTHISONE\naws_secret_access_key = wrong\n"
        f"[survey]\naws_access_key_id = {KEY_ID}\naws_secret_access_key = {SECRET}\n")
    (home / ".aws" / "config").write_text("[profile survey]\nregion = eu-central-1\n")
    options = {k: v for k, v in s3_options(s3).items() if not k.startswith("AWS_SECRET") and k != "AWS_ACCESS_KEY_ID"}
    text, access = inspect_access(recflow_bin, home, env_extra={**options, "AWS_PROFILE": "survey"})
    assert access["credentials"] == "file (profile survey)" and access["key_id"] == KEY_ID
    assert access["credentials_file"] == str(home / ".aws" / "credentials")
    assert (access["region"], access["region_source"]) == ("eu-central-1", "config file (profile survey)")
    assert f"credentials: file (profile survey), key id {KEY_ID}, file {home / '.aws' / 'credentials'}\n" in text
    assert_signed_range_gets(s3, prefix="/bands/s2/B04.tif")  # GDAL signed with the profile's key too
    assert sorted(p.name for p in (home / ".aws").iterdir()) == ["config", "credentials"]


def test_a_key_the_server_does_not_know_fails_naming_the_dataset(recflow_bin, testdata, tmp_path, s3):
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "scenes.jsonl").write_text(json.dumps(scene(testdata, "/vsis3/bands/s2")) + "\n")
    result = recflow(recflow_bin, home, "run", EXAMPLE, "--set", f"scenes={tmp_path / 'scenes.jsonl'}",
                     "--set", f"out={tmp_path / 'out'}", "--quiet", env_extra=s3_options(s3, key_id="SOMEONEELSE"))
    assert result.returncode != 0
    assert "/vsis3/bands/s2/B02.tif" in result.stderr, result.stderr
    assert "The AWS Access Key Id you provided does not exist" in result.stderr, result.stderr
    assert SECRET not in result.stderr
    requests = s3.requests
    assert [r["key_id"] for r in requests] and all(r["key_id"] == "SOMEONEELSE" for r in requests)


def test_a_mosaic_reads_each_raster_with_its_own_read_rasters_config(recflow_bin, testdata, tmp_path, s3):
    """Two crops of the red band, one on the S3 server (keys in one read_raster's config), one over /vsicurl/ behind
    basic authorization (the password in another's): the mosaic reads both, with the two configurations merged, and
    equals the mosaic of the local crops."""
    from range_server_util import RangeServer

    band = testdata / "raster" / "sentinel2-l2a" / "B04.tif"
    crops = {}
    for name, window in (("a", (0, 0, 600, 500)), ("b", (400, 300, 600, 600))):
        crops[name] = tmp_path / f"{name}.tif"
        subprocess.run(["gdal_translate", "-q", "-srcwin", *map(str, window), str(band), str(crops[name])], check=True)
    s3.put("crops/a.tif", crops["a"].read_bytes())
    s3.clear()
    server = RangeServer(crops["b"], userpwd="reader:s3cret")
    home = tmp_path / "home"
    home.mkdir()

    def mosaic(name, a, b, a_config, b_config):
        for part, path in (("a", a), ("b", b)):
            (tmp_path / f"{name}-{part}.jsonl").write_text(json.dumps({"tile": "t", "path": str(path)}) + "\n")
        (tmp_path / f"{name}.yaml").write_text(f"""
steps:
  - {{name: read_a, read: {{path: {tmp_path / f'{name}-a.jsonl'}, format: jsonl}}}}
  - {{name: raster_a, read_raster: {{datasets: {{red: path}}, config: {json.dumps(a_config)}}}}}
  - {{name: read_b, read: {{path: {tmp_path / f'{name}-b.jsonl'}, format: jsonl}}}}
  - {{name: raster_b, read_raster: {{datasets: {{red: path}}, config: {json.dumps(b_config)}}}}}
  - {{name: both, input: [raster_a, raster_b], flatten: {{}}}}
  - select: [tile, raster]
  - group_by_key: [tile]
  - mosaic: {{rule: first}}
  - text_template: {{output: path, template: "{{tile}}.tif"}}
  - write_raster: {{dir: {tmp_path / name}, format: gtiff, compress: none, overviews: false}}
  - write: {{path: {tmp_path / f'{name}-rows'}, format: jsonl}}
""")
        result = recflow(recflow_bin, home, "run", tmp_path / f"{name}.yaml", "--quiet")
        assert result.returncode == 0, result.stderr
        return evi(tmp_path / name / "t.tif")

    try:
        remote = mosaic("remote", "/vsis3/bands/crops/a.tif", f"/vsicurl/{server.url}", s3_options(s3),
                        {"GDAL_HTTP_USERPWD": "reader:s3cret"})
    finally:
        server.close()
    local = mosaic("local", crops["a"], crops["b"], {}, {})
    assert server.refused == 0
    assert np.array_equal(remote[0], local[0], equal_nan=True) and remote[1:] == local[1:]
    assert_signed_range_gets(s3, prefix="/bands/crops/a.tif")
    assert list(home.iterdir()) == []


def test_inspects_config_must_be_key_value_and_is_for_rasters_only(recflow_bin, testdata, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    band = testdata / "raster" / "sentinel2-l2a" / "B04.tif"
    malformed = recflow(recflow_bin, home, "inspect", "--config", "AWS_HTTPS", band)
    assert malformed.returncode != 0 and "--config AWS_HTTPS: expected KEY=VALUE" in malformed.stderr, malformed.stderr
    (tmp_path / "rows.jsonl").write_text('{"a": 1}\n')
    rows = recflow(recflow_bin, home, "inspect", "--config", "AWS_HTTPS=NO", tmp_path / "rows.jsonl")
    assert rows.returncode != 0 and "GDAL options apply to raster inputs only" in rows.stderr, rows.stderr


def test_a_password_written_into_a_vsicurl_url_is_never_printed(recflow_bin, testdata, tmp_path):
    """A /vsicurl/ dataset named with its user and password inline: `recflow inspect` names it with the password
    masked (and the user as the credentials' key id); a refused password's errors, from inspect and from a pipeline's
    read_raster, name the dataset so too. No output holds either password."""
    from range_server_util import RangeServer

    home = tmp_path / "home"
    home.mkdir()
    server = RangeServer(testdata / "raster" / "sentinel2-l2a" / "B04.tif", userpwd="reader:s3cret")
    try:
        good = server.url.replace("http://", "http://reader:s3cret@")
        bad = server.url.replace("http://", "http://reader:wr0ng@")
        inspected = recflow(recflow_bin, home, "inspect", "--json", f"/vsicurl/{good}")
        assert inspected.returncode == 0, inspected.stderr
        info = json.loads(inspected.stdout.splitlines()[0])
        assert info["path"] == f"/vsicurl/{server.url.replace('http://', 'http://reader:***@')}"
        assert (info["access"]["credentials"], info["access"]["key_id"]) == ("URL", "reader")
        text = recflow(recflow_bin, home, "inspect", f"/vsicurl/{good}")
        assert text.returncode == 0 and "reader:***@" in text.stdout, text.stdout + text.stderr
        refused = recflow(recflow_bin, home, "inspect", f"/vsicurl/{bad}")
        assert refused.returncode != 0 and "reader:***@127.0.0.1" in refused.stderr, refused.stderr
        (tmp_path / "scenes.jsonl").write_text(json.dumps({"red": f"/vsicurl/{bad}"}) + "\n")
        (tmp_path / "p.yaml").write_text(f"""
steps:
  - read: {{path: {tmp_path / 'scenes.jsonl'}, format: jsonl}}
  - read_raster: {{datasets: {{red: red}}}}
  - write: {{path: {tmp_path / 'out'}, format: jsonl}}
""")
        run = recflow(recflow_bin, home, "run", tmp_path / "p.yaml", "--quiet")
        assert run.returncode != 0 and "reader:***@127.0.0.1" in run.stderr, run.stderr
        for result in (inspected, text, refused, run):
            assert "s3cret" not in result.stdout + result.stderr and "wr0ng" not in result.stdout + result.stderr
    finally:
        server.close()
