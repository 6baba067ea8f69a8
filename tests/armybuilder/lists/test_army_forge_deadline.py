"""The Army Forge fetch has one deadline for the whole answer (issue 38, item 6).

A real socket server on this machine trickles its answer (a byte every 50 ms): each read
returns within any per-read timeout, so the old client read on for as long as the server
liked (120 s in the fault run, holding the only `pdf` worker while PDFs waited). Now the fetch
ends at `ARMY_FORGE_TIMEOUT` with a message saying so.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from armybuilder.lists.importers.base import ImportProblem
from armybuilder.lists.importers.fetch import fetch_army_forge

BODY = b'{"gameSystem": "gf", "units": []}'


class TricklingServer:
    """Answers each connection with `head` at once, then `trickled` a byte every `gap` seconds."""

    def __init__(self, head: bytes, trickled: bytes, gap: float = 0.05) -> None:
        self.head, self.trickled, self.gap = head, trickled, gap
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        self.listener.settimeout(0.2)
        while not self.stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except TimeoutError:
                continue
            with conn:
                conn.recv(65536)  # the request
                try:
                    conn.sendall(self.head)
                    for byte in self.trickled:
                        if self.stop.is_set():
                            return
                        conn.sendall(bytes([byte]))
                        time.sleep(self.gap)
                except OSError:
                    continue  # the client gave up: what the test wants

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        self.listener.close()


@pytest.fixture
def trickling(settings: Any) -> Iterator[Any]:
    servers: list[TricklingServer] = []

    def start(head: bytes, trickled: bytes) -> str:
        server = TricklingServer(head, trickled)
        servers.append(server)
        settings.ARMY_FORGE_URL = f"http://127.0.0.1:{server.port}"
        settings.ARMY_FORGE_TIMEOUT = 1.0
        settings.ARMY_FORGE_MAX_BYTES = 1024 * 1024
        return f"{settings.ARMY_FORGE_URL}/share?id=abc"

    yield start
    for server in servers:
        server.close()


def fetched_in(link: str) -> tuple[float, list[tuple[str, str]]]:
    started = time.monotonic()
    with pytest.raises(ImportProblem) as refused:
        fetch_army_forge(link)
    return time.monotonic() - started, refused.value.errors


TOO_SLOW = [("url", "Army Forge took longer than 1 s to send the list; try again later.")]


def test_a_body_trickled_past_the_deadline_is_refused_at_the_deadline(trickling):
    body = BODY + b" " * 400  # 400 more bytes at 50 ms each: 20 s
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)
    seconds, errors = fetched_in(trickling(head, body))
    assert errors == TOO_SLOW
    assert 1.0 <= seconds < 1.8


def test_trickled_headers_are_refused_at_the_deadline(trickling):
    head = b"HTTP/1.1 200 OK\r\n" + b"X-Padding: " + b"a" * 400 + b"\r\n\r\n"
    seconds, errors = fetched_in(trickling(b"", head + BODY))
    assert errors == TOO_SLOW
    assert 1.0 <= seconds < 1.8


def test_an_answer_within_the_deadline_is_read_whole(trickling):
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(BODY)
    link = trickling(head, BODY)  # 33 bytes at 50 ms: 1.65 s, over the deadline...
    from django.conf import settings

    settings.ARMY_FORGE_TIMEOUT = 5.0  # ...but within this one
    assert fetch_army_forge(link).data == BODY
