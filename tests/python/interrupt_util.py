"""A Python child importing the build's recflow, interrupted with SIGINT once it printed a given line."""
import os
import signal
import subprocess
import sys


def interrupt_child(python_package_dir, script, args, ready_line, interrupt=None):
    """Runs ``script`` with ``args`` in a child Python (PYTHONPATH = the build's package), waits for its
    first stdout line, which must be ``ready_line``, sends it SIGINT (or calls ``interrupt(child)``,
    which does), and returns (returncode, the rest of stdout, stderr); a child still running 60 s
    later is killed and fails the test (a bound on a hang)."""
    child = subprocess.Popen([sys.executable, "-c", script, *map(str, args)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(python_package_dir)})
    try:
        assert child.stdout.readline() == ready_line
        if interrupt is None:
            child.send_signal(signal.SIGINT)
        else:
            interrupt(child)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    return child.returncode, out, err
