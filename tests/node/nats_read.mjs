// Test oracle: reads every message of a NATS JetStream stream with the npm `nats` client (an ordered consumer), in
// stream order. Usage: node nats_read.mjs URL STREAM  ->  one JSON line per message: {"seq", "subject", "msg_id",
// "data"} (msg_id: the Nats-Msg-Id header or null; data: the payload as text). A missing or empty stream prints nothing.
import { connect, StringCodec } from "nats";

const [url, stream] = process.argv.slice(2);
const nc = await connect({ servers: url });
const jsm = await nc.jetstreamManager();
const sc = StringCodec();
let last = 0;
try {
  last = (await jsm.streams.info(stream)).state.last_seq;
} catch {
  last = 0;
}
if (last > 0) {
  const consumer = await nc.jetstream().consumers.get(stream);
  const messages = await consumer.consume();
  const lines = [];
  for await (const m of messages) {
    const id = m.headers ? m.headers.get("Nats-Msg-Id") : "";
    lines.push(JSON.stringify({ seq: m.seq, subject: m.subject, msg_id: id === "" ? null : id, data: sc.decode(m.data) }));
    if (m.seq >= last) break;
  }
  console.log(lines.join("\n"));
}
await nc.close();
