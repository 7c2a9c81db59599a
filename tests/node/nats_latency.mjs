// Benchmark helper (bench/nats_latency.py): publishes events {key, value, ts} on one subject at a steady rate with ts
// the publish time (epoch ms), and times each pane arriving on the output subject against its window's end: the
// pane could not be complete before the first event past window_end was published, so arrival - window_end is the
// latency from that publish to the output (same clock: one process).
// Usage: node nats_latency.mjs URL SUBJECT OUTPUT_SUBJECT RATE SECONDS KEYS  ->  {"panes": N, "p50_ms", "p99_ms", ...}
import { connect, StringCodec } from "nats";

const [url, subject, output, rate, seconds, keys] = process.argv.slice(2);
const nc = await connect({ servers: url });
const js = nc.jetstream();
const sc = StringCodec();
const latencies = [];
let publishing = true;
const sub = nc.subscribe(output);
const reading = (async () => {
  for await (const m of sub) {
    const pane = JSON.parse(sc.decode(m.data));
    if (publishing) latencies.push(Date.now() - pane.window_end);
  }
})();
await nc.flush();
const started = Date.now();
const perTick = Math.max(1, Math.round(Number(rate) / 100));  // a burst every 10 ms
let sent = 0;
while (Date.now() - started < Number(seconds) * 1000) {
  const acks = [];
  for (let i = 0; i < perTick; i++, sent++) {
    const key = "k" + (sent % Number(keys));
    acks.push(js.publish(subject, sc.encode(JSON.stringify({ key, value: sent % 100, ts: Date.now() }))));
  }
  await Promise.all(acks);
  const next = started + (sent / perTick) * 10;
  if (next > Date.now()) await new Promise((resolve) => setTimeout(resolve, next - Date.now()));
}
// Panes of the last windows still coming count too: wait for the window after the last event to close.
await new Promise((resolve) => setTimeout(resolve, 3000));
publishing = false;
sub.unsubscribe();
await reading;
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
console.log(JSON.stringify({ events: sent, panes: latencies.length, p50_ms: at(0.5), p99_ms: at(0.99), max_ms: at(1) }));
await nc.drain();
