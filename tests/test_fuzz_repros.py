"""Every bad-input reproducer of the reliability review (../shared/fuzz-repros, copied to tests/fixtures/fuzz)
ends in a named error or a correct answer, through the real ``gaslands`` entry point (issue 9).

A named error is exit code 2 and stderr lines that each read ``FILE: KEY: REASON``. The board
reproducers (r30, r31, r36) belong to the boards' own tests.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from simulator.cli import main

FUZZ = Path(__file__).resolve().parent / "fixtures" / "fuzz"
ROOT = Path(__file__).resolve().parents[1]
PROBE = str(FUZZ / "probe_rulings.toml")
STREET = str(ROOT / "scenarios" / "street_race.toml")

# reproducer -> (arguments after the command, the key and the start of the reason on stderr)
NAMED: dict[str, tuple[list[str], str, str]] = {
    "r01": (["rule", "r01_deep_nesting.toml"], "(file)", "nested more than 32 levels deep"),
    "r02": (["render", "r02_deep_nesting_save.json"], "(file)", "nested more than 32 levels deep"),
    "r03a": (["export-templates", "--template-set", "r03_latin1_templates.toml"], "(file)", "not UTF-8 text (byte 9"),
    "r03b": (["rule", "--template-set", "r03_latin1_templates.toml", PROBE], "(file)", "not UTF-8 text (byte 9"),
    "r03c": (["render", "r03_latin1_save.json"], "(file)", "not UTF-8 text (byte 136"),
    "r04": (["rule", "r04_circle_huge_radius.toml"], "obstacle[1].circle[3]", "Input should be less than or equal"),
    "r05": (["rule", "r05_circle_tiny_radius.toml"], "obstacle[1].circle[3]", "Input should be greater than or"),
    "r06": (["rule", "--template-set", "r06_templates_radius_1e20.toml", PROBE], "movement.veer.radius_mm.value",
            "Input should be less than or equal to 1000"),
    "r07": (["export-templates", "--template-set", "r07_templates_long_double_2m.toml"],
            "shooting.double.length_mm.value", "Input should be less than or equal to 1000"),
    "r08": (["export-templates", "--template-set", "r08_templates_long_double_100m.toml"],
            "shooting.double.length_mm.value", "Input should be less than or equal to 1000"),
    "r09": (["simulate", "--template-set", "r09_templates_slide_huge.toml", STREET, "--games", "1", "--quiet"],
            "slide.length_mm.value", "Input should be less than or equal to 1000"),
    "r10": (["render", "r10_render_huge_coords.toml"], "obstacle[1].polygon[3][2]", "Input should be less than"),
    "r11": (["render", "r11_render_huge_coords_typeerror.toml"], "obstacle[1].polygon[1][1]", "Input should be"),
    "r12": (["render", "r12_save_options_string.json"], "options", "Input should be a valid dictionary"),
    "r13": (["render", "r13_save_seed_infinity.json"], "(syntax)", "Infinity is not a JSON number"),
    "r14": (["render", "r14_save_toml_not_text.json"], "scenario.toml", "Input should be a valid string"),
    "r15": (["render", "r15_save_rollskid_float.json"], "decisions[3].count", "Input should be a valid integer"),
    "r16": (["render", "r16_save_unknown_vehicle.json"], "decisions[1].vehicle_id", "no vehicle 'ghost'"),
    "r17": (["render", "r17_save_missing_direction.json"], "decisions[26].direction", "the veer needs direction"),
    "r18": (["render", "r18_save_round_limit_string.json"], "options.round_limit", "Input should be a valid integer"),
    "r19": (["render", "r19_save_version_999.json"], "version", "this save is version 999"),
    "r20": (["render", "r20_save_seed_float.json"], "seed", "Input should be a valid integer"),
    "r21": (["render", "r21_save_options_false_string.json"], "options.audience_votes", "Input should be a valid bool"),
    "r22": (["render", "r22_save_bad_embedded_scenario.json"], "scenario.toml.vehicle[1].heading_deg",
            "Input should be a finite number"),
    "r23": (["rule", "r23_rulings_query_not_table.toml"], "query[1]", "Input should be a valid dictionary"),
    "r24a": (["rule", "r24_rulings_spin_huge_render.toml"], "query[q1].spin_deg", "Input should be less than or"),
    "r24b": (["render", "r24_rulings_spin_huge_render.toml"], "query[q1].spin_deg", "Input should be less than or"),
    "r25a": (["rule", "r25_rulings_bad_template_render.toml"], "query[q1].template", "Input should be 'short_straight'"),
    "r25b": (["render", "r25_rulings_bad_template_render.toml"], "query[q1].template", "Input should be 'short_str"),
    "r26": (["rule", "r26_options_typo.toml"], "options.audience_vote", "Extra inputs are not permitted"),
    "r27": (["rule", "r27_options_false_string.toml"], "options.audience_votes", "Input should be a valid boolean"),
    "r28": (["rule", "r28_id_trailing_newline.toml"], "vehicle[1].id", "use 1 to 64 letters, digits"),
    "r29": (["rule", "r29_airborne_in_tall_obstacle.toml"], "vehicle[1]", "'heli' is airborne inside the Tall"),
    "r32": (["render", "r32_long_names_render_hang.toml"], "vehicle[1].name", "String should have at most 200"),
    "r35": (["rule", "r35_rule_outputs_Infinity.toml"], "obstacle[1].polygon[1][1]", "Input should be less than"),
    "r43": (["render", "r43_save_reverse_minus1_latent.json"], "decisions[74].reverse", "Input should be a valid bool"),
}
LINE = re.compile(r"^(?P<file>[^:]+): (?P<key>.+?): (?P<reason>.+)$")


def run(argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    monkeypatch.chdir(FUZZ)
    monkeypatch.setenv("HOME", str(tmp_path))
    if argv[0] == "render":
        argv = [*argv, "-o", str(tmp_path / "x.png"), "--size", "640x480"]
    if argv[0] == "export-templates":
        argv = [*argv, "-o", str(tmp_path / "sheets")]
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", sorted(NAMED))
def test_reproducer_ends_in_a_named_error(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    argv, key, reason = NAMED[name]
    code, out, err = run(argv, tmp_path, monkeypatch, capsys)
    assert code == 2, err
    lines = err.splitlines()
    assert lines, "no message"
    for line in lines:
        assert LINE.match(line), f"not FILE: KEY: REASON: {line!r}"
    first = LINE.match(lines[0])
    assert first is not None
    assert (first["key"], first["reason"][:len(reason)]) == (key, reason)
    assert not (tmp_path / "x.png").exists() and not (tmp_path / "sheets").exists()
    assert out == ""


def test_r39_negative_games_is_an_argument_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["simulate", STREET, "--games", "-1"])
    assert info.value.code == 2
    assert "argument --games: the number of games is 0 to 100000, not -1" in capsys.readouterr().err


def test_r42_render_into_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "missing" / "folder" / "x.png"
    assert main(["render", str(ROOT / "scenarios" / "doomtown.toml"), "-o", str(out)]) == 2
    assert capsys.readouterr().err == f"{out}: -o: the folder '{out.parent}' does not exist\n"


def rule(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
         capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    code, out, err = run(["rule", name], tmp_path, monkeypatch, capsys)
    assert (code, err) == (0, "")
    results: list[dict[str, object]] = json.loads(out)
    return results


def test_r33_mirrored_hairpin_slides_agree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """D1: a scene and its mirror image about y = 450 give mirrored answers (no hull, no rounding luck)."""
    (a,) = rule("r33a_slide_hull_hairpin.toml", tmp_path, monkeypatch, capsys)
    (b,) = rule("r33b_slide_hull_hairpin_mirrored.toml", tmp_path, monkeypatch, capsys)
    fa, fb = a["final"], b["final"]
    assert isinstance(fa, dict) and isinstance(fb, dict)
    assert fa["x_mm"] == pytest.approx(fb["x_mm"], abs=1e-3)
    assert fa["y_mm"] == pytest.approx(900.0 - fb["y_mm"], abs=1e-3)
    assert fa["heading_deg"] == pytest.approx(360.0 - fb["heading_deg"], abs=1e-3)
    assert a["collisions"] == b["collisions"] == [] and a["interrupted"] is b["interrupted"] is False
    assert a["travel_mm"] == pytest.approx(b["travel_mm"], abs=1e-3)


def test_r34_pebble_clear_of_both_templates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    move, contact = rule("r34_slide_hull_false_interrupt.toml", tmp_path, monkeypatch, capsys)
    assert move["interrupted"] is False and move["collisions"] == []
    assert move["final"] == {"x_mm": 441.369318, "y_mm": 486.369318, "heading_deg": 315.0}
    assert contact["touching"] is False


def test_r37_a_stuck_bot_game_still_renders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["render", "r37_death_race_seed2_stuck.json"], tmp_path, monkeypatch, capsys)
    assert (code, err) == (0, "")
    assert (tmp_path / "x.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_r38_turret_among_250_pebbles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """D2: the same answer as before (which took 4.8 GB and 13 s); now a few tens of MB (see
    benchmarks/bench_memory.py for the figures)."""
    (shot,) = rule("r38_turret_among_250_pebbles.toml", tmp_path, monkeypatch, capsys)
    assert shot == {"id": "turret_double", "kind": "shoot", "in_arc_and_range": True, "targetable": True,
                    "cover": False, "cover_from": [], "blocked_by": [],
                    "placement": {"x_mm": 599.8901546848685, "y_mm": 450.8508546881856,
                                  "heading_deg": 144.45343994740648}, "margin_mm": 302.0}
