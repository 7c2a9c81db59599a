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
        if writer.is_alive():  # the reader never opened it: unblock the writer
            with open(path, "rb"):
                pass
        writer.join(timeout=60)
