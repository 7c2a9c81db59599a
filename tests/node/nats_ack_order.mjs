// Test oracle for the NATS source's confirmed acknowledgements (nats_source.cc, AckSync): N messages read through a
// durable pull consumer with explicit acks and none acknowledged while read; then every one acknowledged with a plain
// "+ACK" but the last, which asks for the server's reply; right after that reply, the consumer's state. nats-server
// takes one connection's acknowledgements of a consumer in order, so the reply to the last confirms those before it.
// Usage: node nats_ack_order.mjs URL N  ->  {"acked": N, "num_ack_pending": P, "ack_floor": S} (P and S read right
// after the reply)
import { AckPolicy, connect, StringCodec } from "nats";

const [url, count] = process.argv.slice(2);
const n = Number(count);
const nc = await connect({ servers: url });
const jsm = await nc.jetstreamManager();
const js = nc.jetstream();
const sc = StringCodec();
await jsm.streams.add({ name: "ORDER", subjects: ["order.>"] });
for (let start = 0; start < n; start += 1000) {
  const acks = [];
  for (let i = start; i < Math.min(n, start + 1000); i++) acks.push(js.publish("order.m", sc.encode(String(i))));
  await Promise.all(acks);
}
await jsm.consumers.add("ORDER", { durable_name: "held", ack_policy: AckPolicy.Explicit, max_ack_pending: -1 });
const consumer = await js.consumers.get("ORDER", "held");
const held = [];
while (held.length < n) {
  for await (const m of await consumer.fetch({ max_messages: Math.min(1000, n - held.length), expires: 5000 })) held.push(m);
}
for (const m of held.slice(0, -1)) m.ack();
const confirmed = await held[held.length - 1].ackAck();
const info = await jsm.consumers.info("ORDER", "held");
console.log(JSON.stringify({ acked: confirmed ? held.length : 0, num_ack_pending: info.num_ack_pending,
                             ack_floor: info.ack_floor.stream_seq }));
await nc.close();
