// Benchmark input (bench/nats_throughput.py): the npm `nats` client feeding a JetStream stream.
// Usage: node nats_bench.mjs publish URL STREAM SUBJECT N KEYS   (creates the stream; N events {key, value, ts})
import { connect, StringCodec } from "nats";

const [mode, url, stream, name, count, keys] = process.argv.slice(2);
const n = Number(count);
const nc = await connect({ servers: url });
const jsm = await nc.jetstreamManager();
const js = nc.jetstream();
const sc = StringCodec();
if (mode === "publish") {
  await jsm.streams.add({ name: stream, subjects: [name + ".>"] });
  const t0 = 1700000000000;
  for (let start = 0; start < n; start += 1000) {
    const acks = [];
    for (let i = start; i < Math.min(n, start + 1000); i++) {
      const key = "k" + (i % Number(keys));
      acks.push(js.publish(name + "." + key, sc.encode(JSON.stringify({ key, value: i % 100, ts: t0 + i }))));
    }
    await Promise.all(acks);
  }
}
await nc.drain();
