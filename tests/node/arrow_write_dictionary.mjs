// Writes an Arrow IPC stream or file whose column `d` is dictionary-encoded utf8, with the reference JavaScript implementation.
//
// Usage: node arrow_write_dictionary.mjs OUT stream|file JSON
// JSON: {"dictionary": [strings], "d": [indices or null], "g": [strings], "start": N} — one record
// batch with an int32 column `id` (start, start + 1, ...; start defaults to 0), `g` (utf8) and
// `d` (dictionary<values=utf8, indices=int32>).
import { writeFileSync } from 'node:fs';
import {
  Dictionary, Field, Int32, RecordBatch, Schema, Struct, Table, Utf8, makeData, tableToIPC, vectorFromArray,
} from 'apache-arrow';

const [out, kind, json] = process.argv.slice(2);
if (!out || !json || (kind !== 'stream' && kind !== 'file')) {
  throw new Error('usage: arrow_write_dictionary.mjs OUT stream|file JSON');
}
const spec = JSON.parse(json);
const length = spec.d.length;
const type = new Dictionary(new Utf8(), new Int32());
const nullBitmap = new Uint8Array(Math.ceil(length / 8));
spec.d.forEach((v, i) => { if (v !== null) nullBitmap[i >> 3] |= 1 << (i & 7); });
const d = makeData({
  type,
  length,
  nullCount: spec.d.filter((v) => v === null).length,
  nullBitmap,
  data: Int32Array.from(spec.d, (v) => v ?? 0),
  dictionary: vectorFromArray(spec.dictionary, new Utf8()),
});
const id = vectorFromArray(Array.from({ length }, (_, i) => (spec.start ?? 0) + i), new Int32()).data[0];
const g = vectorFromArray(spec.g, new Utf8()).data[0];
const fields = [new Field('id', new Int32(), false), new Field('g', new Utf8(), true), new Field('d', type, true)];
const data = makeData({ type: new Struct(fields), length, nullCount: 0, children: [id, g, d] });
writeFileSync(out, tableToIPC(new Table([new RecordBatch(new Schema(fields), data)]), kind));
