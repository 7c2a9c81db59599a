"""`recflow serve`: live tcp and unix endpoints read by Python sockets, `recflow cat` and Apache Arrow JS."""
import contextlib
import fcntl
import json
import os
import re
import resource
import socket
import struct
import subprocess
import termios
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from node_util import run_node

END_OF_STREAM = b"\xff\xff\xff\xff\x00\x00\x00\x00"
ROWS = 5000
TIMEOUT_S = 60  # every wait is bounded: a hang fails the test instead of stalling CI


@pytest.fixture
def rows_csv(tmp_path):
    path = tmp_path / "rows.csv"
    with path.open("w") as f:
        f.write("id,value,text\n")
        for i in range(ROWS):
            f.write(f"{i},{i * 0.25},row {i} of the input\n")
    return path


class Served:
    """A running `recflow serve`: its bound endpoint, its process and its log (stderr)."""

    def __init__(self, endpoint: str, proc: subprocess.Popen, log_path):
        self.endpoint = endpoint
        self.proc = proc
        self.log_path = log_path

    def log(self) -> str:
        return self.log_path.read_text()

    def wait_for_log(self, text: str, count: int = 1):
        """Waits until `count` log lines contain `text` (a bound on a hang: TIMEOUT_S)."""
        deadline = time.monotonic() + TIMEOUT_S
        while sum(text in line for line in self.log().splitlines()) < count:
            assert time.monotonic() < deadline, f"no {count} lines with {text!r} in: {self.log()}"
            time.sleep(0.02)

    def rss_mib(self) -> float:
        """The server's resident memory now (VmRSS)."""
        for line in open(f"/proc/{self.proc.pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise AssertionError("no VmRSS")


@pytest.fixture
def serve(recflow_bin, tmp_path):
    """Starts `recflow serve ARGS`; returns a Served once it reports its endpoint. Stderr goes to a
    file (a pipe nobody reads could fill up); every server started is stopped at teardown,
    killed if need be."""
    servers = []

    def _serve(*args, descriptors: int = None) -> Served:
        """`descriptors`: the soft limit on open descriptors the server starts with."""
        log_path = tmp_path / f"serve{len(servers)}.log"
        log = log_path.open("w")
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        limit = None if descriptors is None else lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (descriptors, hard))
        proc = subprocess.Popen([str(recflow_bin), "serve", *map(str, args)], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=log, preexec_fn=limit)
        servers.append((proc, log))
        deadline = time.monotonic() + TIMEOUT_S
        while time.monotonic() < deadline:
            found = re.search(r"listening on (\S+)", log_path.read_text())
            if found:
                return Served(found.group(1), proc, log_path)
            assert proc.poll() is None, f"recflow serve exited: {log_path.read_text()}"
            time.sleep(0.02)
        pytest.fail("recflow serve did not report its endpoint")

    yield _serve
    for proc, log in servers:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


def connect(endpoint: str) -> socket.socket:
    if endpoint.startswith("unix://"):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(TIMEOUT_S)
        sock.connect(endpoint[len("unix://"):])
        return sock
    host, port = endpoint[len("tcp://"):].rsplit(":", 1)
    return socket.create_connection((host, int(port)), timeout=TIMEOUT_S)


def read_pass(endpoint: str) -> bytes:
    """One pass: every byte until the server closes the connection (recv returns b"")."""
    with contextlib.closing(connect(endpoint)) as sock:
        chunks = []
        while True:
            chunk = sock.recv(1 << 16)  # a connection left open raises socket.timeout
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)


def cat_lines(run, path) -> list:
    result = run("cat", path)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def read_with_arrow_js(endpoint: str) -> dict:
    result = run_node("arrow_serve_read.mjs", endpoint, timeout=TIMEOUT_S)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def endpoint_for(kind: str, tmp_path) -> str:
    return "tcp://127.0.0.1:0" if kind == "tcp" else f"unix://{tmp_path}/serve.sock"


@pytest.mark.parametrize("kind", ["tcp", "unix"])
def test_concurrent_clients_each_read_the_whole_input_in_order(run, serve, rows_csv, tmp_path, kind):
    endpoint = serve(rows_csv, "--listen", endpoint_for(kind, tmp_path), "--batch-size", "100").endpoint
    with ThreadPoolExecutor(max_workers=6) as pool:
        passes = list(pool.map(lambda _: read_pass(endpoint), range(6)))
    assert all(p.endswith(END_OF_STREAM) for p in passes)
    assert all(p == passes[0] for p in passes)  # every client got the same stream
    received = tmp_path / "received.arrows"
    received.write_bytes(passes[0])
    expected = cat_lines(run, rows_csv)
    assert len(expected) == ROWS
    assert cat_lines(run, received) == expected
    # recflow's own client reads the live endpoint too.
    assert cat_lines(run, endpoint) == expected


