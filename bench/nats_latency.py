#!/usr/bin/python3
"""NATS JetStream publish -> output latency of a running recflow job (pull source -> 1 s fixed windows -> count/sum ->
write_nats): tests/node/nats_latency.mjs publishes events at a steady rate with their publish time as event time and
times each pane's arrival on the output subject against its window's end (the moment the first event that completes it
could be published). Starts its own nats-server; the job runs unbounded and is stopped after the publisher is done.
Prints the pane count and p50/p99 in ms. With --checkpoint-interval the job runs with --checkpoint: it commits per
epoch, and write_nats holds an epoch's messages until the epoch's files are committed.

Usage: bench/nats_latency.py [--rate 2000] [--seconds 20] [--keys 10] [--batch 256] [--checkpoint-interval SECONDS]
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from nats_throughput import BIN, ROOT, start_server

NODE = ROOT / "tests" / "node"


def create_streams(url, streams):
    """Creates each (stream, subjects) of `streams` with the npm client."""
    for stream, subjects in streams:
        subprocess.run(["node", str(NODE / "nats_publish.mjs"), url, stream, subjects], input="", text=True,
                       check=True, capture_output=True)


def stop(job, server):
    """Drains the job (SIGINT; None when it did not start), then stops the server."""
    if job is not None:
        job.send_signal(signal.SIGINT)
        job.wait()
    server.terminate()
    server.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=int, default=2000, help="events per second")
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--keys", type=int, default=10)
    parser.add_argument("--batch", type=int, default=256, help="messages per pull")
    parser.add_argument("--checkpoint-interval", type=float, default=None,
                        help="run the job with --checkpoint, a checkpoint at most every that many seconds")
    parser.add_argument("--recflow", default=str(BIN / "recflow"))
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="recflow-nats-latency-"))
    server, url = start_server(work / "store")
    job = None
    try:
        create_streams(url, (("EVENTS", "events.>"), ("PANES", "panes.>")))
        pipeline = work / "latency.yaml"
        # One subject: the watermark is that subject's latest event time (no minimum over idle subjects).
        pipeline.write_text(f"""
steps:
  - nats: {{url: "{url}", stream: EVENTS, consumer: latency, subject: "events.>", schema: {{key: utf8, value: int64, ts: int64}},
           event_time: ts, batch: {args.batch}}}
  - window: {{fixed: 1s}}
  - combine_per_key: {{keys: [key], aggregates: {{count: "count_all()", sum: "sum(value)"}}}}
  - write_nats: {{url: "{url}", subject: panes.latency, key: [key]}}
""")
        checkpoint = [] if args.checkpoint_interval is None else [
            "--checkpoint", str(work / "ckpt"), "--checkpoint-interval", str(args.checkpoint_interval)]
        job = subprocess.Popen([args.recflow, "run", str(pipeline), "--quiet", *checkpoint])
        print(f"load average {os.getloadavg()}; {args.rate} events/s for {args.seconds} s, {args.keys} keys, "
              f"pulls of {args.batch}{'' if args.checkpoint_interval is None else ', checkpointed'}")
        done = subprocess.run(["node", str(NODE / "nats_latency.mjs"), url, "events.all", "panes.latency",
                               str(args.rate), str(args.seconds), str(args.keys)],
                              check=True, capture_output=True, text=True)
        result = json.loads(done.stdout)
        print(json.dumps(result))
        print(f"load average {os.getloadavg()}")
    finally:
        stop(job, server)
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
