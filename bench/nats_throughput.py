#!/usr/bin/python3
"""End-to-end NATS JetStream throughput: recflow run reading a stream through its pull source, windowing (60 s fixed
windows, --window), counting and summing per key and publishing the panes with write_nats, against a bare libnats consume loop
(bench/nats_consume_peer.cc, recflow-nats-peer: pulls issued by hand as the connector issues them, JSON parsed,
acknowledged) over the same stream with the same pull size, alternating A B A B in one run. Each round reads the whole
stream through a new durable consumer. Starts its own nats-server (store in a temporary directory); the npm `nats`
client publishes the stream. Prints each round, the median of the per-round ratios (recflow messages/s over the
peer's, the peer timed by its own clock from its first pull to its last flush), the same ratio with both timed as
whole processes (start to exit, as a user waits for them), and the CPU per message of both. With
--checkpoint-interval SECONDS each round also runs recflow with `--checkpoint` (acknowledging per durable checkpoint
instead of all at the run's end) right after the plain run, and prints its ratios to the plain run and to the peer.
With --baseline BIN each round also runs that recflow binary (e.g. main's build) just before the peer, and prints its
ratio to the same round's peer and its CPU per message beside this build's. With --bound each round also runs the
loop acknowledging every message only once it read the last (`recflow-nats-peer ... at-end`), as a run that commits
at its end must: its ratio to the plain loop is what acknowledging at the end leaves of the loop's speed. Every run's
line also gives the server's CPU per message during it (nats-server's /proc/PID/stat before and after).

Usage: bench/nats_throughput.py [--messages 200000] [--keys 100] [--rounds 5] [--threads 2] [--batch 1024]
                                [--window 60s] [--checkpoint-interval SECONDS] [--baseline BIN] [--bound]
"""
import argparse
import json
import os
import resource
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NODE = ROOT / "tests" / "node" / "nats_bench.mjs"
BIN = ROOT / "build" / "release" / "bin"


