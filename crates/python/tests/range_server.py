"""An HTTP server with range support that injects faults on a schedule, for
the remote-input tests (tests/test_remote.py). It serves one folder on
127.0.0.1 (a port the system picks), answers GET and HEAD with `ETag`,
`Accept-Ranges`, `Content-Length`, single `Range: bytes=a-b` requests with
206 and `Content-Range`, and honours `If-Match` (412 when it does not
match).

Faults are queued per file name and taken one per GET of that file, in
order (a GET with no fault queued is served normally):

- ``("drop", n)``: the answer's headers and its first ``n`` body bytes,
  then the connection closed (a reset mid-body);
- ``("status", code, retry_after)``: that status with ``Retry-After``
  (seconds) and no body;
- ``("stall", n, seconds)``: headers and ``n`` bytes, then silence for
  ``seconds`` before the connection is closed;
- ``("wrong-range",)``: a 206 whose ``Content-Range`` (and bytes) start one
  byte later than asked;
- ``("etag",)``: from this request on, the file answers with another ETag
  (a changed object).

Every request is logged as ``(method, name, range header)`` in ``log``.
"""

from __future__ import annotations

import hashlib
import http.server
import pathlib
import re
import socket
import threading
import time


class RangeServer:
    def __init__(self, root: pathlib.Path):
        self.root = pathlib.Path(root)
        self.faults: dict[str, list[tuple]] = {}
        self.etag_changed: set[str] = set()
        self.log: list[tuple[str, str, str | None]] = []
        self.lock = threading.Lock()
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def do_HEAD(self):
                self._quietly(head=True)

            def do_GET(self):
                self._quietly(head=False)

            def _quietly(self, head):
                # A client that gives up on an answer (as it should on a
                # wrong one) closes the connection under the write.
                try:
                    server._serve(self, head=head)
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> "RangeServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def inject(self, name: str, *faults: tuple) -> None:
        with self.lock:
            self.faults.setdefault(name, []).extend(faults)

    def gets(self, name: str) -> list[str | None]:
        """The Range headers of every GET of ``name``, in order."""
        with self.lock:
            return [r for (m, n, r) in self.log if m == "GET" and n == name]

    def _etag(self, name: str, data: bytes) -> str:
        tag = hashlib.sha1(data).hexdigest()[:16]
        if name in self.etag_changed:
            tag = "changed-" + tag
        return f'"{tag}"'

    def _serve(self, h: http.server.BaseHTTPRequestHandler, head: bool) -> None:
        name = h.path.split("?", 1)[0].lstrip("/")
        rng = h.headers.get("Range")
        fault = None
        with self.lock:
            self.log.append(("HEAD" if head else "GET", name, rng))
            if not head and self.faults.get(name):
                fault = self.faults[name].pop(0)
            if fault and fault[0] == "etag":
                self.etag_changed.add(name)
                fault = None
        path = (self.root / name).resolve()
        if not name or self.root.resolve() not in path.parents or not path.is_file():
            h.send_response(404)
            h.send_header("Content-Length", "0")
            h.end_headers()
            return
        data = path.read_bytes()
        etag = self._etag(name, data)
        if fault and fault[0] == "status":
            h.send_response(fault[1])
            h.send_header("Retry-After", str(fault[2]))
            h.send_header("Content-Length", "0")
            h.end_headers()
            return
        if_match = h.headers.get("If-Match")
        if if_match is not None and if_match != etag and if_match != "*":
            h.send_response(412)
            h.send_header("Content-Length", "0")
            h.end_headers()
            return
        start, end = 0, len(data)
        status = 200
        if rng:
            m = re.fullmatch(r"bytes=(\d+)-(\d*)", rng.strip())
            if not m or int(m.group(1)) >= len(data):
                h.send_response(416)
                h.send_header("Content-Range", f"bytes */{len(data)}")
                h.send_header("Content-Length", "0")
                h.end_headers()
                return
            start = int(m.group(1))
            end = min(len(data), int(m.group(2)) + 1) if m.group(2) else len(data)
            status = 206
        shown_start, shown_end = start, end
        if fault and fault[0] == "wrong-range" and status == 206:
            shown_start, shown_end = start + 1, min(len(data), end + 1)
        body = data[shown_start:shown_end]
        h.send_response(status)
        h.send_header("ETag", etag)
        h.send_header("Accept-Ranges", "bytes")
        h.send_header("Last-Modified", "Mon, 07 Dec 2026 00:00:00 GMT")
        h.send_header("Content-Length", str(len(body)))
        if status == 206:
            h.send_header("Content-Range", f"bytes {shown_start}-{shown_end - 1}/{len(data)}")
        h.end_headers()
        if head:
            return
        if fault and fault[0] in ("drop", "stall"):
            h.wfile.write(body[: fault[1]])
            h.wfile.flush()
            if fault[0] == "stall":
                time.sleep(fault[2])
            h.close_connection = True
            try:
                h.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        h.wfile.write(body)
