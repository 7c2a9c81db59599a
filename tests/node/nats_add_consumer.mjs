// Test helper: creates a durable pull consumer with the npm `nats` client, its configuration given as JSON.
// Usage: node nats_add_consumer.mjs URL STREAM '{"durable_name": "c", "ack_policy": "explicit", ...}'
import { connect } from "nats";

const [url, stream, config] = process.argv.slice(2);
const nc = await connect({ servers: url });
await (await nc.jetstreamManager()).consumers.add(stream, JSON.parse(config));
await nc.close();
