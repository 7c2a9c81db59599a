// Test oracle: a subscriber independent of recflow that, the moment each message arrives on a NATS subject, opens the
// file the message names and reads its first 4 bytes — so a message published before its file is in place is seen
// as such. Usage: node nats_open_each.mjs URL SUBJECT DIR  ->  prints "ready" once subscribed, then, once stdin ends,
// one JSON line per message received: {"msg_id", "path", "opened", "magic"} (opened: the open of DIR/<payload's path>
// succeeded; magic: its first 4 bytes as hex, or the error).
import { connect, StringCodec } from "nats";
import { openSync, readSync, closeSync } from "node:fs";
import { join } from "node:path";

const [url, subject, dir] = process.argv.slice(2);
const nc = await connect({ servers: url });
const sc = StringCodec();
const seen = [];
nc.subscribe(subject, {
  callback: (err, m) => {
    if (err) {
      seen.push({ msg_id: null, path: null, opened: false, magic: String(err) });
      return;
    }
    const id = m.headers ? m.headers.get("Nats-Msg-Id") : "";
    const path = JSON.parse(sc.decode(m.data)).path;
    try {
      const fd = openSync(join(dir, path), "r");
      const head = Buffer.alloc(4);
      readSync(fd, head, 0, 4, 0);
      closeSync(fd);
      seen.push({ msg_id: id, path, opened: true, magic: head.toString("hex") });
    } catch (e) {
      seen.push({ msg_id: id, path, opened: false, magic: String(e) });
    }
  },
});
await nc.flush();
console.log("ready");
process.stdin.resume();
await new Promise((resolve) => process.stdin.on("end", resolve));
await nc.drain();
for (const s of seen) console.log(JSON.stringify(s));
