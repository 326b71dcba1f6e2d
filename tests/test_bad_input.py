"""Bad input is refused with a named error: the file, the table and key, the reason (issue 9).

Reading (:mod:`simulator.safe_read`): size, encoding, nesting, JSON numbers. Scenario and rulings
files: strict booleans and numbers, bounded numbers, ids, ``[options]``, pieces near the table,
airborne vehicles in Tall obstacles (p.70). Template sets: bounded dimensions, known names,
``gears_fixed``.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from simulator import safe_read
from simulator.errors import InputFileError
from simulator.geometry.templates import load_template_set, parse_template_set
from simulator.scenario.loader import load_scenario

HEAD = """
[table]
width_mm = 1200.0
height_mm = 900.0
"""
CAR = """
[[vehicle]]
id = "red"
type = "car"
x_mm = 300.0
y_mm = 200.0
heading_deg = 90.0
"""
DEFAULT_SET = (Path(__file__).resolve().parents[1] / "simulator" / "data" / "template_sets" / "default.toml")


def write(tmp_path: Path, body: str, name: str = "f.toml") -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(body), encoding="utf-8")
    return p


def problems_of(call: object, *args: object) -> list[str]:
    with pytest.raises(InputFileError) as info:
        call(*args)  # type: ignore[operator]
    return [f"{p.where}: {p.reason}" for p in info.value.problems]


def scenario_problems(tmp_path: Path, body: str) -> list[str]:
    return problems_of(load_scenario, write(tmp_path, body))


# --------------------------------------------------------------------------- reading files


def test_missing_file_and_folder(tmp_path: Path) -> None:
    assert problems_of(safe_read.read_text, tmp_path / "nope.toml") == ["(file): no such file"]
    assert problems_of(safe_read.read_text, tmp_path) == ["(file): is a folder, not a file"]


def test_a_pipe_is_not_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)  # opening it would wait for a writer forever
    assert problems_of(safe_read.read_text, fifo) == ["(file): is not a regular file"]


def test_size_limit(tmp_path: Path) -> None:
    p = tmp_path / "big.toml"
    p.write_bytes(b"#" * 101)
    assert problems_of(safe_read.read_text, p, 100) == ["(file): is 101 bytes; at most 100 are read"]
    assert safe_read.read_text(p, 101) == "#" * 101


def test_not_utf8_names_the_byte(tmp_path: Path) -> None:
    p = tmp_path / "latin.toml"
    p.write_bytes('name = "caf\u00e9"\n'.encode("latin-1"))
    assert problems_of(safe_read.read_toml, p) == [
        "(file): not UTF-8 text (byte 11: invalid continuation byte); save it as UTF-8"]


def test_byte_order_mark_is_dropped_and_nul_refused(tmp_path: Path) -> None:
    p = tmp_path / "bom.toml"
    p.write_bytes(b"\xef\xbb\xbfa = 1\n")
    assert safe_read.read_toml(p) == {"a": 1}
    p.write_bytes(b"a = 1\x00\n")
    assert problems_of(safe_read.read_toml, p) == ["(file): not a text file (a NUL character at character 5)"]


@pytest.mark.parametrize("depth", [33, 2_000])
def test_deep_nesting_toml(depth: int) -> None:
    text = "a = " + "[" * depth + "]" * depth + "\n"
    assert problems_of(safe_read.parse_toml, text, "d.toml") == ["(file): nested more than 32 levels deep"]


def test_nesting_at_the_limit_is_read() -> None:
    assert safe_read.depth_of(safe_read.parse_toml("a = " + "[" * 31 + "]" * 31, "d.toml")) == 32


@pytest.mark.parametrize("depth", [33, 100_000])
def test_deep_nesting_json(depth: int) -> None:
    assert problems_of(safe_read.parse_json, "[" * depth + "]" * depth, "d.json") == [
        "(file): nested more than 32 levels deep"]


@pytest.mark.parametrize(("text", "reason"), [
    ('{"seed": Infinity}', "(syntax): Infinity is not a JSON number"),
    ('{"seed": NaN}', "(syntax): NaN is not a JSON number"),
    ('{"seed": 1e400}', "(syntax): 1e400 is too large for a number"),
    ('{"seed": ' + "9" * 5000 + "}", None),
    ('{"seed": ', "(syntax): Expecting value: line 1 column 10 (char 9)"),
])
def test_json_numbers_are_strict(text: str, reason: str | None) -> None:
    found = problems_of(safe_read.parse_json, text, "s.json")
    assert len(found) == 1
    if reason is None:
        assert found[0].startswith("(syntax): ")
    else:
        assert found == [reason]


def test_toml_huge_integer_is_named() -> None:
    found = problems_of(safe_read.parse_toml, "a = " + "9" * 5000, "t.toml")
    assert len(found) == 1 and found[0].startswith("(syntax): a number too large to read")


# --------------------------------------------------------------------------- scenarios


@pytest.mark.parametrize(("line", "where", "reason"), [
    ('reversing = "false"', "vehicle[1].reversing", "Input should be a valid boolean"),
    ('gear = true', "vehicle[1].gear", "Input should be a valid integer"),
    ('gear = 2.0', "vehicle[1].gear", "Input should be a valid integer"),
    ('length_mm = "60"', "vehicle[1].length_mm", "Input should be a valid number"),
    ('length_mm = 0.5', "vehicle[1].length_mm", "Input should be greater than or equal to 1"),
    ('width_mm = 2000.0', "vehicle[1].width_mm", "Input should be less than or equal to 1000"),
    ('name = "' + "x" * 201 + '"', "vehicle[1].name", "String should have at most 200 characters"),
    ('name = "a\\u0000b"', "vehicle[1].name", "character 2 is a control character ('\\x00'); names are plain text"),
    ('name = "two\\nlines"', "vehicle[1].name",
     "character 4 is a control character ('\\n'); names are plain text"),
])
def test_vehicle_values_are_read_strictly(tmp_path: Path, line: str, where: str, reason: str) -> None:
    assert scenario_problems(tmp_path, HEAD + CAR + line + "\n") == [f"{where}: {reason}"]


def test_coordinates_are_bounded(tmp_path: Path) -> None:
    body = HEAD + CAR.replace("x_mm = 300.0", "x_mm = 1e15")
    assert scenario_problems(tmp_path, body) == ["vehicle[1].x_mm: Input should be less than or equal to 60000"]
    body = HEAD + CAR.replace("heading_deg = 90.0", "heading_deg = 1e308")
    assert scenario_problems(tmp_path, body) == ["vehicle[1].heading_deg: Input should be less than or equal to 3600"]


@pytest.mark.parametrize("value", ['"red\\n"', '"red "', '"r\u00e9d"', '""', '"' + "r" * 65 + '"'])
def test_ids_are_letters_digits_dash_underscore(tmp_path: Path, value: str) -> None:
    body = HEAD + CAR.replace('id = "red"', f"id = {value}")
    assert scenario_problems(tmp_path, body) == [
        "vehicle[1].id: use 1 to 64 letters, digits, - and _ (no spaces or other characters)"]


def test_options_are_known_keys_with_booleans(tmp_path: Path) -> None:
    assert scenario_problems(tmp_path, HEAD + "[options]\naudience_vote = true\n") == [
        "options.audience_vote: Extra inputs are not permitted"]
    assert scenario_problems(tmp_path, HEAD + '[options]\naudience_votes = "false"\n') == [
        "options.audience_votes: Input should be a valid boolean"]
    ok = load_scenario(write(tmp_path, HEAD + "[options]\naudience_votes = true\n"))
    assert ok.spec.options == {"audience_votes": True}


@pytest.mark.parametrize(("shape", "reason"), [
    ("circle = [500.0, 500.0, 1e-9]", "obstacle[1].circle[3]: Input should be greater than or equal to 0.1"),
    ("circle = [500.0, 500.0, 1e20]", "obstacle[1].circle[3]: Input should be less than or equal to 20000"),
    ("circle = [500.0, 5000.0, 10.0]",
     "obstacle[1].circle: lies more than one table size off the 1200 x 900 mm table (x from -1200 to 2400, "
     "y from -900 to 1800)"),
    ("polygon = [[0.0, 0.0], [10.0, 0.0], [0.0, 1e15]]",
     "obstacle[1].polygon[3][2]: Input should be less than or equal to 60000"),
    ('tall = "yes"\ncircle = [500.0, 500.0, 10.0]', "obstacle[1].tall: Input should be a valid boolean"),
])
def test_obstacle_shapes_are_bounded(tmp_path: Path, shape: str, reason: str) -> None:
    body = HEAD + f'[[obstacle]]\nid = "rock"\n{shape}\n'
    assert scenario_problems(tmp_path, body) == [reason]


def test_an_obstacle_may_overhang_the_table(tmp_path: Path) -> None:
    s = load_scenario(write(tmp_path, HEAD + '[[obstacle]]\nid = "rock"\ncircle = [-100.0, 450.0, 150.0]\n'))
    assert s.table.obstacles[0].polygon.bounds[0] == pytest.approx(-250.0, abs=0.01)


HELI = """
[[vehicle]]
id = "heli"
type = "helicopter"
x_mm = 500.0
y_mm = 500.0
heading_deg = 0.0
"""


def test_airborne_vehicle_inside_a_tall_obstacle_is_refused_p70(tmp_path: Path) -> None:
    tower = '[[obstacle]]\nid = "tower"\ntall = true\npolygon = [[450.0, 450.0], [550.0, 450.0], [550.0, 550.0], [450.0, 550.0]]\n'
    assert scenario_problems(tmp_path, HEAD + HELI + tower) == [
        "vehicle[1]: 'heli' is airborne inside the Tall obstacle 'tower' at the start (Tall obstacles stop it, p.70)"]
    # over a low obstacle it may start (it flies above it)
    low = tower.replace("tall = true\n", "")
    assert load_scenario(write(tmp_path, HEAD + HELI + low)).table.vehicle("heli").airborne


def test_a_query_that_is_not_a_table_is_named(tmp_path: Path) -> None:
    body = "query = [[1, 2]]\n" + HEAD + CAR
    assert scenario_problems(tmp_path, body) == ["query[1]: Input should be a valid dictionary"]


# --------------------------------------------------------------------------- template sets


def default_text() -> str:
    return DEFAULT_SET.read_text(encoding="utf-8")


def set_problems(text: str) -> list[str]:
    return problems_of(parse_template_set, text, "mine.toml")


def test_default_set_loads() -> None:
    assert parse_template_set(default_text(), "default.toml").movement["long_straight"].length_mm == 182.0


@pytest.mark.parametrize(("old", "new", "reason"), [
    ('radius_mm = { value = 150.0,', 'radius_mm = { value = 1e20,',
     "movement.gentle.radius_mm.value: Input should be less than or equal to 1000"),
    ('sweep_deg = { value = 45.0,', 'sweep_deg = { value = 0.001,',
     "movement.gentle.sweep_deg.value: Input should be greater than or equal to 1"),
    ('width_mm = { value = 35.0,', 'width_mm = { value = 1000.0,',
     "width_mm.value: Input should be less than or equal to 100"),
    ('gears_fixed = [false, false, false, false, true, false]\n\n[movement.medium_straight]',
     'gears_fixed = [false, false, false, false, true]\n\n[movement.medium_straight]',
     "movement.short_straight.gears_fixed: List should have at least 6 items after validation, not 5"),
    ('gears_fixed = [true, true, false, false, true, false]',
     'gears_fixed = ["yes", true, false, false, true, false]',
     "movement.medium_straight.gears_fixed.0: Input should be a valid boolean"),
    ('label = "Gentle"', 'label = "Gen\\u0007tle"',
     "movement.gentle.label: character 4 is a control character ('\\x07'); labels are plain text"),
    ('[movement.gentle]', '[movement.u_turn]\nlabel = "U"\nshape = "straight"\nlength_mm = { value = 1.0, '
     'provenance = "x" }\ngears = ["P", "P", "P", "P", "P", "P"]\n\n[movement.gentle]',
     "movement: unknown movement templates 'u_turn'; the movement templates are short_straight, "
     "medium_straight, long_straight, gentle, turn, hard, hairpin, veer, swerve"),
])
def test_template_set_values_are_bounded(old: str, new: str, reason: str) -> None:
    text = default_text()
    assert old in text
    assert set_problems(text.replace(old, new, 1)) == [reason]


def test_template_set_file_not_utf8(tmp_path: Path) -> None:
    p = tmp_path / "mine.toml"
    p.write_bytes(default_text().replace("refuelled-approx", "r\u00e9f").encode("latin-1"))
    found = problems_of(load_template_set, p)
    assert len(found) == 1 and found[0].startswith("(file): not UTF-8 text (byte ")


def test_safe_read_docstring_examples_run() -> None:
    import doctest

    result = doctest.testmod(safe_read)
    assert result.attempted >= 2 and result.failed == 0


def test_errors_docstring_examples_run() -> None:
    import doctest

    from simulator import errors

    result = doctest.testmod(errors)
    assert result.attempted >= 1 and result.failed == 0


def test_every_problem_is_one_line_even_quoting_a_line_break(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Found by benchmarks/fuzz.py: a bad value with a line break, quoted in the reason, split the error."""
    from simulator.cli import main

    body = HEAD + CAR + '[[query]]\nid = "q1"\nkind = "red\\n"\nvehicle = "red"\n'
    assert main(["rule", str(write(tmp_path, body))]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"{tmp_path / 'f.toml'}: query[q1].kind: Input tag 'red\\n' found using 'kind'")


