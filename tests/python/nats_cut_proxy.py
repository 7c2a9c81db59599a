"""NatsCutProxy: a loopback TCP proxy in front of a NATS server that cuts its first client's connection right after the
Kth publish on a subject reached the server, so the server's acknowledgement of it is lost for sure; the client's
reconnections then pass through unchanged."""
import socket
import threading


class NatsCutProxy:
    """Listens at `url` and forwards every connection to the NATS server on `server_port`. On the first connection it
    reads the client's protocol frames (PUB and HPUB with their payloads, one-line operations otherwise); once the
    `k`th publish on `subject` was forwarded, nothing more from the server reaches that client (so neither its
    acknowledgement nor any later one) and both sides are closed: the client loses what it had sent after that publish
    and the replies to everything it had sent. `cut` is set then."""

    def __init__(self, server_port, subject, k):
        self.server_port, self.subject, self.k = server_port, subject.encode(), k
        self.cut = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"nats://127.0.0.1:{self.listener.getsockname()[1]}"
        self.sockets = []
        self.armed = True  # the next connection is the one to cut
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self):
        self.listener.close()
        for s in self.sockets:
            s.close()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            server = socket.create_connection(("127.0.0.1", self.server_port))
            self.sockets += [client, server]
            armed, self.armed = self.armed, False
            link = _Link(client, server)
            threading.Thread(target=self._downstream, args=(link,), daemon=True).start()
            upstream = self._cutting_upstream if armed else self._upstream
            threading.Thread(target=upstream, args=(link,), daemon=True).start()

    @staticmethod
    def _upstream(link):
        while data := _recv(link.client):
            if not _send(link.server, data):
                return

    @staticmethod
    def _downstream(link):
        while data := _recv(link.server):
            with link.lock:  # the cut, under the same lock, stops anything received after it
                if link.stopped or not _send(link.client, data):
                    return

    def _cutting_upstream(self, link):
        buffer, published = b"", 0
        while data := _recv(link.client):
            buffer += data
            while (end := buffer.find(b"\r\n")) >= 0:
                words = buffer[:end].split()
                size = end + 2
                if words and words[0].upper() in (b"PUB", b"HPUB"):
                    size += int(words[-1]) + 2  # the payload (headers included) and its CRLF
                if len(buffer) < size:
                    break  # the rest of the frame is still to come
                frame, buffer = buffer[:size], buffer[size:]
                is_publish = len(words) > 1 and words[0].upper() in (b"PUB", b"HPUB") and words[1] == self.subject
                published += is_publish
                if is_publish and published == self.k:
                    with link.lock:
                        link.stopped = True
                    _send(link.server, frame)
                    # The server reads the frame before the end of its input (it answers it to no one); the client's
                    # connection is reset, with what it sent after the frame.
                    _shutdown(link.server, socket.SHUT_WR)
                    _shutdown(link.client, socket.SHUT_RDWR)
                    self.cut.set()
                    return
                if not _send(link.server, frame):
                    return


class _Link:
    """One proxied connection: the two sockets, and whether the server's side is no longer forwarded."""

    def __init__(self, client, server):
        self.client, self.server = client, server
        self.lock = threading.Lock()
        self.stopped = False


def _recv(sock):
    try:
        return sock.recv(65536)
    except OSError:
        return b""


def _shutdown(sock, how):
    try:
        sock.shutdown(how)
    except OSError:
        pass


def _send(sock, data):
    try:
        sock.sendall(data)
        return True
    except OSError:
        return False
