"""RangeServer: one file over HTTP on a loopback port with range requests (what GDAL's /vsicurl/ sends), for raster tests
that need to hold a read or to require credentials."""
import base64
import http.server
import threading


class RangeServer:
    """Serves `path` at `url`. With `limit`, only ranges inside the first `limit` bytes (a GeoTIFF's header and tile
    index) are answered: a request reaching further — a tile's pixels — is held until close(), and `stalled` is set.
    With `userpwd` ("user:password"), a request without that HTTP basic authorization gets 401."""

    def __init__(self, path, limit=None, userpwd=None):
        data, self.stalled, self.release = path.read_bytes(), threading.Event(), threading.Event()
        expected = "Basic " + base64.b64encode(userpwd.encode()).decode() if userpwd else None
        self.refused = 0
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def authorized(self):
                if expected is None or self.headers.get("Authorization") == expected:
                    return True
                server.refused += 1
                self.send_response(401)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return False

            def do_HEAD(self):
                if not self.authorized():
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Accept-Ranges", "bytes")
                self.end_headers()

            def do_GET(self):
                if not self.authorized():
                    return
                first, _, last = self.headers["Range"].removeprefix("bytes=").partition("-")
                first, last = int(first), min(int(last or len(data) - 1), len(data) - 1)
                if limit is not None and last >= limit:
                    server.stalled.set()
                    server.release.wait(120)
                    return
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {first}-{last}/{len(data)}")
                self.send_header("Content-Length", str(last - first + 1))
                self.end_headers()
                self.wfile.write(data[first:last + 1])

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/{path.name}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()
