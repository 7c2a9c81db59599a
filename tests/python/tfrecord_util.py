"""Test helpers written independently of recflow: CRC32C, TFRecord framing, protoc classes."""
import gzip
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
