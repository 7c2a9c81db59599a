// Benchmark peer (bench/nats_throughput.py): the npm `nats` client feeding a JetStream stream, and consuming it as a
// bare loop (pull, JSON.parse, ack) for the raw consume rate recflow's NATS source is compared with.
// Usage: node nats_bench.mjs publish URL STREAM SUBJECT N KEYS   (creates the stream; N events {key, value, ts})
//        node nats_bench.mjs consume URL STREAM CONSUMER N       ->  {"messages": N, "seconds": S}
import { AckPolicy, connect, DeliverPolicy, StringCodec } from "nats";

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
} else {
  await jsm.consumers.add(stream, { durable_name: name, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All,
                                    max_ack_pending: -1 });
  const consumer = await js.consumers.get(stream, name);
  const started = process.hrtime.bigint();
  let seen = 0;
  const messages = await consumer.consume({ max_messages: 256 });
  for await (const m of messages) {
    JSON.parse(sc.decode(m.data));
    m.ack();
    if (++seen === n) break;
  }
  await nc.flush();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(JSON.stringify({ messages: seen, seconds }));
}
await nc.drain();
