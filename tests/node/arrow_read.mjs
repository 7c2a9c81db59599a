// Reads an Arrow IPC stream or file with the reference JavaScript implementation and prints its schema and values as JSON.
//
// Usage: node arrow_read.mjs FILE
// Prints {"schema": [{"name", "type", "nullable"}], "rows": N, "columns": {name: [values]}} where a
// value is rendered by `plain`: null; numbers; bigint -> decimal string; strings; Uint8Array ->
// array of byte values; Date -> milliseconds since the epoch; Arrow rows/structs -> objects;
// vectors/lists -> arrays; Maps -> arrays of [key, value] pairs.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CompressionType, compressionRegistry, tableFromIPC } from 'apache-arrow';
import { decompress as zstdDecompress } from 'fzstd';

// Arrow JS decodes compressed bodies through codecs the caller registers: pure-JS LZ4 frame and
// Zstandard decoders, independent of the C libraries recflow uses. Their output is copied into a
// fresh array, as Arrow JS views it as 64-bit values that need an aligned start.
const lz4 = createRequire(import.meta.url)('lz4js');
const aligned = (bytes) => new Uint8Array(bytes);
compressionRegistry.set(CompressionType.LZ4_FRAME, { decode: (bytes) => aligned(lz4.decompress(bytes)) });
compressionRegistry.set(CompressionType.ZSTD, { decode: (bytes) => aligned(zstdDecompress(bytes)) });

function plain(value) {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.getTime();
  if (value instanceof Uint8Array) return Array.from(value);
  if (value instanceof Map) return Array.from(value.entries(), ([k, v]) => [plain(k), plain(v)]);
  if (ArrayBuffer.isView(value)) return Array.from(value, plain);
  if (typeof value.toArray === 'function' && typeof value.get === 'function' && 'length' in value) {
    return Array.from({ length: value.length }, (_, i) => plain(value.get(i)));
  }
  if (typeof value.toJSON === 'function') {
    const json = value.toJSON();
    if (json !== value) return plain(json);
  }
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = plain(v);
    return out;
  }
  return String(value);
}

const file = process.argv[2];
if (!file) throw new Error('usage: arrow_read.mjs FILE');
const table = tableFromIPC(readFileSync(file));
const columns = {};
for (const field of table.schema.fields) {
  const vector = table.getChild(field.name);
  columns[field.name] = Array.from({ length: table.numRows }, (_, i) => plain(vector.get(i)));
}
process.stdout.write(JSON.stringify({
  schema: table.schema.fields.map((f) => ({ name: f.name, type: String(f.type), nullable: f.nullable })),
  rows: table.numRows,
  columns,
}) + '\n');
