// Test oracle: a JetStream consumer's backlog as the npm `nats` client reads it.
// Usage: node nats_consumer.mjs URL STREAM CONSUMER  ->  {"num_pending": N, "num_ack_pending": M}
import { connect } from "nats";

const [url, stream, consumer] = process.argv.slice(2);
const nc = await connect({ servers: url });
const info = await (await nc.jetstreamManager()).consumers.info(stream, consumer);
console.log(JSON.stringify({ num_pending: info.num_pending, num_ack_pending: info.num_ack_pending }));
await nc.close();
