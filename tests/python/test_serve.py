"""`recflow serve`: live tcp and unix endpoints read by Python sockets, `recflow cat` and Apache Arrow JS."""
import contextlib
import json
import re
import socket
import subprocess
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


@pytest.fixture
def serve(recflow_bin, tmp_path):
    """Starts `recflow serve ARGS`; returns its bound endpoint. Stderr goes to a file (a pipe
    nobody reads could fill up); every server started is stopped at teardown, killed if need be."""
    servers = []

    def _serve(*args):
        log_path = tmp_path / f"serve{len(servers)}.log"
        log = log_path.open("w")
        proc = subprocess.Popen([str(recflow_bin), "serve", *map(str, args)], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=log)
        servers.append((proc, log))
        deadline = time.monotonic() + TIMEOUT_S
        while time.monotonic() < deadline:
            found = re.search(r"listening on (\S+)", log_path.read_text())
            if found:
                return found.group(1)
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
    endpoint = serve(rows_csv, "--listen", endpoint_for(kind, tmp_path), "--batch-size", "100")
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
    endpoint = serve(rows_csv, "--listen", endpoint_for("unix", tmp_path), "--batch-size", "7", "--batch-mode", mode)
    table = read_with_arrow_js(endpoint)
    assert table["batches"] == sizes
    assert table["columns"]["id"] == list(range(sum(sizes)))


def test_auto_batch_mode_passes_batches_as_they_come(serve, rows_csv, tmp_path):
    # A small block size cuts the CSV into several units: auto keeps their sizes, not 7.
    endpoint = serve(rows_csv, "--listen", endpoint_for("tcp", tmp_path), "--batch-size", "7", "--batch-mode", "auto",
                     "--block-size", "16384")
    table = read_with_arrow_js(endpoint)
    assert sum(table["batches"]) == ROWS and len(table["batches"]) > 1
    assert any(size != 7 for size in table["batches"])
    assert table["columns"]["id"] == list(range(ROWS))


@pytest.mark.parametrize("kind", ["tcp", "unix"])
def test_arrow_js_reads_a_live_endpoint(run, serve, rows_csv, tmp_path, kind):
    endpoint = serve(rows_csv, "--listen", endpoint_for(kind, tmp_path))
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
    assert result.stdout == read_pass(serve(rows_csv, "--listen", endpoint_for("tcp", tmp_path), "--batch-size", "100"))
    received = tmp_path / "stdout.arrows"
    received.write_bytes(result.stdout)
    assert cat_lines(run, received) == cat_lines(run, rows_csv)
