"""Scenario and rulings files: loading, and errors that name file, table, key and reason (RULINGS.md)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from simulator.cli import main
from simulator.errors import InputFileError
from simulator.scenario.loader import bundled_scenario, load_scenario

HEAD = """
[table]
width_mm = 1200.0
height_mm = 900.0
"""
CAR = """
[[vehicle]]
id = "{id}"
type = "car"
x_mm = {x}
y_mm = 200.0
heading_deg = 90.0
"""


def write(tmp_path: Path, body: str, name: str = "f.toml") -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(body))
    return p


def problems(path: Path) -> list[str]:
    with pytest.raises(InputFileError) as info:
        load_scenario(path)
    return [f"{p.where}: {p.reason}" for p in info.value.problems]


def test_street_race_matches_p62() -> None:
    s = load_scenario(bundled_scenario())
    t = s.table
    assert (t.width_mm, t.height_mm) == (1220.0, 915.0)  # 4 ft x 3 ft
    types = sorted((v.player, v.type) for v in t.vehicles)
    assert types == [("blue", "buggy"), ("blue", "car"), ("red", "buggy"), ("red", "car")]
    assert all(w.type == "machine_gun" and w.arc == "front" for v in s.spec.vehicle for w in v.weapons)
    start, finish = (next(x for x in t.lines if x.kind == k) for k in ("start", "finish"))
    assert start.segment.length == pytest.approx(182.0) and finish.segment.length == pytest.approx(182.0)
    assert start.segment.distance(finish.segment) >= 3 * 182.0
    assert {o.label for o in t.obstacles} >= {"rock", "crates", "barrier"}


def test_bad_number_names_vehicle_and_key(tmp_path: Path) -> None:
    p = write(tmp_path, HEAD + CAR.format(id="a", x=100) + CAR.format(id="b", x=300).replace("90.0", "nan"))
    assert any(x.startswith("vehicle[2].heading_deg") for x in problems(p))


def test_unknown_type_and_duplicate_id(tmp_path: Path) -> None:
    body = HEAD + CAR.format(id="a", x=100) + CAR.format(id="a", x=300).replace('"car"', '"hovercraft"')
    found = problems(write(tmp_path, body))
    assert any("vehicle[2].type" in x and "hovercraft" in x for x in found)
    assert any("vehicle[2]" in x and "already used" in x for x in found)


def test_start_overlap_is_an_error(tmp_path: Path) -> None:
    found = problems(write(tmp_path, HEAD + CAR.format(id="a", x=300) + CAR.format(id="b", x=310)))
    assert any("overlaps vehicle" in x for x in found)


def test_polygon_not_simple(tmp_path: Path) -> None:
    body = HEAD + '[[obstacle]]\nid = "bow"\npolygon = [[0, 0], [10, 10], [10, 0], [0, 10]]\n'
    assert any(x.startswith("obstacle[1].polygon") and "not simple" in x for x in problems(write(tmp_path, body)))


def test_toml_syntax_error(tmp_path: Path) -> None:
    assert any("(syntax)" in x for x in problems(write(tmp_path, "[table\n")))


def test_rule_command_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = HEAD + CAR.format(id="a", x=300) + textwrap.dedent("""
        [[query]]
        id = "q3"
        kind = "move"
        vehicle = "a"
        template = "turn"

        [[query]]
        kind = "move"
        vehicle = "ghost"
        template = "wiggle"
        spin_deg = 120.0
        """)
    p = write(tmp_path, body)
    assert main(["rule", str(p)]) == 2
    err = capsys.readouterr()
    assert err.out == ""
    lines = err.err.strip().splitlines()
    assert any(x.startswith(f"{p}: query[q3].direction") for x in lines)
    assert any("query[2].template" in x for x in lines)
    assert any("query[2].spin_deg" in x for x in lines)


def test_rule_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    case = Path(__file__).parent / "cases"
    any_case = sorted(case.glob("move_*.toml")) or sorted(case.glob("*.toml"))
    if not any_case:
        pytest.skip("no project cases yet")
    assert main(["rule", str(any_case[0])]) == 0
    out = json.loads(capsys.readouterr().out)
    assert isinstance(out, list) and out and "kind" in out[0]


def test_no_display_says_how_to_render(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    assert main([]) == 3
    assert "gaslands render" in capsys.readouterr().err


def test_vehicle_off_the_table(tmp_path: Path) -> None:
    found = problems(write(tmp_path, HEAD + CAR.format(id="a", x=5000)))
    assert any("vehicle[1]" in x and "not wholly on the" in x for x in found)


def test_gate_width_and_numbers_p124(tmp_path: Path) -> None:
    body = HEAD + textwrap.dedent("""
        [[gate]]
        id = "g1"
        number = 1
        post_a = [100.0, 100.0]
        post_b = [200.0, 100.0]

        [[gate]]
        id = "g2"
        number = 1
        post_a = [100.0, 500.0]
        post_b = [282.0, 500.0]
        """)
    found = problems(write(tmp_path, body))
    assert any(x.startswith("gate[1].post_b") and "100.00 mm apart" in x for x in found)
    assert any(x.startswith("gate[2].number") for x in found)


def test_booleans_are_not_guessed_from_strings(tmp_path: Path) -> None:
    body = HEAD + CAR.format(id="a", x=300) + '\n[[query]]\nid = "q"\nkind = "move"\nvehicle = "a"\n' \
        'template = "short_straight"\nreverse = "yes"\n'
    p = write(tmp_path, body)
    assert main(["rule", str(p)]) == 2


def test_duplicate_query_ids_and_self_shot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    q = '\n[[query]]\nid = "q1"\nkind = "shoot"\nattacker = "a"\ntarget = "a"\nrange = "short"\narc = "front"\n'
    p = write(tmp_path, HEAD + CAR.format(id="a", x=300) + q + q)
    assert main(["rule", str(p)]) == 2
    err = capsys.readouterr().err
    assert "query[q1].id: another query already has this id" in err
    assert "query[q1].target: a vehicle cannot shoot at itself" in err


def test_rule_uses_the_template_set_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from simulator.geometry.templates import files

    text = (files("simulator") / "data" / "template_sets" / "default.toml").read_text("utf-8")
    longer = text.replace('length_mm = { value = 60.0, provenance = "provisional" }',
                          'length_mm = { value = 70.0, provenance = "measured" }', 1)
    ts = tmp_path / "mine.toml"
    ts.write_text(longer)
    body = HEAD + CAR.format(id="a", x=300) + '\n[[query]]\nid = "q"\nkind = "move"\nvehicle = "a"\n' \
        'template = "short_straight"\n'
    p = write(tmp_path, body)
    assert main(["rule", "--template-set", str(ts), str(p)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out[0]["final"]["y_mm"] == pytest.approx(200 + 30 + 70 + 30)  # the measured Short Straight


def test_unreadable_files_are_clean_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'[table]\nwidth_mm = 1.0\nheight_mm = 1.0\n# caf\xe9\n')
    assert main(["rule", str(latin)]) == 2
    assert main(["rule", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "not UTF-8" in err and "is a folder" in err


def test_render_arguments_are_checked() -> None:
    with pytest.raises(SystemExit):
        main(["render", "x.toml", "-o", "out.txt"])
    with pytest.raises(SystemExit):
        main(["render", "x.toml", "-o", "out.png", "--size", "abc"])
