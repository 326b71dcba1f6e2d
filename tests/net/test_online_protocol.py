"""The online protocol without a network: links, message parsing, rate limits, the digest, recorded dice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.gaslands.bots import Bot
from simulator.gaslands.dice import SeededDice, SkidFace
from simulator.gaslands.game import Options
from simulator.net.mirror import Desync, Mirror, RecordingDice
from simulator.net.protocol import (
    MAX_MESSAGE_BYTES,
    Decide,
    Hello,
    JoinLink,
    Move,
    ProtocolError,
    _canonical,
    game_from_path,
    new_token,
    parse_client_message,
    parse_link,
    parse_server_message,
    state_digest,
)
from simulator.net.server import Client, Table, TokenBucket
from simulator.scenario.loader import bundled_scenario, load_scenario
from simulator.scenario.saves import encode_decision
from simulator.scenario.setup import initial_state, new_game

SCENARIO = load_scenario(bundled_scenario())


def test_a_link_round_trips_and_its_socket_url_leaves_the_token_out() -> None:
    link = JoinLink("wss://example.org/gaslands", "abCD12_-", "red", new_token())
    assert parse_link(f"  '{link.url}' ") == link
    assert link.token not in link.socket_url
    assert link.socket_url == "wss://example.org/gaslands/game/abCD12_-"
    assert game_from_path("/gaslands/game/abCD12_-") == "abCD12_-"
    assert game_from_path("/elsewhere") is None


@pytest.mark.parametrize(("text", "words"), [
    ("http://127.0.0.1:8765/game/abcd?seat=red&token=x", "ws://"),
    ("ws://127.0.0.1:8765/play?seat=red&token=x", "/game/ID"),
    ("ws://127.0.0.1:8765/game/abcd?token=x", "seat="),
    ("ws://127.0.0.1:8765/game/abcd?seat=red", "token="),
    ("ws://127.0.0.1:8765/game/ab?seat=red&token=x", "game id 'ab' in the link is not one a host makes"),
    ("ws://127.0.0.1:8765/game/ab%20cd?seat=red&token=x", "game id 'ab%20cd'"),
    ("ws://127.0.0.1:8765/games/abcd?seat=red&token=x", "not '/games/abcd'"),
])
def test_a_broken_link_is_refused_saying_what_is_missing(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words.replace("?", r"\?")):
        parse_link(text)


def test_tokens_are_long_and_random() -> None:
    tokens = {new_token() for _ in range(50)}
    assert len(tokens) == 50
    assert all(len(t) == 43 for t in tokens)  # 32 bytes of URL-safe base64: 256 bits


@pytest.mark.parametrize(("raw", "code", "words"), [
    ("not json", "malformed", "not JSON"),
    ("[1, 2]", "malformed", "JSON object"),
    ('{"type": "shout"}', "malformed", "unknown message type"),
    ('{"type": "decide", "n": "3", "decision": {}}', "malformed", "n:"),
    ('{"type": "decide", "n": 3, "decision": {}, "extra": 1}', "malformed", "extra"),
    ('{"type": "decide", "n": NaN, "decision": {}}', "malformed", "not JSON"),
    ("[" * 100_000, "too_big", "at most"),
    (b'{"type": "hello"}', "malformed", "text frames"),
])
def test_a_bad_client_message_is_refused_with_a_code_and_a_reason(raw: str | bytes, code: str, words: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(raw)
    assert caught.value.code == code
    assert words in caught.value.reason


def test_good_client_messages_parse_strictly() -> None:
    hello = parse_client_message('{"type": "hello", "protocol": 1, "seat": "red", "token": "t"}')
    assert hello == Hello(type="hello", protocol=1, seat="red", token="t")
    decide = parse_client_message(json.dumps({"type": "decide", "n": 4, "decision": {"type": "RollSkid", "count": 2}}))
    assert isinstance(decide, Decide) and decide.n == 4
    assert len(json.dumps({"type": "decide", "n": 1, "decision": {"x": "y" * MAX_MESSAGE_BYTES}})) > MAX_MESSAGE_BYTES


def test_a_foreign_server_message_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="cannot read"):
        parse_server_message('{"type": "welcome"}')


def test_the_token_bucket_allows_a_burst_then_the_rate_and_refunds() -> None:
    now = [0.0]
    bucket = TokenBucket(rate_per_s=10.0, burst=5, clock=lambda: now[0])
    assert [bucket.take() for _ in range(6)] == [True] * 5 + [False]
    now[0] += 0.1  # one more message's worth
    assert bucket.take() and not bucket.take()
    bucket.refund()
    assert bucket.take()


def test_the_digest_is_canonical_for_sets_whatever_the_hash_order() -> None:
    assert _canonical(frozenset({"rock-2", "rock-1", "crate"})) == "{'crate','rock-1','rock-2'}"
    game = new_game(SCENARIO, 3)
    assert state_digest(game.engine_state) == state_digest(new_game(SCENARIO, 3).engine_state)
    game.decide(Bot().decide(game))
    assert state_digest(game.engine_state) != state_digest(new_game(SCENARIO, 3).engine_state)


def test_recording_dice_give_each_decision_exactly_its_dice_and_forget_refused_ones() -> None:
    dice = RecordingDice(SeededDice(11))
    plain = SeededDice(11)
    assert dice.roll_d6(3) == plain.roll_d6(3)
    assert dice.roll_skid(2) == plain.roll_skid(2)
    taken = dice.take()
    assert len(taken.d6) == 3 and len(taken.skid) == 2
    assert all(SkidFace(face) for face in taken.skid)
    mark = dice.snapshot()
    dice.roll_d6(4)
    dice.restore(mark)  # a refused decision: its dice never happened
    assert dice.take().d6 == []
    assert dice.roll_d6(1) == plain.roll_d6(1)


def test_initial_state_takes_pole_position_without_the_seed() -> None:
    seeded = initial_state(SCENARIO, 12345)
    assert initial_state(SCENARIO, 0, pole=seeded.round.pole) == seeded
    with pytest.raises(ValueError, match="Pole Position"):
        initial_state(SCENARIO, 0, pole=7)


def test_a_mirror_built_from_the_welcome_follows_the_server_game_without_the_seed() -> None:
    table = Table.new(SCENARIO, 77, Options(round_limit=30))
    bot = Bot()
    for _ in range(40):  # the server's game moves on; the mirror is built from what a welcome carries
        decision = bot.decide(table.game)
        assert table._apply(decision) == ""
        table.moves.append(Move(n=table.n + 1, seat=table.seat_of(0) or "", decision=encode_decision(decision),
                                dice=table.dice.take(), digest=state_digest(table.game.engine_state)))
    welcome = table.welcome(Client(ws=None, seat=None))  # type: ignore[arg-type]
    text = welcome.model_dump_json()
    assert "77" not in json.dumps(welcome.model_dump()["options"])
    assert '"seed"' not in text
    mirror = Mirror(parse_server_message(text))  # type: ignore[arg-type]
    assert mirror.n == 40
    assert mirror.game.state == table.game.state
    assert mirror.game.log == table.game.log  # every event, with names and deltas
    wrong = welcome.moves[-1].model_copy(update={"n": 41, "digest": "0" * 32})
    with pytest.raises(Desync):
        mirror.apply(wrong)


def test_the_rules_and_the_geometry_never_import_the_network_code() -> None:
    root = Path(__file__).resolve().parents[2] / "simulator"
    offenders = [str(path.relative_to(root)) for layer in ("gaslands", "geometry") for path in (root / layer).glob("*.py")
                 if "simulator.net" in path.read_text(encoding="utf-8")]
    assert offenders == []


def test_join_given_a_file_says_it_wants_the_link_itself(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """QA: ``gaslands join seats.json`` answered that a link starts with ws://, not that a file was given."""
    from simulator.cli import main

    seats = tmp_path / "seats.json"
    seats.write_text('{"seats": {}}', encoding="utf-8")
    assert main(["join", str(seats), "--bot"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"gaslands: {seats} is a file, not a join link") and "ws://" in err
    assert main(["join", "nowhere/game/abcd", "--bot"]) == 2
    assert "starts with ws://" in capsys.readouterr().err

