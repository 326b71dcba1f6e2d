"""Playing across a network: an authoritative game server, clients that mirror it, and their protocol.

- :mod:`simulator.net.protocol`: the messages (pydantic models), the limits, join links, the state digest;
- :mod:`simulator.net.mirror`: dice that record what the server rolled, and a client's copy of the game;
- :mod:`simulator.net.server`: ``gaslands host`` (asyncio and ``websockets``);
- :mod:`simulator.net.client`: ``gaslands join`` (a bot headless, or the window).

``geometry`` and ``gaslands`` never import this package. The protocol is documented in docs/online.md.
"""
