"""Running the Node.js test oracles (Apache Arrow JS, DuckDB) from pytest."""
import subprocess
import sys
from pathlib import Path

NODE_DIR = Path(__file__).resolve().parents[2] / "tests" / "node"


def run_node(script: str, *args, timeout: float = 60, input: str = None) -> subprocess.CompletedProcess:
    """Runs `node tests/node/SCRIPT ARGS...` (stdin closed unless `input` is given) and returns the
    CompletedProcess. Node has hung at times on this shared machine before running any of the
    script (the same file read fine before and after); a run that times out is retried once, with
    a note on stderr, and a second timeout fails the test."""
    cmd = ["node", str(NODE_DIR / script), *map(str, args)]
    for attempt in (1, 2):
        try:
            return subprocess.run(cmd, input=input, stdin=None if input is not None else subprocess.DEVNULL,
                                  capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            if attempt == 2:
                raise
            print(f"node_util: {' '.join(cmd)} timed out after {timeout} s; retrying once", file=sys.stderr)
    raise AssertionError("unreachable")
