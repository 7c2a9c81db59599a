// Reads one pass from a live `recflow serve` endpoint with Apache Arrow JS and prints its batches and values as JSON.
//
// Usage: node arrow_serve_read.mjs ENDPOINT [--count]
// ENDPOINT is tcp://HOST:PORT or unix:///PATH. Prints {"schema": [names], "metadata": {key: value}
// (the schema's custom metadata: a refusal carries recflow.error), "batches": [row counts],
// "rows": N, "bytes": B, "seconds": S, "columns": {name: [values]}} (no "columns" with --count,
// which only decodes the batches: the benchmark client; S runs from connect to EOF). Bigints
// print as numbers when exact, else as strings. After the end-of-stream marker the server must close the connection: bytes after
// the marker, or no EOF within 10 s, are errors (exit 1), so this never waits forever.
// (Arrow JS reads its source to the end, past the marker: against a server that left the
// connection open, a plain RecordBatchReader over the socket waited forever.)
import net from 'node:net';
import { RecordBatchReader } from 'apache-arrow';

const kEofTimeoutMs = 10000;

function connectOptions(endpoint) {
  if (endpoint.startsWith('unix://')) return { path: endpoint.slice('unix://'.length) };
  const match = /^(?:tcp:\/\/)?\[?([^\]]*?)\]?:(\d+)$/.exec(endpoint);
  if (!match) throw new Error(`not tcp://HOST:PORT or unix:///PATH: ${endpoint}`);
  return { host: match[1] || '127.0.0.1', port: Number(match[2]) };
}

/// Resolves when `socket` has data, has ended or has failed (then rejects).
function readableOrEnded(socket) {
  return new Promise((resolve, reject) => {
    const events = { readable: resolve, end: resolve, close: resolve, error: reject };
    const handlers = {};
    for (const [name, settle] of Object.entries(events)) {
      handlers[name] = (value) => {
        for (const [n, h] of Object.entries(handlers)) socket.off(n, h);
        settle(value);
      };
      socket.on(name, handlers[name]);
    }
  });
}

const kEndOfStream = Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);

/// The bytes of one connection, chunk by chunk. Arrow JS keeps pulling after the end-of-stream
/// marker (until its source ends), so once the bytes so far end like a whole stream the wait for
/// more is bounded: a server that leaves the connection open is an error here, never a hang.
class Connection {
  constructor(socket) {
    this.socket = socket;
    this.bytes = 0;
    this.tail = Buffer.alloc(0);  // the last bytes received
  }

  /// The next chunk, or null at EOF.
  async next() {
    while (true) {
      const chunk = this.socket.read();
      if (chunk !== null) {
        this.bytes += chunk.length;
        const joined = chunk.length >= kEndOfStream.length ? chunk : Buffer.concat([this.tail, chunk]);
        this.tail = joined.subarray(-kEndOfStream.length);
        return chunk;
      }
      if (this.socket.readableEnded || this.socket.destroyed) return null;
      if (!this.tail.equals(kEndOfStream)) {
        await readableOrEnded(this.socket);
        continue;
      }
      let timer;
      const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no EOF ${kEofTimeoutMs} ms after the end-of-stream marker`)),
                           kEofTimeoutMs);
      });
      try {
        await Promise.race([readableOrEnded(this.socket), timeout]);
      } finally {
        clearTimeout(timer);
      }
    }
  }

  /// The chunks as an async iterable for Arrow JS (stopping it leaves the socket open).
  async* chunks() {
    for (let chunk = await this.next(); chunk !== null; chunk = await this.next()) yield chunk;
  }
}

const plain = (value) =>
  typeof value === 'bigint' ? (Number.isSafeInteger(Number(value)) ? Number(value) : value.toString()) : value;

async function main() {
  const [endpoint, flag] = process.argv.slice(2);
  if (!endpoint) throw new Error('usage: arrow_serve_read.mjs ENDPOINT [--count]');
  const countOnly = flag === '--count';
  const start = performance.now();
  const socket = net.connect(connectOptions(endpoint));
  socket.pause();
  const connection = new Connection(socket);
  try {
    const reader = await (await RecordBatchReader.from(connection.chunks())).open();
    const names = reader.schema.fields.map((f) => f.name);
    const metadata = Object.fromEntries(reader.schema.metadata);
    const batches = [];
    const columns = Object.fromEntries(names.map((n) => [n, []]));
    for await (const batch of reader) {
      batches.push(batch.numRows);
      if (countOnly) continue;
      for (const name of names) {
        const vector = batch.getChild(name);
        for (let i = 0; i < batch.numRows; ++i) columns[name].push(plain(vector.get(i)));
      }
    }
    const extra = await connection.next();  // EOF (bounded) after the end-of-stream marker
    if (extra !== null) throw new Error(`${extra.length} bytes after the end-of-stream marker`);
    const rows = batches.reduce((a, b) => a + b, 0);
    const seconds = (performance.now() - start) / 1000;
    const out = { schema: names, metadata, batches, rows, bytes: connection.bytes, seconds };
    if (!countOnly) out.columns = columns;
    process.stdout.write(JSON.stringify(out) + '\n');
  } finally {
    socket.destroy();
  }
}

main().catch((error) => {
  process.stderr.write(`arrow_serve_read: ${error.stack || error}\n`);
  process.exitCode = 1;
});
