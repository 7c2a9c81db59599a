"""Ctrl-C in a child Python process that imports the build's recflow: started, interrupted once it says it is busy."""
import os
import signal
import subprocess
import sys


# A user's Python process takes Ctrl-C with SIGINT unblocked and Python's default handler. A child inherits its
# signal mask and ignored signals from this test process, which a library loaded here may have changed (whole
# suites have failed every Ctrl-C test at once, each child ignoring SIGINT): the child starts from the user's state.
CHILD_PRELUDE = """import signal
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
signal.signal(signal.SIGINT, signal.default_int_handler)
"""


def sigint_state():
    """SIGINT's state in this process: Python's handler and whether the main thread blocks it and the process ignores
    it (from /proc: the masks a child inherits)."""
    bit = 1 << (signal.SIGINT - 1)
    masks = {}
    for line in open(f"/proc/{os.getpid()}/task/{os.getpid()}/status"):
        name, _, value = line.partition(":")
        if name in ("SigBlk", "SigIgn"):
            masks[name] = bool(int(value, 16) & bit)
    return f"SIGINT handler {signal.getsignal(signal.SIGINT)!r}, blocked {masks['SigBlk']}, ignored {masks['SigIgn']}"


def interrupt_when_ready(code, args, package_dir, ready, timeout=60, interrupt=None):
    """Runs `code` (with `args`) in a child /usr/bin/python3 importing recflow from `package_dir`,
    waits for its line `ready` (no timing: the child says when it is inside the work), sends it
    SIGINT (or calls `interrupt(child)`, which does) and returns (returncode, the rest of its stdout, its stderr); the child is killed after
    `timeout` seconds (a bound on a hang)."""
    child = subprocess.Popen([sys.executable, "-c", CHILD_PRELUDE + code, *map(str, args)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(package_dir)})
    try:
        first = child.stdout.readline()
        assert first == ready + "\n", (first, child.stderr.read() if first == "" else "")
        if interrupt is None:
            child.send_signal(signal.SIGINT)
        else:
            interrupt(child)
        try:
            out, err = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired as hang:
            raise AssertionError(f"the child did not end within {timeout} s after SIGINT; test process: "
                                 f"{sigint_state()}") from hang
    finally:
        child.kill()
    return child.returncode, out, err