# --------------------------------------------------------------------------- War Rig trailers (p.118)

RIG = """
[[vehicle]]
id = "rig"
type = "war_rig"
x_mm = 400.0
y_mm = 300.0
heading_deg = 0.0
"""


def test_a_bend_needs_a_trailer_and_stays_within_a_right_angle(tmp_path: Path) -> None:
    assert scenario_problems(tmp_path, HEAD + CAR + "bend_deg = 10.0\n") == [
        "vehicle[1].bend_deg: a Car has no trailer to bend (give trailer_length_mm and trailer_width_mm)"]
    problems = scenario_problems(tmp_path, HEAD + RIG + "bend_deg = 120.0\n")
    assert len(problems) == 1 and problems[0].startswith("vehicle[1].bend_deg:")


def test_a_trailer_off_the_table_or_on_an_obstacle_is_refused(tmp_path: Path) -> None:
    # The trailer reaches back to x 210 - 250 = -40: off the table.
    off = RIG.replace("x_mm = 400.0", "x_mm = 150.0")
    assert scenario_problems(tmp_path, HEAD + off) == ["vehicle[1]: 'rig.trailer' is not wholly on the 1200 x 900 "
                                                      "mm table"]
    rock = '\n[[obstacle]]\nid = "rock"\npolygon = [[250.0, 290.0], [270.0, 290.0], [270.0, 310.0]]\n'
    assert scenario_problems(tmp_path, HEAD + RIG + rock) == [
        "vehicle[1]: 'rig.trailer' overlaps obstacle 'rock' at the start"]
