#!/usr/bin/python3
"""Writes the Avro fixtures of python_interop_test.cc with the Apache Avro Python library
(Debian's python3-avro), an implementation independent of recflow and of the Avro C library.

Run from this directory: /usr/bin/python3 make_testdata.py (Debian's Python, which sees python3-avro). The output is deterministic except for the
sync markers, which the Python writer draws at random.
"""
import datetime
import decimal

import avro.datafile
import avro.io
import avro.schema

SCHEMA = {
    "type": "record", "name": "Event", "namespace": "org.example", "fields": [
        {"name": "id", "type": "long"},
        {"name": "name", "type": ["null", "string"]},
        {"name": "day", "type": {"type": "int", "logicalType": "date"}},
        {"name": "ts_ms", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        {"name": "ts_us", "type": ["null", {"type": "long", "logicalType": "timestamp-micros"}]},
        {"name": "price", "type": {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}},
        {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["A", "B", "C"]}},
        {"name": "tags", "type": {"type": "array", "items": "string"}},
        {"name": "attrs", "type": {"type": "map", "values": "double"}},
        {"name": "point", "type": {"type": "record", "name": "Point", "namespace": "geo", "fields": [
            {"name": "x", "type": "float"}, {"name": "y", "type": "float"}]}},
        {"name": "other", "type": ["null", "geo.Point"]},
        {"name": "hash", "type": {"type": "fixed", "name": "Hash", "size": 4}},
        {"name": "ok", "type": "boolean"},
    ]}

EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def record(i):
    return {
        "id": i * 1000003 - 5,
        "name": None if i % 3 == 0 else "n\u00e9%d" % i,
        "day": datetime.date(1970, 1, 1) + datetime.timedelta(days=i * 37 - 100),
        "ts_ms": EPOCH + datetime.timedelta(milliseconds=i * 86400123 - 5),
        "ts_us": None if i % 2 else EPOCH + datetime.timedelta(microseconds=i * 1234567891),
        "price": decimal.Decimal(i * 1234 - 50000).scaleb(-2),
        "kind": "ABC"[i % 3],
        "tags": ["t%d" % k for k in range(i % 4)],
        "attrs": {"k%d" % k: k + i / 4 for k in range(i % 3)},
        "point": {"x": i / 2, "y": -i},
        "other": {"x": 1.5, "y": 2.5} if i % 5 == 0 else None,
        "hash": bytes([i % 256, 0, 255, 7]),
        "ok": i % 2 == 0,
    }


def write(path, codec, count=300):
    schema = avro.schema.parse(__import__("json").dumps(SCHEMA))
    with open(path, "wb") as out:
        writer = avro.datafile.DataFileWriter(out, avro.io.DatumWriter(), schema, codec=codec)
        for i in range(count):
            writer.append(record(i))
            if i % 64 == 63:
                writer.sync()  # ends the block: several blocks per file
        writer.close()


def read_long(data, pos):
    """A zigzag varint at data[pos:]; returns (value, next position)."""
    shift = result = 0
    while True:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return (result >> 1) ^ -(result & 1), pos


def write_long(value):
    value = (value << 1) ^ (value >> 63)
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def recompress(source, target, codec_name, compress):
    """Copies the null-codec container `source` with every block compressed by `compress` and
    avro.codec set to `codec_name`: python3-avro 1.11.1 has no xz codec and its zstandard codec
    needs a module Debian does not install with it, so those files are made from its output with
    the standard library's lzma (the .xz format Java's XZCodec writes) and the zstd command."""
    data = open(source, "rb").read()
    pos, meta = 4, {}
    while True:
        count, pos = read_long(data, pos)
        if count == 0:
            break
        for _ in range(count):
            key_size, pos = read_long(data, pos)
            key = data[pos:pos + key_size]
            value_size, pos = read_long(data, pos + key_size)
            meta[key] = data[pos:pos + value_size]
            pos += value_size
    meta[b"avro.codec"] = codec_name.encode()
    header = data[:4] + write_long(len(meta))
    for key, value in meta.items():
        header += write_long(len(key)) + key + write_long(len(value)) + value
    header += write_long(0)
    sync = data[pos:pos + 16]
    out = bytearray(header + sync)
    pos += 16
    while pos < len(data):
        records, pos = read_long(data, pos)
        size, pos = read_long(data, pos)
        block = compress(data[pos:pos + size])
        pos += size
        assert data[pos:pos + 16] == sync
        pos += 16
        out += write_long(records) + write_long(len(block)) + block + sync
    open(target, "wb").write(bytes(out))


if __name__ == "__main__":
    import lzma
    for codec in ("null", "deflate", "bzip2"):
        write("events_%s.avro" % codec, codec)
    import subprocess
    recompress("events_null.avro", "events_xz.avro", "xz", lzma.compress)
    recompress("events_null.avro", "events_zstandard.avro", "zstandard",
               lambda block: subprocess.run(["zstd", "-q", "-c"], input=block, capture_output=True,
                                            check=True).stdout)