def start_server(store):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(["nats-server", "-js", "-a", "127.0.0.1", "-p", str(port), "-sd", str(store)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server, f"nats://127.0.0.1:{port}"
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError("nats-server did not start")
            time.sleep(0.05)


def node(*args):
    done = subprocess.run(["node", str(NODE), *map(str, args)], capture_output=True, text=True, check=True)
    return done.stdout


def process_cpu(pid):
    """The CPU seconds (user + system) process `pid` used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


SERVER = None  # the nats-server process main() started
SERVER_CPU = []  # its CPU seconds during each timed run, in order


def timed(command):
    """Runs `command`; its wall seconds, CPU seconds and stdout (the server's CPU seconds meanwhile to SERVER_CPU)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    server_before = process_cpu(SERVER.pid)
    start = time.monotonic()
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    SERVER_CPU.append(process_cpu(SERVER.pid) - server_before)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def run_recflow(binary, url, work, consumer, threads, batch, window, checkpoint_interval=None):
    pipeline = work / f"{consumer}.yaml"
    pipeline.write_text(f"""
steps:
  - nats: {{url: "{url}", stream: BENCH, consumer: {consumer}, subject: "bench.>",
           schema: {{key: utf8, value: int64, ts: int64}}, event_time: ts, batch: {batch}, max_ack_pending: 10000000, until_caught_up: true}}
  - window: {{fixed: {window}}}
  - combine_per_key: {{keys: [key], aggregates: {{count: "count_all()", sum: "sum(value)"}}}}
  - write_nats: {{url: "{url}", subject: "panes.{consumer}", key: [key]}}
""")
    checkpoint = [] if checkpoint_interval is None else ["--checkpoint", str(work / f"{consumer}.ckpt"),
                                                         "--checkpoint-interval", str(checkpoint_interval)]
    wall, cpu, _ = timed([str(binary), "run", str(pipeline), "--quiet", "--threads", str(threads), *checkpoint])
    return wall, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=200000)
    parser.add_argument("--keys", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--batch", type=int, default=1024, help="messages per pull, both")
    parser.add_argument("--window", default="60s", help="the fixed windows' size (events are 1 ms apart)")
    parser.add_argument("--checkpoint-interval", type=float, default=None,
                        help="also run recflow with --checkpoint, a checkpoint at most every that many seconds")
    parser.add_argument("--recflow", default=str(BIN / "recflow"))
    parser.add_argument("--peer", default=str(BIN / "recflow-nats-peer"))
    parser.add_argument("--baseline", default=None, help="another recflow binary run in the same rounds")
    parser.add_argument("--bound", action="store_true", help="also run the loop acknowledging at its end")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="recflow-nats-bench-"))
    global SERVER
    SERVER, url = start_server(work / "store")
    try:
        node("publish", url, "BENCH", "bench", args.messages, args.keys)
        # The panes' stream (one per round's subject).
        node("publish", url, "PANES", "panes", 0, 1)
        ratios, whole, checkpointed, baseline, cpu_per_message, bound, server_us = [], [], [], [], [], [], {}
        print(f"load average {os.getloadavg()}; {args.messages} messages, {args.keys} keys, {args.threads} threads")
        for r in range(args.rounds):
            us = 1e6 / args.messages
            wall, cpu = run_recflow(args.recflow, url, work, f"recflow{r}", args.threads, args.batch, args.window)
            server_us.setdefault("recflow", []).append(SERVER_CPU[-1] * us)
            if args.baseline is not None:
                base_wall, base_cpu = run_recflow(args.baseline, url, work, f"baseline{r}", args.threads, args.batch,
                                                  args.window)
                server_us.setdefault("baseline", []).append(SERVER_CPU[-1] * us)
            peer_wall, peer_cpu, out = timed([args.peer, url, "BENCH", f"peer{r}", str(args.messages), str(args.batch)])
            server_us.setdefault("loop", []).append(SERVER_CPU[-1] * us)
            peer = json.loads(out)
            a = args.messages / wall
            b = peer["messages"] / peer["seconds"]
            ratios.append(a / b)
            whole.append(peer_wall / wall)
            cpu_per_message.append(cpu * us)
            print(f"round {r}: recflow {a:,.0f} msg/s ({wall:.2f} s wall, {cpu:.2f} s CPU, {cpu * us:.2f} µs CPU/msg, "
                  f"server {server_us['recflow'][-1]:.2f} µs/msg), "
                  f"libnats consume loop {b:,.0f} msg/s ({peer['seconds']:.2f} s by its clock, {peer_wall:.2f} s process, "
                  f"{peer_cpu:.2f} s CPU, {peer_cpu * us:.2f} µs CPU/msg, server {server_us['loop'][-1]:.2f} µs/msg), "
                  f"ratio {a / b:.2f}, whole processes {peer_wall / wall:.2f}")
            if args.baseline is not None:
                baseline.append((args.messages / base_wall / b, base_cpu * us))
                print(f"round {r}: baseline {args.messages / base_wall:,.0f} msg/s ({base_wall:.2f} s wall, {base_cpu:.2f} s CPU, "
                      f"{base_cpu * us:.2f} µs CPU/msg, server {server_us['baseline'][-1]:.2f} µs/msg), "
                      f"ratio {args.messages / base_wall / b:.2f}")
            if args.bound:
                _, end_cpu, out = timed([args.peer, url, "BENCH", f"atend{r}", str(args.messages), str(args.batch), "at-end"])
                server_us.setdefault("loop acking at its end", []).append(SERVER_CPU[-1] * us)
                end = json.loads(out)
                bound.append(end["messages"] / end["seconds"] / b)
                print(f"round {r}: loop acking at its end {end['messages'] / end['seconds']:,.0f} msg/s ({end_cpu * us:.2f} µs CPU/msg, "
                      f"server {server_us['loop acking at its end'][-1]:.2f} µs/msg), ratio {bound[-1]:.2f}")
            if args.checkpoint_interval is not None:
                c_wall, c_cpu = run_recflow(args.recflow, url, work, f"checkpointed{r}", args.threads, args.batch,
                                            args.window, args.checkpoint_interval)
                checkpointed.append((wall / c_wall, cpu / c_cpu, args.messages / c_wall / b))
                print(f"round {r}: recflow --checkpoint {args.messages / c_wall:,.0f} msg/s ({c_wall:.2f} s wall, {c_cpu:.2f} s CPU, "
                      f"{c_cpu * us:.2f} µs CPU/msg): speed {wall / c_wall:.2f}x and CPU {c_cpu / cpu:.2f}x the plain run's, "
                      f"ratio to the peer {args.messages / c_wall / b:.2f}")
        print(f"median ratio recflow / peer: {statistics.median(ratios):.2f} (whole processes {statistics.median(whole):.2f}); "
              f"load average {os.getloadavg()}")
        if baseline:
            print(f"median ratio baseline / peer: {statistics.median(c[0] for c in baseline):.2f}, "
                  f"CPU {statistics.median(c[1] for c in baseline):.2f} µs/msg against this build's "
                  f"{statistics.median(cpu_per_message):.2f}")
        if bound:
            print(f"median ratio of the loop acking at its end / the loop: {statistics.median(bound):.2f}")
        print("server CPU per message (median): " +
              ", ".join(f"{name} {statistics.median(values):.2f} µs" for name, values in server_us.items()))
        if checkpointed:
            print(f"median with --checkpoint: speed {statistics.median(c[0] for c in checkpointed):.2f}x the plain run's, "
                  f"CPU {1 / statistics.median(c[1] for c in checkpointed):.2f}x, ratio to the peer "
                  f"{statistics.median(c[2] for c in checkpointed):.2f}")
    finally:
        SERVER.terminate()
        SERVER.wait()
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
