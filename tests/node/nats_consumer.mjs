// Test oracle: a JetStream consumer's backlog as the npm `nats` client reads it.
// Usage: node nats_consumer.mjs URL STREAM CONSUMER  ->  {"num_pending": N, "num_ack_pending": M, "ack_floor": S} (S:
// the stream sequence up to which every message is acknowledged), or null when the consumer does not exist (yet)
import { connect } from "nats";

const [url, stream, consumer] = process.argv.slice(2);
const nc = await connect({ servers: url });
let info = null;
try {
  info = await (await nc.jetstreamManager()).consumers.info(stream, consumer);
} catch {
  info = null;  // not created yet
}
console.log(JSON.stringify(info === null ? null : {
  num_pending: info.num_pending, num_ack_pending: info.num_ack_pending, ack_floor: info.ack_floor.stream_seq,
}));
await nc.close();
