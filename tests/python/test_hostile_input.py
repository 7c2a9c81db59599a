"""Hostile input: gzip bombs, records over the memory cap, damaged files and multi-GB standard input, read in bounded
memory with errors that name the file, the record and the byte offset."""
import gzip
import json
import os
import resource
import struct
import subprocess
import sys
import threading

import pytest

from tfrecord_util import frame, masked_crc

MIB = 1 << 20


def zeros_gzip(n_mib: int) -> bytes:
    """n_mib MiB of zero bytes as concatenated gzip members (one per MiB: built in a moment, ~1 KiB each)."""
    return gzip.compress(bytes(MIB), mtime=0) * n_mib


# Linux keeps the peak RSS of a process across exec, so a child forked from this (large) test
# process would start with its size: a fresh interpreter execs the command instead.
EXEC = [sys.executable, "-c", "import os, sys; os.execv(sys.argv[1], sys.argv[1:])"]


def run_measured(cmd, stdin_writer=None, preexec_fn=None, keep_stdout=True):
    """Runs cmd; returns (returncode, stdout bytes or its line count, stderr text, peak RSS in MiB from wait4)."""
    proc = subprocess.Popen([*EXEC, *map(str, cmd)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=preexec_fn)
    out, err = [], []

    def count_lines():
        out.append(sum(chunk.count(b"\n") for chunk in iter(lambda: proc.stdout.read(MIB), b"")))

    readers = [threading.Thread(target=(lambda: out.append(proc.stdout.read())) if keep_stdout else count_lines),
               threading.Thread(target=lambda: err.append(proc.stderr.read()))]
    for t in readers:
        t.start()
    try:
        if stdin_writer is not None:
            stdin_writer(proc.stdin)
    except BrokenPipeError:
        pass
    finally:
        try:
            proc.stdin.close()
        except BrokenPipeError:
            pass
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    for t in readers:
        t.join(timeout=120)
    stuck = [name for name, t in zip(["stdout", "stderr"], readers) if t.is_alive()]
    assert not stuck, f"{cmd}: its {' and '.join(stuck)} did not reach its end within 120 s of its exit"
    return proc.returncode, out[0], err[0].decode(), usage.ru_maxrss / 1024


def example(payload: bytes) -> bytes:
    """A serialized tf.Example with one bytes feature `b` holding `payload` (wire format built by hand)."""
    def varint(n):
        out = b""
        while True:
            b, n = n & 0x7F, n >> 7
            if not n:
                return out + bytes([b])
            out += bytes([b | 0x80])

    def field(number, data):
        return bytes([number << 3 | 2]) + varint(len(data)) + data

    feature = field(1, field(1, payload))  # Feature.bytes_list.value
    entry = field(1, b"b") + field(2, feature)
    return field(1, field(1, entry))  # Example.features.feature


@pytest.fixture(scope="module")
def startup_rss(recflow_bin):
    """Peak RSS in MiB of the binary doing nothing (`--version`): what it costs before it reads a byte. The
    bounds below are on what reading adds to it (a sanitized build maps hundreds of MiB of shadow memory for
    the shared libraries it loads at startup)."""
    code, _, err, rss = run_measured([recflow_bin, "--version"])
    assert code == 0, err
    return rss


@pytest.mark.parametrize("command", ["cat", "inspect", "convert"])
def test_a_gzip_bomb_fails_at_offset_0_without_inflating_it(recflow_bin, startup_rss, tmp_path, command):
    bomb = tmp_path / "bomb.tfrecord.gz"
    bomb.write_bytes(zeros_gzip(2048))  # 2 GiB of zeros in 2 MiB
    extra = ["-o", tmp_path / "out", "--no-sync"] if command == "convert" else []
    code, _, err, rss = run_measured([recflow_bin, command, bomb, *extra])
    assert code == 1, err
    assert f"{bomb}: record 0, byte offset 0: bad length CRC" in err
    assert rss - startup_rss < 160, f"peak RSS {rss:.0f} MiB, {startup_rss:.0f} MiB at startup"


def record_over_the_cap(path, length, zeros_mib=1):
    """A gzip file whose first record header announces `length` bytes, followed by zeros_mib MiB of zeros."""
    header = struct.pack("<Q", length)
    path.write_bytes(gzip.compress(header + struct.pack("<I", masked_crc(header)), mtime=0) + zeros_gzip(zeros_mib))


@pytest.mark.parametrize("command", ["cat", "inspect", "convert"])
def test_a_record_over_the_memory_cap_is_refused_before_it_is_buffered(recflow_bin, startup_rss, tmp_path, command):
    big = tmp_path / "big.tfrecord.gz"
    record_over_the_cap(big, (1 << 31) - 1)
    extra = ["-o", tmp_path / "out", "--no-sync"] if command == "convert" else []
    code, _, err, rss = run_measured([recflow_bin, command, big, *extra])
    assert code == 1, err
    assert (f"{big}: record 0, byte offset 0: record of 2147483647 bytes is larger than the reader's limit of "
            "1073741824 bytes (max_record_bytes; --max-record-bytes raises it)") in err
    assert rss - startup_rss < 160, f"peak RSS {rss:.0f} MiB, {startup_rss:.0f} MiB at startup"


def test_max_record_bytes_sets_the_cap(run, tmp_path):
    src = tmp_path / "rows.tfrecord"
    src.write_bytes(frame(example(b"x" * 5000)) * 3)
    small = run("cat", "--max-record-bytes", "4K", src)
    assert small.returncode == 1 and "larger than the reader's limit of 4096 bytes" in small.stderr
    assert len(run("cat", "--max-record-bytes", "8K", src).stdout.splitlines()) == 3
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text(f"steps:\n  - read: {{path: {src}, max_record_bytes: 4096}}\n"
                        f"  - write: {{path: {tmp_path / 'out'}, format: jsonl}}\n")
    refused = run("run", pipeline, "--quiet")
    assert refused.returncode == 1 and "larger than the reader's limit of 4096 bytes" in refused.stderr


def test_out_of_memory_is_an_error_naming_the_file_never_bad_alloc(recflow_bin, tmp_path):
    if "debug" in str(recflow_bin):
        pytest.skip("an address-space limit and AddressSanitizer do not mix")
    big = tmp_path / "big.tfrecord.gz"
    record_over_the_cap(big, (1 << 31) - 1, zeros_mib=2048)  # the record is all there, in 2 MiB

    def limit_memory():
        resource.setrlimit(resource.RLIMIT_AS, (1536 * MIB, 1536 * MIB))

    for command in (["convert", big, "-o", tmp_path / "out", "--no-sync", "--threads", "1"], ["cat", big]):
        code, _, err, _ = run_measured([recflow_bin, *command, "--max-record-bytes", "3G"], preexec_fn=limit_memory)
        assert code == 1, err
        assert "internal error" not in err and "bad_alloc" not in err, err
        assert f"{big}: record 0, byte offset 0: cannot grow the record window" in err, err


def test_cat_prints_the_records_before_a_fault_then_fails_at_it(run, tmp_path):
    records = [frame(example(b"row %d" % i)) for i in range(100)]
    bad = bytearray(b"".join(records))
    offset = sum(len(r) for r in records[:50])
    bad[offset + 20] ^= 1  # a data byte of record 50
    damaged = tmp_path / "damaged.tfrecord"
    damaged.write_bytes(bytes(bad))
    result = run("cat", damaged)
    assert result.returncode == 1
    assert [json.loads(line)["b"] for line in result.stdout.splitlines()] == ["row %d" % i for i in range(50)]
    assert f"{damaged}: record 50, byte offset {offset}: bad data CRC" in result.stderr
    # A truncated gzip stream: every record that inflated whole, then the fault.
    gz = gzip.compress(b"".join(records), mtime=0)
    truncated = tmp_path / "truncated.tfrecord.gz"
    truncated.write_bytes(gz[: len(gz) * 2 // 3])
    cut = run("cat", truncated)
    assert cut.returncode == 1 and "truncated gzip stream" in cut.stderr
    printed = len(cut.stdout.splitlines())
    assert printed > 30 and f"record {printed}, byte offset " in cut.stderr


def test_skip_corrupt_on_a_damaged_gzip_stream_reports_the_first_fault(run, tmp_path):
    records = [frame(example(b"row %d" % i)) for i in range(400)]
    gz = bytearray(gzip.compress(b"".join(records), mtime=0))
    gz[len(gz) // 2] ^= 0xFF  # inflates into garbage from here until the trailer check fails
    damaged = tmp_path / "damaged.tfrecord.gz"
    damaged.write_bytes(bytes(gz))
    plain = run("cat", damaged)
    assert plain.returncode == 1
    good = len(plain.stdout.splitlines())
    assert 0 < good < 400 and f"record {good}, byte offset " in plain.stderr
    skipping = run("cat", "--skip-corrupt", damaged)
    assert skipping.returncode == 1
    last = skipping.stderr.strip().splitlines()[-1]
    assert "corrupt gzip data" in last
    assert f"the first fault, where reading went wrong: {damaged}: record {good}, byte offset " in last


def write_records(pipe, total_bytes):
    """Writes about total_bytes of framed 4 KiB tf.Examples to pipe, 4 MiB at a time."""
    block = frame(example(b"z" * 4000)) * 1000
    for _ in range(total_bytes // len(block)):
        pipe.write(block)


# Through a pipe, far more than any buffer should hold: 2 GiB for inspect; cat prints every
# record as JSON (about 90 MB/s here), so it gets 512 MiB.
@pytest.mark.parametrize("command,total", [(["inspect", "--json", "-"], 2048 * MIB), (["cat", "-"], 512 * MIB)])
def test_standard_input_streams_in_bounded_memory(recflow_bin, startup_rss, command, total):
    inspect = command[0] == "inspect"
    code, out, err, rss = run_measured([recflow_bin, *command], keep_stdout=inspect,
                                       stdin_writer=lambda pipe: write_records(pipe, total))
    assert code == 0, err
    records = total // (len(frame(example(b"z" * 4000))) * 1000) * 1000
    assert (json.loads(out)["total"]["records"] if inspect else out) == records
    assert rss - startup_rss < 260, f"peak RSS {rss:.0f} MiB ({startup_rss:.0f} at startup) for {total >> 20} MiB of input"


def test_convert_streams_standard_input_in_bounded_memory(recflow_bin, startup_rss, tmp_path):
    total = 512 * MIB
    code, _, err, rss = run_measured([recflow_bin, "convert", "-", "-o", tmp_path / "out", "--no-sync"],
                                     stdin_writer=lambda pipe: write_records(pipe, total))
    assert code == 0, err
    assert rss - startup_rss < 360, f"peak RSS {rss:.0f} MiB ({startup_rss:.0f} at startup) for {total >> 20} MiB of input"
