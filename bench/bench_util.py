"""What the whole-program benchmarks share: the build's binaries, the taxi-like CSV bench/taxi_csv.py makes, a timed
run of one command (its wall seconds and its own CPU seconds, from wait4) and a timed `recflow convert` of that CSV."""
import os
import shutil
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(os.environ.get("RECFLOW_BIN_DIR", ROOT / "build" / "release" / "bin"))
TAXI_CSV = ROOT / "build" / "bench-data" / "taxi-1m.csv"


def taxi_csv() -> Path:
    """The taxi-like CSV, made by bench/taxi_csv.py when it is not there yet."""
    if not TAXI_CSV.exists():
        subprocess.run(["/usr/bin/python3", str(ROOT / "bench" / "taxi_csv.py")], check=True)
    return TAXI_CSV


def timed(cmd, capture: bool = False) -> tuple[float, float, str | None]:
    """Runs `cmd` to its end: wall seconds, CPU seconds (user + system of that child and what it waited for, from
    wait4: what a loaded machine does not distort) and, with `capture`, its stdout. SystemExit with its stderr when
    it fails."""
    start = time.perf_counter()
    proc = subprocess.Popen([str(part) for part in cmd], stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    stdout, stderr = proc.stdout.read() if capture else None, proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{cmd[0]} failed ({os.waitstatus_to_exitcode(status)}): {stderr}")
    return wall, usage.ru_utime + usage.ru_stime, stdout


def convert_taxi(out: Path, threads: int, *options: str) -> tuple[float, float]:
    """Wall and CPU seconds of one `recflow convert` of the taxi CSV into `out` (removed first): 8 shards, `threads`
    threads, no progress bar, no sync, then `options`."""
    shutil.rmtree(out, ignore_errors=True)
    wall, cpu, _ = timed([BIN / "recflow", "convert", taxi_csv(), "-o", out, "--shards", "8", "--threads", str(threads),
                          "--no-progress", "--no-sync", *options])
    return wall, cpu
