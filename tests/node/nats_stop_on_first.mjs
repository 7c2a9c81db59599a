// Test helper: stops (SIGSTOP) a process the moment the first message appears on a NATS subject, so a test can kill it
// mid-output at a deterministic point. Usage: node nats_stop_on_first.mjs URL SUBJECT
//   prints "ready" once subscribed, reads the process id from stdin, and on the first message on SUBJECT sends it
//   SIGSTOP and prints "stopped".
import { connect } from "nats";
import { createInterface } from "node:readline";

const [url, subject] = process.argv.slice(2);
const nc = await connect({ servers: url });
const sub = nc.subscribe(subject, { max: 1 });
await nc.flush();
console.log("ready");
const pid = await new Promise((resolve) => {
  createInterface({ input: process.stdin }).once("line", (line) => resolve(Number(line)));
});
for await (const m of sub) {
  process.kill(pid, "SIGSTOP");
  console.log("stopped");
}
await nc.close();
