"""Inputs that are not regular files: a FIFO that a thread feeds."""
import contextlib
import os
import threading


@contextlib.contextmanager
def fifo_fed(tmp_path, data: bytes, name="fifo"):
    """A FIFO that a thread writes `data` into (then closes), for as long as the block runs."""
    path = tmp_path / name
    os.mkfifo(path)

    def feed():
        try:
            with open(path, "wb") as w:  # blocks until the reader opens it
                w.write(data)
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        yield path
    finally:
        # A writer still waiting for a reader is let go by a non-blocking open for reading (which never waits, unlike
        # a plain open when the writer just finished: that one waited for a writer forever); its write then fails
        # with BrokenPipeError, which it expects.
        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
        writer.join(timeout=60)