@pytest.mark.parametrize("mode,sizes", [
    ("keep_remainder", [7] * (ROWS // 7) + [ROWS % 7]),
    ("drop_remainder", [7] * (ROWS // 7)),
])
def test_batch_modes_give_tensorflow_io_batch_sizes(serve, rows_csv, tmp_path, mode, sizes):
    endpoint = serve(rows_csv, "--listen", endpoint_for("unix", tmp_path), "--batch-size", "7",
                     "--batch-mode", mode).endpoint
    table = read_with_arrow_js(endpoint)
    assert table["batches"] == sizes
    assert table["columns"]["id"] == list(range(sum(sizes)))


def test_the_default_batch_is_16384_rows(serve, tmp_path):
    # The default clients that cut their own batches read fastest at (BENCHMARKS.md, docs/serve.md).
    rows = 16384 + 100
    path = tmp_path / "many.csv"
    path.write_text("id\n" + "".join(f"{i}\n" for i in range(rows)))
    table = read_with_arrow_js(serve(path, "--listen", endpoint_for("unix", tmp_path)).endpoint)
    assert table["batches"] == [16384, 100]
    assert table["columns"]["id"] == list(range(rows))


def test_auto_batch_mode_passes_batches_as_they_come(serve, rows_csv, tmp_path):
    # A small block size cuts the CSV into several units: auto keeps their sizes, not 7.
    endpoint = serve(rows_csv, "--listen", endpoint_for("tcp", tmp_path), "--batch-size", "7", "--batch-mode", "auto",
                     "--block-size", "16384").endpoint
    table = read_with_arrow_js(endpoint)
    assert sum(table["batches"]) == ROWS and len(table["batches"]) > 1
    assert any(size != 7 for size in table["batches"])
    assert table["columns"]["id"] == list(range(ROWS))


@pytest.mark.parametrize("kind", ["tcp", "unix"])
def test_arrow_js_reads_a_live_endpoint(run, serve, rows_csv, tmp_path, kind):
    endpoint = serve(rows_csv, "--listen", endpoint_for(kind, tmp_path)).endpoint
    with ThreadPoolExecutor(max_workers=3) as pool:  # concurrent Arrow JS clients
        tables = list(pool.map(lambda _: read_with_arrow_js(endpoint), range(3)))
    rows = [json.loads(line) for line in cat_lines(run, rows_csv)]
    for table in tables:
        assert table["schema"] == ["id", "value", "text"]
        assert table["rows"] == ROWS
        assert [dict(zip(table["schema"], values)) for values in zip(*table["columns"].values())] == rows


def test_listen_dash_streams_one_pass_to_stdout(recflow_bin, run, serve, rows_csv, tmp_path):
    result = subprocess.run([str(recflow_bin), "serve", str(rows_csv), "--listen", "-", "--batch-size", "100"],
                            capture_output=True, timeout=TIMEOUT_S)
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith(END_OF_STREAM)
    # The same bytes a socket client receives.
    served = serve(rows_csv, "--listen", endpoint_for("tcp", tmp_path), "--batch-size", "100")
    assert result.stdout == read_pass(served.endpoint)
    received = tmp_path / "stdout.arrows"
    received.write_bytes(result.stdout)
    assert cat_lines(run, received) == cat_lines(run, rows_csv)


def test_a_refused_client_reads_why_with_arrow_js_and_recflow_cat(run, serve, big_csv, tmp_path):
    served = serve(big_csv, "--listen", endpoint_for("unix", tmp_path), "--max-clients", "1", "--max-waiting", "0")
    with contextlib.closing(connect(served.endpoint)):  # takes the only pass and never reads: it stalls
        served.wait_for_log("client 1: connected")
        # Arrow JS reads a valid empty stream whose schema metadata says why.
        table = read_with_arrow_js(served.endpoint)
        assert table["schema"] == [] and table["rows"] == 0
        assert table["metadata"]["recflow.error"].startswith("the server is busy (passes running: 1 of 1")
        # recflow's own client fails with that reason.
        result = run("cat", served.endpoint)
        assert result.returncode == 1
        assert "refused by the server: the server is busy (passes running: 1 of 1" in result.stderr
    served.wait_for_log(": refused: the server is busy", 2)


def test_serve_raises_its_descriptor_limit_for_many_clients(serve, rows_csv, tmp_path):
    # Started with a soft limit of 64 descriptors, the server still takes 150 clients at once.
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if hard != resource.RLIM_INFINITY and hard < 512:
        pytest.skip(f"the hard limit on descriptors is {hard}")
    served = serve(rows_csv, "--listen", endpoint_for("unix", tmp_path), descriptors=64)
    clients = [connect(served.endpoint) for _ in range(150)]
    served.wait_for_log(": connected", 150)
    assert "out of file descriptors" not in served.log()
    for c in clients:
        c.close()


@pytest.fixture
def big_csv(tmp_path):
    """300 000 rows (24 MB): 1 MiB blocks of about 13 000 rows."""
    csv = tmp_path / "big.csv"
    with csv.open("w") as f:
        f.write("id,value,text\n")
        for i in range(300000):
            f.write(f"{i},{i * 0.25},row {i} of the input with some padding text to make it longer\n")
    return csv


@pytest.fixture
def big_tfrecord(run, big_csv, tmp_path):
    """The rows of big_csv as tf.Examples (38 MB, written by recflow convert): 4 MiB units."""
    result = run("convert", big_csv, "-o", tmp_path / "tfr", "--to", "tfrecord")
    assert result.returncode == 0, result.stderr
    return next((tmp_path / "tfr").glob("*.tfrecord"))


def received_bytes(sock: socket.socket) -> int:
    """Bytes waiting unread in `sock`'s receive buffer (FIONREAD)."""
    return struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.FIONREAD, b"\0\0\0\0"))[0]


def test_memory_goes_back_when_64_stalled_clients_leave(recflow_bin, serve, big_tfrecord, tmp_path):
    # 64 clients connect and never read: each pass stops in a send, holding its decoded unit.
    # When they leave, the memory goes back to the system (it stayed: ~880 MiB of ~1.6 GiB).
    if "libasan" in subprocess.run(["ldd", str(recflow_bin)], capture_output=True, text=True).stdout:
        pytest.skip("under AddressSanitizer, memory is ASan's allocator's: malloc_trim does not apply")
    served = serve(big_tfrecord, "--listen", endpoint_for("tcp", tmp_path), "--send-timeout-ms", "600000")
    baseline = served.rss_mib()
    clients = [connect(served.endpoint) for _ in range(64)]
    deadline = time.monotonic() + TIMEOUT_S
    while min(received_bytes(c) for c in clients) < 32 << 10:  # every pass has decoded a unit and sent
        assert time.monotonic() < deadline, "the passes did not start"
        time.sleep(0.05)
    with_clients = served.rss_mib()
    for c in clients:
        c.close()
    served.wait_for_log(": dropped", 64)
    after = served.rss_mib()
    print(f"RSS: {baseline:.0f} MiB idle, {with_clients:.0f} MiB with 64 stalled clients, {after:.0f} MiB after")
    assert with_clients > baseline + 100  # the passes held memory (else this proves nothing)
    assert after < baseline + 100


def test_a_pass_over_the_client_memory_cap_stops_and_says_which_option_raises_it(serve, big_csv, rows_csv,
                                                                                  tmp_path):
    served = serve(big_csv, "--listen", endpoint_for("tcp", tmp_path), "--client-memory-mb", "1")
    with pytest.raises(ConnectionResetError):  # a dropped client's connection is reset
        read_pass(served.endpoint)
    served.wait_for_log("client 1: dropped")
    assert "more than the 1.0 MiB one client may hold: raise --client-memory-mb" in served.log()
    served = serve(rows_csv, "--listen", endpoint_for("unix", tmp_path), "--batch-size", "1000000")
    assert read_pass(served.endpoint).endswith(END_OF_STREAM)


def test_sigterm_stops_the_server_even_when_nobody_reads_its_stderr(recflow_bin, tmp_path):
    # stderr is a one-page pipe read only up to the "listening on" line: the log lines of 200
    # passes fill it and the log blocks. The clients still get whole passes, and SIGTERM still
    # stops the server (the log lines it cannot write then are dropped). Before, a worker
    # blocked in its log line, and Stop() waited for it forever.
    csv = tmp_path / "small.csv"
    csv.write_text("id\n" + "".join(f"{i}\n" for i in range(10)))
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, getattr(fcntl, "F_SETPIPE_SZ", 1031), 4096)
    proc = subprocess.Popen([str(recflow_bin), "serve", str(csv), "--listen", f"unix://{tmp_path}/s.sock"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=write_end)
    os.close(write_end)
    try:
        with os.fdopen(read_end, "rb", buffering=0) as log:
            first = b""
            while not first.endswith(b"\n"):  # bounded: the process ends and the read returns b""
                byte = log.read(1)
                assert byte, f"recflow serve exited: {first!r}"
                first += byte
            assert b"listening on unix://" in first
            for _ in range(200):
                assert read_pass(f"unix://{tmp_path}/s.sock").endswith(END_OF_STREAM)
            proc.terminate()
            assert proc.wait(timeout=TIMEOUT_S) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=TIMEOUT_S)


# A served pipeline: TensorFlow's penguin records (TFX test data), filtered, scaled and projected; `data` and
# `min_mass` are set on the command line.
PENGUIN_PIPELINE = """
name: penguins-served
params: {data: none, min_mass: "0"}
steps:
  - read: {path: "${data}"}
  - filter: "body_mass_g > ${min_mass} and species != 2"
  - standard_scale: [culmen_length_mm, body_mass_g]
  - select: [species, culmen_length_mm, body_mass_g]
"""


def penguins_expected(pb, source, min_mass: float) -> dict:
    """The served columns computed independently: records parsed by python3-protobuf, filtered, then
    (x - mean) / population std."""
    from statistics import fmean, pstdev
    from tfrecord_util import read_tfrecord

    rows = []
    for record in read_tfrecord(source):
        feature = pb.Example.FromString(record).features.feature
        species = feature["species"].int64_list.value[0]
        mass = feature["body_mass_g"].float_list.value[0]
        if mass > min_mass and species != 2:
            rows.append((species, feature["culmen_length_mm"].float_list.value[0], mass))
    columns = {"species": [r[0] for r in rows]}
    for name, values in (("culmen_length_mm", [r[1] for r in rows]), ("body_mass_g", [r[2] for r in rows])):
        mean, std = fmean(values), pstdev(values)
        columns[name] = [(v - mean) / std for v in values]
    return columns


@pytest.mark.parametrize("kind", ["tcp", "unix"])
def test_a_pipeline_runs_for_each_connection_and_arrow_js_reads_its_output(serve, testdata, pb, tmp_path, kind):
    source = testdata / "tfrecord" / "tfx" / "penguin-train.tfrecord.gz"
    pipeline = tmp_path / "penguins.yaml"
    pipeline.write_text(PENGUIN_PIPELINE)
    served = serve(pipeline, "--listen", endpoint_for(kind, tmp_path), "--batch-size", "16", "--set", f"data={source}",
                   "--set", "min_mass=0.3")
    served.wait_for_log(f"each connection runs {pipeline} and gets step 'select'")
    expected = penguins_expected(pb, source, 0.3)
    rows = len(expected["species"])
    assert 16 < rows < 234
    with ThreadPoolExecutor(max_workers=2) as pool:  # concurrent connections, each its own run
        tables = list(pool.map(lambda _: read_with_arrow_js(served.endpoint), range(2)))
    for table in tables:
        assert table["schema"] == ["species", "culmen_length_mm", "body_mass_g"]
        assert table["batches"] == [16] * (rows // 16) + ([rows % 16] if rows % 16 else [])
        assert table["columns"]["species"] == expected["species"]
        for name in ("culmen_length_mm", "body_mass_g"):
            assert table["columns"][name] == pytest.approx(expected[name], rel=1e-9, abs=1e-12), name
    served.wait_for_log("pass complete", count=2)


def test_a_pipeline_step_chosen_with_output_streams_on_stdout(recflow_bin, run, testdata, pb, tmp_path):
    source = testdata / "tfrecord" / "tfx" / "penguin-train.tfrecord.gz"
    pipeline = tmp_path / "penguins.yaml"
    pipeline.write_text(PENGUIN_PIPELINE)
    result = subprocess.run([str(recflow_bin), "serve", str(pipeline), "--listen", "-", "--output", "filter", "--set",
                             f"data={source}", "--set", "min_mass=0.5", "--threads", "2"],
                            capture_output=True, timeout=TIMEOUT_S)
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith(END_OF_STREAM)
    received = tmp_path / "filtered.arrows"
    received.write_bytes(result.stdout)
    species = [json.loads(line)["species"] for line in cat_lines(run, received)]
    # The rows the filter keeps, unscaled, as many as the independent computation finds.
    assert species == penguins_expected(pb, source, 0.5)["species"]


def test_serving_a_pipeline_says_what_is_wrong(run, tmp_path, rows_csv):
    two_leaves = tmp_path / "two.yaml"
    two_leaves.write_text(f"""
steps:
  - read: {rows_csv}
  - name: small
    filter: "id < 10"
  - name: big
    input: read
    filter: "id >= 10"
""")
    result = run("serve", two_leaves, "--listen", "-")
    assert result.returncode == 2
    assert "the pipeline has 2 steps nothing reads ('small', 'big'): choose the one to serve with --output STEP" in \
        result.stderr
    result = run("serve", two_leaves, "--listen", "-", "--output", "nope")
    assert result.returncode == 2
    assert "--output nope: no such step ('read', 'small', 'big')" in result.stderr
    writes = tmp_path / "writes.yaml"
    writes.write_text(f"steps:\n  - read: {rows_csv}\n  - write: {{path: {tmp_path / 'out'}}}\n")
    result = run("serve", writes, "--listen", "-")
    assert result.returncode == 2
    assert "step 'write' writes files: a served pipeline runs once per connection and may only stream" in result.stderr
    assert not (tmp_path / "out").exists()
    result = run("serve", two_leaves, "--listen", "-", "--columns", "id")
    assert result.returncode == 2 and "--columns and --transform apply to input files" in result.stderr
    result = run("serve", rows_csv, "--listen", "-", "--output", "small")
    assert result.returncode == 2 and "--output and --set choose a step and parameters of a pipeline" in result.stderr


def test_a_client_leaving_a_served_pipeline_drops_only_its_own_run(serve, big_csv, tmp_path):
    pipeline = tmp_path / "big.yaml"
    pipeline.write_text(f"steps:\n  - read: {big_csv}\n  - filter: \"id < 150000\"\n")
    served = serve(pipeline, "--listen", endpoint_for("unix", tmp_path), "--batch-size", "1000")
    with contextlib.closing(connect(served.endpoint)) as leaving:
        assert len(leaving.recv(1 << 10)) > 0  # its run has started streaming
        leaving.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # leave with a reset
    served.wait_for_log("client 1: dropped")
    table = run_node("arrow_serve_read.mjs", served.endpoint, "--count", timeout=TIMEOUT_S)
    assert table.returncode == 0, table.stderr
    assert json.loads(table.stdout)["rows"] == 150000
    served.wait_for_log("client 2: pass complete")


def test_transform_standard_scale_serves_what_the_pipelines_standard_scale_step_does(recflow_bin, run, testdata,
                                                                                     tmp_path):
    # The short form's scaling and the pipeline step share one kernel: the same bytes for the same rows.
    csv = testdata / "csv" / "penguins_processed.csv"
    short = subprocess.run([str(recflow_bin), "serve", str(csv), "--listen", "-", "--columns",
                            "species,body_mass_g", "--transform", "standard-scale:body_mass_g"],
                           capture_output=True, timeout=TIMEOUT_S)
    assert short.returncode == 0, short.stderr
    pipeline = tmp_path / "scale.yaml"
    pipeline.write_text(f"steps:\n  - read: {csv}\n  - select: [species, body_mass_g]\n"
                        "  - standard_scale: [body_mass_g]\n")
    served = subprocess.run([str(recflow_bin), "serve", str(pipeline), "--listen", "-"], capture_output=True,
                            timeout=TIMEOUT_S)
    assert served.returncode == 0, served.stderr
    assert short.stdout == served.stdout
    from statistics import fmean, pstdev
    masses = [float(line.split(",")[4]) for line in csv.read_text().splitlines()[1:]]
    received = tmp_path / "short.arrows"
    received.write_bytes(short.stdout)
    got = [json.loads(line)["body_mass_g"] for line in cat_lines(run, received)]
    assert got == pytest.approx([(m - fmean(masses)) / pstdev(masses) for m in masses], rel=1e-9, abs=1e-12)
