"""Benchmark: many games at once against one game server, on loopback (issue 12).

Run ``python benchmarks/bench_online.py [--games 50] [--seed 1] [--workers 2]``.

One server process hosts ``--games`` Street Races (one :class:`Table` each,
autosaving every decision to a temporary folder, as ``gaslands host`` does);
``--workers`` client processes run two bot clients per game (each keeping its
own copy of the game, as ``gaslands join --bot`` does), all games at once.
Prints decisions per second across all games, the decision latency a client
sees (from sending a decision to the server's confirmation, p50 and p99), the
server's own time per decision (checks, rules, autosave, sending; p50 and
p99) and the CPU time of the server and the clients (which does not depend on
what else the machine is doing). As a baseline in the same run, the same games are played by the same
bots in one process with no network; each online game must end with exactly
the decisions and final state of its local game (compared by the state
digest), and the benchmark fails if one does not.

Everything listens on 127.0.0.1 only, every game ends, and every process
stops by itself (the server when all its games are over, within a time
limit).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulator.gaslands.bots import Bot, play_bot_game
from simulator.gaslands.game import Options
from simulator.net.client import play
from simulator.net.protocol import parse_link, state_digest
from simulator.net.server import GameServer, Table
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.setup import new_game
from simulator.scenario.simulate import ROUND_LIMIT, game_seeds

TIME_LIMIT_S = 600.0
"""The server stops after this long even if some game has not ended (the benchmark then fails)."""


@dataclass(frozen=True)
class GameResult:
    """One game as a client saw it (or as local play ended)."""

    index: int
    decisions: int
    digest: str
    latencies_s: tuple[float, ...] = ()


def options() -> Options:
    return Options(round_limit=ROUND_LIMIT)


def local_games(seeds: list[int]) -> tuple[list[GameResult], float]:
    """The baseline: every game played by the bots in this process; (results, seconds)."""
    scenario = load_scenario(bundled_scenario())
    bot = Bot()
    started = time.perf_counter()
    out = []
    for i, seed in enumerate(seeds):
        game = play_bot_game(new_game(scenario, seed, options()), bot)
        out.append(GameResult(i, len(game.decisions), state_digest(game.engine_state)))
    return out, time.perf_counter() - started


def serve(seeds: list[int], links_out: Any, stats_out: Any, save_dir: str) -> None:
    """The server process: one table per seed; sends every table's links, then its timings once all are over."""
    scenario = load_scenario(bundled_scenario())

    async def main() -> None:
        tables = [Table.new(scenario, seed, options(), save_path=Path(save_dir) / f"game-{i}.json")
                  for i, seed in enumerate(seeds)]
        async with GameServer(tables) as server:
            links_out.put([{seat: link.url for seat, link in server.links(t).seats.items()} for t in tables])
            cpu = time.process_time()
            await asyncio.wait_for(asyncio.gather(*(t.finished.wait() for t in tables)), TIME_LIMIT_S)
            cpu = time.process_time() - cpu
        stats_out.put(([s for t in tables for s in t.timings_s], cpu))

    asyncio.run(main())


def clients(games: list[tuple[int, dict[str, str]]], out: Any) -> None:
    """A client process: two bot clients for each of ``games`` (index, links by seat), all at once."""

    async def one(index: int, links: dict[str, str]) -> GameResult:
        played = await asyncio.gather(*(play(parse_link(url), Bot(), retry_s=30) for url in links.values()))
        mirror = played[0].follower.mirror
        assert mirror is not None
        latencies = tuple(x for p in played for x in p.latencies_s)
        return GameResult(index, mirror.n, mirror.digests[-1], latencies)

    async def main() -> list[GameResult]:
        return list(await asyncio.gather(*(one(i, links) for i, links in games)))

    cpu = time.process_time()
    results = asyncio.run(main())
    out.put((results, time.process_time() - cpu))


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2, help="client processes (default 2)")
    args = parser.parse_args(argv)
    seeds = game_seeds(args.seed, args.games)

    cpu = time.process_time()
    local, local_s = local_games(seeds)
    local_cpu_s = time.process_time() - cpu
    local_decisions = sum(r.decisions for r in local)

    ctx = mp.get_context("spawn")
    links_q, stats_q, results_q = ctx.Queue(), ctx.Queue(), ctx.Queue()
    with tempfile.TemporaryDirectory() as save_dir:
        server = ctx.Process(target=serve, args=(seeds, links_q, stats_q, save_dir), daemon=True)
        server.start()
        links = links_q.get(timeout=120)
        shares = [[(i, links[i]) for i in range(w, args.games, args.workers)] for w in range(args.workers)]
        started = time.perf_counter()
        workers = [ctx.Process(target=clients, args=(share, results_q), daemon=True) for share in shares if share]
        for w in workers:
            w.start()
        online: list[GameResult] = []
        client_cpu_s = 0.0
        for _ in workers:
            results, cpu = results_q.get(timeout=TIME_LIMIT_S)
            online += results
            client_cpu_s += cpu
        online_s = time.perf_counter() - started
        server_times, server_cpu_s = stats_q.get(timeout=60)
        for p in (*workers, server):
            p.join(30)

    online.sort(key=lambda r: r.index)
    same = sum(1 for a, b in zip(online, local, strict=True) if (a.decisions, a.digest) == (b.decisions, b.digest))
    decisions = sum(r.decisions for r in online)
    latencies = [x for r in online for x in r.latencies_s]
    print(f"{args.games} Street Races at once against one server on loopback, {args.workers} client processes, "
          f"2 bot clients per game, autosave after every decision")
    print(f"  decisions: {decisions} in {online_s:.2f} s = {decisions / online_s:.0f} decisions/s online")
    print(f"  decision latency seen by a client (send -> confirmed): p50 {1000 * percentile(latencies, 0.5):.1f} ms, "
          f"p99 {1000 * percentile(latencies, 0.99):.1f} ms (median {1000 * statistics.median(latencies):.1f} ms)")
    print(f"  server time per decision (checks, rules, autosave, send): p50 "
          f"{1000 * percentile(server_times, 0.5):.2f} ms, p99 {1000 * percentile(server_times, 0.99):.2f} ms")
    print(f"  CPU time: the server {server_cpu_s:.2f} s ({1000 * server_cpu_s / decisions:.2f} ms a decision: "
          f"{decisions / server_cpu_s:.0f} decisions per CPU-second), the clients {client_cpu_s:.2f} s "
          f"(2 copies of each game, and the bots)")
    print(f"  baseline, the same games played locally in one process: {local_decisions} decisions in {local_s:.2f} s "
          f"= {local_decisions / local_s:.0f} decisions/s ({1000 * local_cpu_s / local_decisions:.2f} ms CPU a "
          "decision, the bots' included)")
    print(f"  ratio online/local decisions per second: {(decisions / online_s) / (local_decisions / local_s):.2f}")
    print(f"  same results as local play: {same}/{args.games} games (decisions and final state digest)")
    return 0 if same == args.games else 1


if __name__ == "__main__":
    sys.exit(main())
