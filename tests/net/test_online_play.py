"""Online play on loopback: whole games between bot clients, reconnects, late spectators, and clients that cheat,
send garbage or flood; the server refuses them (to them alone) and the game goes on to the local result.

Every server here listens on 127.0.0.1 with a free port and stops by itself; every wait is bounded.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from simulator.gaslands.bots import Bot, play_bot_game
from simulator.gaslands.decisions import RollSkid
from simulator.gaslands.game import Game, Options
from simulator.net.client import Connection, Follower, Played, Refusal, play
from simulator.net.protocol import (
    PROTOCOL_VERSION,
    Decide,
    ErrorMessage,
    GameOver,
    Hello,
    JoinLink,
    Move,
    Welcome,
    dump,
    parse_link,
    parse_server_message,
    state_digest,
)
from simulator.net.server import GameServer, Table
from simulator.scenario import saves
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.saves import encode_decision
from simulator.scenario.setup import new_game

pytestmark = pytest.mark.timeout(120)

SCENARIO = load_scenario(bundled_scenario())
OPTIONS = Options(round_limit=30)
SEED = 5


def local_game(seed: int = SEED, options: Options | None = OPTIONS) -> Game:
    """The same game played by the same bots on one computer."""
    game = new_game(SCENARIO, seed, options)
    return play_bot_game(game, Bot())


LOCAL = local_game()


def run(coro: Awaitable[object], timeout_s: float = 90.0) -> object:
    return asyncio.run(asyncio.wait_for(coro, timeout_s))  # type: ignore[arg-type]


def assert_local_result(table_or_played: Table | Played, local: Game = LOCAL) -> None:
    if isinstance(table_or_played, Table):
        game = table_or_played.game
        assert game.decisions == local.decisions
        assert game.state == local.state
        return
    mirror = table_or_played.follower.mirror
    assert mirror is not None
    assert mirror.game.decisions == local.decisions
    assert mirror.game.state == local.state
    assert table_or_played.result.decisions == len(local.decisions)
    winner = local.state.winner
    assert table_or_played.result.winner == (None if winner is None else SCENARIO.spec.player[winner].id)


def test_a_whole_game_between_two_bot_clients_ends_with_the_local_result(tmp_path: Path) -> None:
    save = tmp_path / "online.json"

    async def scenario() -> tuple[Table, list[Played]]:
        table = Table.new(SCENARIO, SEED, OPTIONS, save_path=save)
        async with GameServer([table]) as server:
            links = server.links(table)
            played = await asyncio.gather(*(play(link, Bot()) for link in links.seats.values()),
                                          play(links.spectator))
        return table, list(played)

    table, played = run(scenario())  # type: ignore[misc]
    assert_local_result(table)
    for p in played:
        assert_local_result(p)
        assert p.resyncs == 0 and p.reconnects == 0
    # every client's copy matched the server's state after every decision (the digests it checked)
    replay = new_game(SCENARIO, SEED, OPTIONS)
    digests = [state_digest(replay.engine_state)]
    for decision in LOCAL.decisions:
        replay.decide(decision)
        digests.append(state_digest(replay.engine_state))
    assert played[2].follower.mirror is not None and played[2].follower.mirror.digests == digests
    assert [m.digest for m in table.moves] == digests[1:]
    # the spectator saw the whole log; each seat timed each of its decisions
    assert played[2].follower.mirror.game.log == LOCAL.log
    assert len(played[0].latencies_s) + len(played[1].latencies_s) == len(LOCAL.decisions)
    # the autosave is a normal save (plus the links' tokens) and replays to the same game
    assert saves.load(save).state == LOCAL.state
    assert json.loads(save.read_text())["online"]["seats"] == table.tokens


def test_cheating_and_garbage_are_refused_to_that_client_and_the_game_goes_on() -> None:
    """Red plays properly with the bot but first tries, each once: to decide for Blue, to replay its own old
    decision, an illegal decision, garbage, an oversized message, a binary frame, a second hello; and a
    spectator tries to decide. Each gets its reason; the game ends exactly as the local game."""
    errors: list[ErrorMessage] = []
    spectator_errors: list[ErrorMessage] = []
    blue_gate = asyncio.Event()

    async def gated_blue(link: JoinLink) -> Played:
        bot = Bot()
        conn = Connection(link)
        follower = Follower()
        pending = 0
        async for message in conn.messages():
            follower.handle(message)
            if follower.result is not None:
                return Played(follower.result, follower)
            if follower.my_turn and pending != follower.next_n:
                await blue_gate.wait()
                if follower.result is None and follower.my_turn and pending != follower.next_n:
                    pending = follower.next_n
                    assert follower.mirror is not None
                    await conn.send(pending, bot.decide(follower.mirror.game))
        raise AssertionError("blue's connection ended early")

    async def cheating_red(link: JoinLink) -> Played:
        bot = Bot()
        conn = Connection(link)
        follower = Follower()
        pending = 0
        attacked_blue = attacked_own = False
        first_decision: dict[str, object] | None = None
        async for message in conn.messages():
            follower.handle(message)
            if isinstance(message, ErrorMessage):
                errors.append(message)
            if follower.result is not None:
                return Played(follower.result, follower)
            mirror = follower.mirror
            assert mirror is not None
            if not attacked_blue and not follower.my_turn and mirror.n >= 2 and first_decision is not None:
                attacked_blue = True
                blues = bot.decide(mirror.game)  # what Blue would decide now, sent by Red
                for raw in (dump(Decide(type="decide", n=follower.next_n, decision=encode_decision(blues))),
                            dump(Decide(type="decide", n=1, decision=first_decision)),  # a replay
                            "this is not JSON", b"\x00\x01binary", json.dumps({"type": "decide", "n": 1,
                                                                                 "decision": {"pad": "x" * 20_000}}),
                            dump(Hello(type="hello", protocol=PROTOCOL_VERSION, seat="red", token=link.token)),
                            json.dumps({"type": "decide", "n": follower.next_n,
                                        "decision": {"type": "Warp", "to": "finish"}})):
                    await conn.send_raw(raw)
                continue
            if follower.my_turn and pending != follower.next_n:
                if attacked_blue and not attacked_own:
                    attacked_own = True
                    await conn.send(follower.next_n, RollSkid(99))  # not what the prompt asks, or too many dice
                    continue
                pending = follower.next_n
                decision = bot.decide(mirror.game)
                if first_decision is None:
                    first_decision = encode_decision(decision)
                await conn.send(pending, decision)
            if attacked_blue and len(errors) >= 7:
                blue_gate.set()
        raise AssertionError("red's connection ended early")

    async def nosy_spectator(link: JoinLink) -> None:
        conn = Connection(link)
        sent = False
        async for message in conn.messages():
            if isinstance(message, Welcome) and not sent:
                sent = True
                await conn.send_raw(dump(Decide(type="decide", n=1, decision={"type": "RollSkid", "count": 1})))
            if isinstance(message, ErrorMessage):
                spectator_errors.append(message)
            if isinstance(message, GameOver):
                return

    async def scenario() -> tuple[Table, Played, Played]:
        table = Table.new(SCENARIO, SEED, OPTIONS)
        async with GameServer([table]) as server:
            links = server.links(table)
            red, blue, _ = await asyncio.gather(cheating_red(links.seats["red"]), gated_blue(links.seats["blue"]),
                                                nosy_spectator(links.spectator))
        return table, red, blue

    table, red, blue = run(scenario())  # type: ignore[misc]
    codes = [e.code for e in errors]
    assert codes[:7] == ["not_your_turn", "stale", "malformed", "malformed", "too_big", "hello_again", "malformed"]
    assert "turn" in errors[0].reason and "Blue Team" in errors[0].reason
    assert "not the next one" in errors[1].reason
    assert "not JSON" in errors[2].reason and "binary" in errors[3].reason
    assert "decision.type" in errors[6].reason or "type" in errors[6].reason
    assert codes[7] == "illegal"  # Red's own prompt, answered wrongly: the engine's reason
    assert [e.code for e in spectator_errors] == ["spectator"]
    assert_local_result(table)
    assert_local_result(red)
    assert_local_result(blue)


def test_a_dropped_client_reconnects_and_a_late_spectator_catches_up() -> None:
    async def scenario() -> tuple[Table, list[Played]]:
        table = Table.new(SCENARIO, SEED, OPTIONS)
        async with GameServer([table]) as server:
            links = server.links(table)
            red_conn = Connection(links.seats["red"], retry_s=20)
            dropped: list[int] = []
            late: list[asyncio.Task[Played]] = []

            def drop_once(follower: Follower, events: list[object]) -> None:
                assert follower.mirror is not None
                if not dropped and follower.mirror.n >= 25:
                    dropped.append(follower.mirror.n)
                    red_conn.drop()  # the network fails under Red: no close handshake
                if not late and follower.mirror.n >= 50:
                    late.append(asyncio.ensure_future(play(links.spectator)))

            played = list(await asyncio.gather(play(links.seats["red"], Bot(), connection=red_conn,
                                                    on_events=drop_once),
                                               play(links.seats["blue"], Bot())))
            played.append(await late[0])
        return table, played

    table, (red, blue, spectator) = run(scenario())  # type: ignore[misc]
    assert red.reconnects >= 1
    assert_local_result(table)
    for p in (red, blue, spectator):
        assert_local_result(p)


def refusal(link: JoinLink, hello: dict[str, object] | None = None) -> str:
    """The reason the server gives when refusing ``link`` (or a hand-made hello on its socket)."""
    async def attempt() -> str:
        if hello is None:
            try:
                await play(link, Bot(), retry_s=0)
            except Refusal as exc:
                return str(exc)
            raise AssertionError("not refused")
        async with connect(link.socket_url) as ws:
            await ws.send(json.dumps(hello))
            message = parse_server_message(await ws.recv())
            assert message.type == "refused"
            try:
                await ws.recv()
            except ConnectionClosed as exc:
                assert exc.rcvd is not None and exc.rcvd.code == 4001
            return message.reason  # type: ignore[union-attr]
    return attempt()  # type: ignore[return-value]


def test_wrong_tokens_other_versions_unknown_seats_and_taken_seats_are_refused() -> None:
    async def scenario() -> dict[str, str]:
        table = Table.new(SCENARIO, SEED, OPTIONS)
        async with GameServer([table]) as server:
            links = server.links(table)
            red = links.seats["red"]
            other_char = "B" if red.token.endswith("A") else "A"  # one character off
            out = {
                "wrong token": await refusal(JoinLink(red.base, red.game, "red", red.token[:-1] + other_char)),
                "other seat's token": await refusal(JoinLink(red.base, red.game, "red", links.seats["blue"].token)),
                "no seat": await refusal(JoinLink(red.base, red.game, "green", red.token)),
                "no game": await refusal(JoinLink(red.base, "nosuchgame", "red", red.token)),
                "version": await refusal(red, {"type": "hello", "protocol": PROTOCOL_VERSION + 1, "seat": "red",
                                               "token": red.token, "new": "field"}),
                "no hello": await refusal(red, {"type": "decide", "n": 1, "decision": {}}),
            }
            holder = Connection(red)
            messages = holder.messages()
            assert isinstance(await anext(messages), Welcome)  # Red is connected and answers pings
            out["taken"] = await refusal(red)
            await messages.aclose()
        return out

    reasons = run(scenario())
    assert isinstance(reasons, dict)
    assert "wrong token for seat red" in reasons["wrong token"]
    assert "wrong token" in reasons["other seat's token"]
    assert "no seat 'green'" in reasons["no seat"] and "red, blue" in reasons["no seat"]
    assert "no such game" in reasons["no game"]
    assert f"protocol {PROTOCOL_VERSION}" in reasons["version"] and "same version" in reasons["version"]
    assert "hello" in reasons["no hello"]
    assert "already connected" in reasons["taken"]


def test_a_flooding_client_is_refused_then_cut_off_and_the_game_goes_on() -> None:
    async def flood(link: JoinLink) -> tuple[list[str], int | None]:
        codes: list[str] = []
        async with connect(link.socket_url) as ws:
            await ws.send(dump(Hello(type="hello", protocol=PROTOCOL_VERSION, seat=link.seat, token=link.token)))
            assert parse_server_message(await ws.recv()).type == "welcome"
            try:
                for _ in range(2000):
                    await ws.send('{"type": "decide", "n": 1, "decision": {}}')
                while True:
                    message = parse_server_message(await asyncio.wait_for(ws.recv(), 10))
                    if isinstance(message, ErrorMessage):
                        codes.append(message.code)
            except ConnectionClosed as exc:
                return codes, exc.rcvd.code if exc.rcvd else None
        return codes, None

    async def giant(link: JoinLink) -> int | None:
        async with connect(link.socket_url, max_size=None) as ws:
            await ws.send(dump(Hello(type="hello", protocol=PROTOCOL_VERSION, seat=link.seat, token=link.token)))
            await ws.recv()
            try:
                await ws.send("x" * 2_000_000)
                while True:
                    await asyncio.wait_for(ws.recv(), 10)
            except ConnectionClosed as exc:
                return exc.rcvd.code if exc.rcvd else None

    async def scenario() -> tuple[Table, list[Played], tuple[list[str], int | None], int | None]:
        table = Table.new(SCENARIO, SEED, OPTIONS)
        async with GameServer([table]) as server:
            links = server.links(table)
            flooded = await flood(links.spectator)
            too_big = await giant(links.spectator)
            played = await asyncio.gather(*(play(link, Bot()) for link in links.seats.values()))
        return table, list(played), flooded, too_big

    table, played, (codes, close_code), too_big = run(scenario())  # type: ignore[misc]
    assert "too_fast" in codes and "spectator" in codes
    assert len(codes) < 200  # a flood is not answered message for message
    assert close_code == 1008
    assert too_big == 1009
    assert_local_result(table)
    for p in played:
        assert_local_result(p)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _gaslands(*args: str) -> list[str]:
    return [sys.executable, "-m", "simulator.cli", *args]


def _wait_for(path: Path, proc: subprocess.Popen[bytes], timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not path.exists():
        assert proc.poll() is None, proc.communicate()[0].decode()
        assert time.monotonic() < deadline, "the host did not start"
        time.sleep(0.05)


def test_the_host_survives_kill_9_and_resumes_from_its_autosave_with_the_same_links(tmp_path: Path) -> None:
    """``gaslands host`` is killed with SIGKILL in mid-game; ``gaslands host SAVE`` resumes on the same port with
    the same links; the bot clients reconnect and the game ends as the local game; the host exits 0."""
    seats = tmp_path / "seats.json"
    save = tmp_path / "game.json"
    port = _free_port()
    env = {**os.environ, "PYTHONHASHSEED": "random"}
    first = subprocess.Popen(_gaslands("host", "--port", str(port), "--seed", str(SEED), "--seats-file", str(seats),
                                       "--save", str(save)), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    procs = [first]
    try:
        _wait_for(seats, first)
        links = json.loads(seats.read_text())
        local = local_game(SEED, None)

        def kill_once(follower: Follower, events: list[object]) -> None:
            assert follower.mirror is not None
            if len(procs) == 1 and follower.mirror.n >= 30:
                first.send_signal(signal.SIGKILL)
                first.wait(10)
                procs.append(subprocess.Popen(_gaslands("host", str(save)), stdout=subprocess.PIPE,
                                              stderr=subprocess.STDOUT, env=env))

        async def scenario() -> list[Played]:
            return list(await asyncio.gather(
                play(parse_link(links["seats"]["red"]), Bot(), retry_s=60, on_events=kill_once),
                play(parse_link(links["seats"]["blue"]), Bot(), retry_s=60)))

        played = run(scenario(), 100)
        assert isinstance(played, list)
        assert len(procs) == 2
        out, _ = procs[1].communicate(timeout=30)
        assert procs[1].returncode == 0, out.decode()
        assert "Game over" in out.decode()
        assert links["seats"]["red"] in out.decode()  # the same links
        for p in played:
            assert p.reconnects >= 1
            assert_local_result(p, local)
        assert saves.load(save).state == local.state
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)


def test_join_exits_non_zero_with_a_one_line_reason_when_refused(tmp_path: Path) -> None:
    async def scenario() -> tuple[int, str, int, str]:
        table = Table.new(SCENARIO, SEED, OPTIONS)
        async with GameServer([table]) as server:
            red = server.links(table).seats["red"]
            wrong = JoinLink(red.base, red.game, "red", "x" * 43).url
            proc = await asyncio.create_subprocess_exec(*_gaslands("join", wrong, "--bot"),
                                                        stdout=asyncio.subprocess.PIPE,
                                                        stderr=asyncio.subprocess.PIPE)
            _, err = await proc.communicate()
            bad = await asyncio.create_subprocess_exec(*_gaslands("join", "http://nowhere/x", "--bot"),
                                                       stdout=asyncio.subprocess.PIPE,
                                                       stderr=asyncio.subprocess.PIPE)
            _, bad_err = await bad.communicate()
        return proc.returncode or 0, err.decode(), bad.returncode or 0, bad_err.decode()

    code, err, bad_code, bad_err = run(scenario())  # type: ignore[misc]
    assert code == 4
    assert err.strip().count("\n") == 0 and "refused: wrong token for seat red" in err
    assert bad_code == 2 and "ws://" in bad_err



def test_a_seat_away_at_the_end_comes_back_and_is_told_the_result() -> None:
    """The game ends while Blue (say) is disconnected: the server waits for it, tells it the whole game and the
    result when it comes back, and only then is finished."""
    async def scenario() -> tuple[Table, Played, bool, bool]:
        table = Table.new(SCENARIO, SEED, OPTIONS)
        for decision in LOCAL.decisions[:-1]:  # everything but the last decision, as if played
            seat = table.seat_of(table.game.prompt.player) or ""
            assert table._apply(decision) == ""
            table.moves.append(Move(n=table.n + 1, seat=seat, decision=encode_decision(decision),
                                    dice=table.dice.take(), digest=state_digest(table.game.engine_state)))
        last = table.seat_of(table.game.prompt.player)
        away = next(s.seat for s in table.seats if s.seat != last)
        async with GameServer([table]) as server:
            links = server.links(table)
            await play(links.seats[last or ""], Bot())  # makes the last decision; the other seat is away
            finished_before = table.finished.is_set()
            late = await play(links.seats[away], Bot())
            await asyncio.wait_for(table.finished.wait(), 5)
        return table, late, finished_before, table.finished.is_set()

    table, late, finished_before, finished_after = run(scenario())  # type: ignore[misc]
    assert not finished_before and finished_after
    assert_local_result(table)
    assert_local_result(late)


def test_a_bot_client_whose_copy_differs_once_rebuilds_it_and_plays_on(monkeypatch: pytest.MonkeyPatch) -> None:
    import simulator.net.mirror as mirror_module

    real = mirror_module.state_digest
    calls = [0]

    def once_wrong(state: object) -> str:
        calls[0] += 1
        return "0" * 32 if calls[0] == 60 else real(state)  # type: ignore[arg-type]

    monkeypatch.setattr(mirror_module, "state_digest", once_wrong)

    async def scenario() -> list[Played]:
        table = Table.new(SCENARIO, SEED, OPTIONS)
        async with GameServer([table]) as server:
            return list(await asyncio.gather(*(play(link, Bot()) for link in server.links(table).seats.values())))

    played = run(scenario())
    assert isinstance(played, list)
    assert sum(p.resyncs for p in played) == 1
    for p in played:
        assert_local_result(p)


def test_join_bot_says_when_the_host_is_down_and_gives_up_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    """QA: ``join --bot`` waited in silence for a host that was not running; now it says so at once and gives up
    after FIRST_CONNECT_S (not the whole --retry, which is for a server lost mid-game)."""

    from simulator.net import client

    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(client, "FIRST_CONNECT_S", 1.0)
    said: list[str] = []
    monkeypatch.setattr(client, "print_status", said.append)
    link = JoinLink(f"ws://127.0.0.1:{port}", "abcd1234", "red", "x" * 43)
    started = time.monotonic()
    assert client.join_headless(link, bot=True, log=False, retry_s=60.0) == client.EXIT_UNREACHABLE
    assert time.monotonic() - started < 30.0  # not the 60 s of --retry
    assert said and said[0].startswith(f"cannot reach ws://127.0.0.1:{port}/game/abcd1234 (")
    assert "trying for up to 1 s" in said[0]



def test_host_warns_about_a_seated_team_that_breaks_a_rule(tmp_path: Path) -> None:
    """QA: an illegal team was seated in silence; ``gaslands host`` now prints the check's problems first."""
    import shutil

    teams = Path(__file__).resolve().parents[1] / "fixtures" / "teams"
    for name in ("street_race_teams.toml", "speed_freaks.toml"):
        shutil.copy(teams / name, tmp_path / name)
    (tmp_path / "rust_buckets.toml").write_text(
        (teams / "rust_buckets.toml").read_text(encoding="utf-8").replace("cans = 50", "cans = 30"), encoding="utf-8")
    seats = tmp_path / "seats.json"
    host = subprocess.Popen(_gaslands("host", str(tmp_path / "street_race_teams.toml"), "--port", str(_free_port()),
                                      "--seats-file", str(seats), "--save", str(tmp_path / "game.json")),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_for(seats, host)
    finally:
        host.terminate()
        _, err = host.communicate(timeout=20)
    assert "gaslands: warning: Red Team's team 'Rust Buckets' is not legal (1 problem" in err.decode()
