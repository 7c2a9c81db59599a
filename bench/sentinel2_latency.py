#!/usr/bin/python3
"""Latency of examples/sentinel2-stream from the scene that closes a tile's session to the message naming its EVI
raster, on a running job: tests/node/nats_scene_latency.mjs publishes scenes of the shared Sentinel-2 bands one every
--interval-ms (sessions 10 minutes of acquisition time apart, two tiles in turn, so each scene closes the session
before it) and times each output message against that scene's publish. Configurations run in turn, round after round,
each on a nats-server of its own: `--baseline BIN` without --checkpoint (a build before 7dce5dd: messages as rows
leave, rasters at the run's end) and this tree's recflow with --checkpoint (rasters committed per epoch, then their
messages). This tree without --checkpoint is not timed: it holds every message until the run ends (docs/streaming.md,
"A run that commits at its end holds its messages to its end"). The example runs without its dead_letter: line (a
checkpoint refuses it). Prints p50/p99 per run.

Usage: bench/sentinel2_latency.py --baseline BIN [--recflow BIN] [--scenes 10] [--interval-ms 3000] [--rounds 2]
"""
import argparse
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from nats_latency import NODE, create_streams, stop
from nats_throughput import BIN, ROOT, start_server

EXAMPLE = ROOT / "examples" / "sentinel2-stream" / "pipeline.yaml"
TESTDATA = Path(os.environ.get("RECFLOW_TESTDATA_DIR", ROOT.parent / "shared" / "testdata"))
T0 = 1_582_112_000_000


def scenes(n):
    s2 = TESTDATA / "raster" / "sentinel2-l2a"
    return [{"scene_id": f"s{k}", "tile": ("29RKH", "29RKJ")[k % 2], "acquired": T0 + k * 600_000,
             "blue": str(s2 / "B02.tif"), "red": str(s2 / "B04.tif"), "nir": str(s2 / "B08.tif")} for k in range(n)]


def one_run(binary, checkpoint, work, args):
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    server, url = start_server(work / "store")
    job = None
    try:
        create_streams(url, (("SCENES", "sentinel2.scenes"), ("EVI", "sentinel2.evi")))
        pipeline = work / "pipeline.yaml"
        # Without {@generation} (nothing in generation 0, the only one here), which a build before 132b856 lacks.
        pipeline.write_text("".join(line for line in EXAMPLE.read_text().splitlines(keepends=True)
                                    if not line.lstrip().startswith("dead_letter:")).replace("{@generation}", ""))
        extra = ["--checkpoint", str(work / "ckpt"), "--checkpoint-interval", "0"] if checkpoint else []
        job = subprocess.Popen([binary, "run", str(pipeline), "--set", f"nats={url}", "--set", f"out={work / 'out'}",
                                "--quiet", *extra])
        done = subprocess.run(["node", str(NODE / "nats_scene_latency.mjs"), url, "sentinel2.scenes", "sentinel2.evi",
                               str(args.interval_ms)], input="".join(json.dumps(s) + "\n" for s in scenes(args.scenes)),
                              check=True, capture_output=True, text=True)
        return json.loads(done.stdout)
    finally:
        stop(job, server)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="the recflow to compare with (run without --checkpoint)")
    parser.add_argument("--recflow", default=str(BIN / "recflow"))
    parser.add_argument("--scenes", type=int, default=10)
    parser.add_argument("--interval-ms", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="recflow-s2-latency-"))
    configs = [("baseline", args.baseline, False), ("recflow --checkpoint", args.recflow, True)]
    try:
        for r in range(args.rounds):
            for name, binary, checkpoint in configs:
                result = one_run(binary, checkpoint, work / "run", args)
                print(f"round {r + 1} {name}: {json.dumps(result)} load average {os.getloadavg()}", flush=True)
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
