// Writes an Arrow IPC stream in the pre-0.15 framing (no continuation markers) with the reference JavaScript implementation.
//
// Usage: node arrow_write_legacy.mjs OUT N — one record batch with an int32 column `id` = 0..N-1.
import { writeFileSync } from 'node:fs';
import { Int32, RecordBatchStreamWriter, tableFromArrays } from 'apache-arrow';

const [out, n] = process.argv.slice(2);
if (!out || !n) throw new Error('usage: arrow_write_legacy.mjs OUT N');
const table = tableFromArrays({ id: Int32Array.from({ length: Number(n) }, (_, i) => i) });
const writer = new RecordBatchStreamWriter({ writeLegacyIpcFormat: true });
writer.write(table);
writer.finish();
writeFileSync(out, writer.toUint8Array(true));
