// Writes the arrow_ipc fuzz seed corpus with Apache Arrow JS (an independent writer), and the JS-written files js_writer_test reads:
//   NODE_PATH=tests/node/node_modules node src/recflow/formats/arrow_ipc/make_fuzz_corpus.mjs
// (run from the repository root; tests/node pins apache-arrow).
// The other seeds (lz4.*, zstd.*, big_endian.arrows, dictionary_delta.*) come from recflow's own
// IpcWriter and test message builders (fuzz_seeds_test.cc); that test checks them and rewrites
// them when run as RECFLOW_WRITE_FUZZ_SEEDS=1 build/release/src/recflow/formats/arrow_ipc/arrow_ipc_fuzz_seeds_test.
import { createRequire } from "node:module";
import { writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(join(process.cwd(), "tests/node/package.json"));
const arrow = require("apache-arrow");
const out = join(dirname(fileURLToPath(import.meta.url)), "fuzz_corpus");
mkdirSync(out, { recursive: true });

const table = arrow.tableFromArrays({
  id: Int32Array.from([1, 2, 3, 4, 5]),
  score: Float64Array.from([0.5, 1.5, -2, 3.25, 8]),
  name: ["a", "bb", null, "dddd", ""],
});
const nested = arrow.makeTable({
  tags: arrow.vectorFromArray([["x", "y"], [], null], new arrow.List(new arrow.Field("item", new arrow.Utf8(), true))),
  point: arrow.vectorFromArray([{ x: 1, y: 2 }, { x: 3, y: 4 }, null],
    new arrow.Struct([new arrow.Field("x", new arrow.Int16(), true), new arrow.Field("y", new arrow.Int16(), true)])),
  flag: arrow.vectorFromArray([true, false, null], new arrow.Bool()),
});
const dict = arrow.makeTable({
  color: arrow.vectorFromArray(["red", "green", "red", "blue"], new arrow.Dictionary(new arrow.Utf8(), new arrow.Int8())),
});

// Arrow's newer layouts that Arrow JS writes: string and binary views (inline values of at most
// 12 bytes, longer ones in variadic data buffers) and 32/64-bit decimals (-12.50, 7.00, null).
const views = arrow.makeTable({
  text: arrow.vectorFromArray(["short", "a value longer than twelve bytes", null, "", "another long value here"],
    new arrow.Utf8View()),
  bytes: arrow.vectorFromArray([Uint8Array.of(1, 2), null, new TextEncoder().encode("binary longer than 12"),
    Uint8Array.of(), Uint8Array.of(255)], new arrow.BinaryView()),
});
const decimals = new arrow.Table({
  d32: arrow.makeVector(arrow.makeData({ type: new arrow.Decimal(2, 9, 32), length: 3, nullCount: 1,
    nullBitmap: Uint8Array.of(0b011), data: new Int32Array([-1250, 700, 0]) })),
  d64: arrow.makeVector(arrow.makeData({ type: new arrow.Decimal(3, 18, 64), length: 3, nullCount: 1,
    nullBitmap: Uint8Array.of(0b101), data: new Int32Array([-4000001, -1, 0, 0, 123456789, 1]) })),
});

for (const [name, t] of [["primitive", table], ["nested", nested], ["dictionary", dict], ["views", views],
                         ["decimal_narrow", decimals]]) {
  writeFileSync(join(out, `${name}.arrows`), arrow.tableToIPC(t, "stream"));
  writeFileSync(join(out, `${name}.arrow`), arrow.tableToIPC(t, "file"));
}

// The pre-0.15 framing (a bare int32 length, no continuation marker) as Arrow JS writes it.
writeFileSync(join(out, "primitive_legacy_js.arrows"),
  arrow.RecordBatchStreamWriter.writeAll(table, { writeLegacyIpcFormat: true }).toUint8Array(true));

// The same framing made from the stream by hand, message by message.
const stream = Buffer.from(arrow.tableToIPC(table, "stream"));
const legacy = [];
for (let at = 0; at < stream.length;) {
  if (stream.readUInt32LE(at) === 0xffffffff) at += 4;
  const length = stream.readInt32LE(at);
  if (length === 0) { legacy.push(Buffer.alloc(4)); break; }
  const body = Number(readBodyLength(stream.subarray(at + 4, at + 4 + length)));
  legacy.push(stream.subarray(at, at + 4 + length + body));
  at += 4 + length + body;
}
writeFileSync(join(out, "primitive_legacy.arrows"), Buffer.concat(legacy));

// Message.bodyLength: vtable slot 3 of the root table (the header union takes slots 1 and 2), an int64.
function readBodyLength(fb) {
  const table = fb.readUInt32LE(0);
  const vtable = table - fb.readInt32LE(table);
  const vtableSize = fb.readUInt16LE(vtable);
  const slot = 4 + 2 * 3;
  if (slot >= vtableSize) return 0n;
  const offset = fb.readUInt16LE(vtable + slot);
  return offset === 0 ? 0n : fb.readBigInt64LE(table + offset);
}
