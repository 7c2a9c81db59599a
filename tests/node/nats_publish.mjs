// Test oracle: publishes messages to NATS JetStream with the npm `nats` client (independent of recflow's nats.c).
// Usage: node nats_publish.mjs URL STREAM SUBJECTS [DUPLICATE_WINDOW_SECONDS] < messages.jsonl
//   Creates the stream STREAM on SUBJECTS (comma-separated) when missing (its duplicate window 120 s unless given),
//   then publishes each stdin line
//   {"subject": S, "data": "<payload text>"} in order, each acknowledged by the stream.
import { connect, nanos, StringCodec } from "nats";
import { readFileSync } from "node:fs";

const [url, stream, subjects, duplicateSeconds = "120"] = process.argv.slice(2);
const nc = await connect({ servers: url });
const jsm = await nc.jetstreamManager();
try {
  await jsm.streams.info(stream);
} catch {
  await jsm.streams.add({ name: stream, subjects: subjects.split(","), duplicate_window: nanos(Number(duplicateSeconds) * 1000) });
}
const js = nc.jetstream();
const sc = StringCodec();
const messages = readFileSync(0, "utf8").split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));
// Up to 1000 publishes in flight; they reach the stream in order (one connection), each acknowledged.
for (let start = 0; start < messages.length; start += 1000) {
  await Promise.all(messages.slice(start, start + 1000).map((m) => js.publish(m.subject, sc.encode(m.data))));
}
const count = messages.length;
await nc.drain();
console.log(JSON.stringify({ published: count }));
