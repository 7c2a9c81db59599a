"""Test helpers written independently of recflow: CRC32C, TFRecord framing, protoc classes."""
import gzip
import zlib
import importlib
import struct
import subprocess
import sys
from pathlib import Path

_CRC32C_POLY = 0x82F63B78  # Castagnoli, reflected


def _make_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ _CRC32C_POLY if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _make_table()


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli) of `data`, table-driven."""
    crc = 0xFFFFFFFF
    for b in data:
        crc = _TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data: bytes) -> int:
    """The masked CRC TFRecord stores (TensorFlow's / LevelDB's masking)."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def frame(record: bytes) -> bytes:
    """One TFRecord: length, masked CRC of the length, data, masked CRC of the data."""
    length = struct.pack("<Q", len(record))
    return length + struct.pack("<I", masked_crc(length)) + record + struct.pack("<I", masked_crc(record))


def write_tfrecord(path: Path, records, compress: bool = False) -> Path:
    """Writes `records` (bytes) framed as TFRecord, GZIP-compressed when `compress`."""
    data = b"".join(frame(r) for r in records)
    path.write_bytes(gzip.compress(data) if compress else data)
    return path


def read_tfrecord(path: Path, check_crc: bool = True):
    """The records of a TFRecord file (GZIP or ZLIB by suffix, as recflow names them), CRCs checked."""
    data = Path(path).read_bytes()
    if str(path).endswith(".gz"):
        data = gzip.decompress(data)
    elif str(path).endswith(".zz"):
        data = zlib.decompress(data)
    records, pos = [], 0
    while pos < len(data):
        length_bytes = data[pos:pos + 8]
        (length,) = struct.unpack("<Q", length_bytes)
        (length_crc,) = struct.unpack("<I", data[pos + 8:pos + 12])
        record = data[pos + 12:pos + 12 + length]
        assert len(record) == length, f"{path}: truncated record at {pos}"
        (data_crc,) = struct.unpack("<I", data[pos + 12 + length:pos + 16 + length])
        if check_crc:
            assert length_crc == masked_crc(length_bytes), f"{path}: bad length CRC at {pos}"
            assert data_crc == masked_crc(record), f"{path}: bad data CRC at {pos}"
        records.append(record)
        pos += 16 + length
    return records


def generate_proto_module(proto: Path, out_dir: Path):
    """Runs `protoc --python_out` on the tf.Example-compatible .proto and imports the result."""
    subprocess.run(
        ["protoc", f"--proto_path={proto.parent}", f"--python_out={out_dir}", str(proto)],
        check=True,
    )
    sys.path.insert(0, str(out_dir))
    try:
        return importlib.import_module(proto.stem + "_pb2")
    finally:
        sys.path.remove(str(out_dir))
