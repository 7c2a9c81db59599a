// Benchmark helper (bench/sentinel2_latency.py): publishes the scenes of a JSON Lines file (stdin) one every INTERVAL
// ms on SUBJECT, and times each message arriving on OUTPUT_SUBJECT against the publish of the scene that closed its
// session: scene k + 1 (the sessions are apart by more than the gap plus the out-of-orderness), so arrival minus that
// publish is the latency from the scene that completes a session to the message naming its raster (same clock: one
// process). Usage: node nats_scene_latency.mjs URL SUBJECT OUTPUT_SUBJECT INTERVAL_MS < scenes.jsonl
//   ->  {"scenes": N, "messages": M, "p50_ms", "p99_ms", "max_ms"}
import { connect, StringCodec } from "nats";
import { readFileSync } from "node:fs";

const [url, subject, output, interval] = process.argv.slice(2);
const scenes = readFileSync(0, "utf8").split("\n").filter((l) => l !== "");
const nc = await connect({ servers: url });
const js = nc.jetstream();
const sc = StringCodec();
const published = new Map();  // a scene's acquired time -> when it was published
const starts = scenes.map((l) => JSON.parse(l).acquired);
const latencies = [];
const sub = nc.subscribe(output);
const reading = (async () => {
  for await (const m of sub) {
    const row = JSON.parse(sc.decode(m.data));
    const k = starts.indexOf(row.window_start);
    const closer = k >= 0 && k + 1 < starts.length ? published.get(starts[k + 1]) : undefined;
    if (closer !== undefined) latencies.push(Date.now() - closer);
  }
})();
await nc.flush();
for (const line of scenes) {
  published.set(JSON.parse(line).acquired, Date.now());
  await js.publish(subject, sc.encode(line));
  await new Promise((resolve) => setTimeout(resolve, Number(interval)));
}
// The last closed session's message still comes: wait for it (at most 60 s).
const until = Date.now() + 60000;
while (latencies.length < scenes.length - 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
sub.unsubscribe();
await reading;
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
console.log(JSON.stringify({ scenes: scenes.length, messages: latencies.length, p50_ms: at(0.5), p99_ms: at(0.99),
                             max_ms: at(1) }));
await nc.drain();
