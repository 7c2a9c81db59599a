"""Ctrl-C in a child Python process that imports the build's recflow: started, interrupted once it says it is busy."""
import os
import signal
import subprocess
import sys


def interrupt_when_ready(code, args, package_dir, ready, timeout=60, interrupt=None):
    """Runs `code` (with `args`) in a child /usr/bin/python3 importing recflow from `package_dir`,
    waits for its line `ready` (no timing: the child says when it is inside the work), sends it
    SIGINT (or calls `interrupt(child)`, which does) and returns (returncode, the rest of its stdout, its stderr); the child is killed after
    `timeout` seconds (a bound on a hang)."""
    child = subprocess.Popen([sys.executable, "-c", code, *map(str, args)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(package_dir)})
    try:
        first = child.stdout.readline()
        assert first == ready + "\n", (first, child.stderr.read() if first == "" else "")
        if interrupt is None:
            child.send_signal(signal.SIGINT)
        else:
            interrupt(child)
        out, err = child.communicate(timeout=timeout)
    finally:
        child.kill()
    return child.returncode, out, err
