"""Helpers for the online tests: a game server in a background thread, on loopback, stopped on leaving."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from simulator.net.server import GameServer, Links, Table


@contextmanager
def server_thread(table: Table) -> Iterator[Links]:
    """``table`` served on 127.0.0.1 (a free port) from a background thread; its links; stopped on leaving."""
    started = threading.Event()
    stop: list[asyncio.Event] = []
    links: list[Links] = []

    async def serve() -> None:
        async with GameServer([table]) as server:
            links.append(server.links(table))
            stop.append(asyncio.Event())
            started.set()
            await stop[0].wait()

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(serve(),), daemon=True)
    thread.start()
    assert started.wait(10), "the server did not start"
    try:
        yield links[0]
    finally:
        loop.call_soon_threadsafe(stop[0].set)
        thread.join(10)
        loop.close()
