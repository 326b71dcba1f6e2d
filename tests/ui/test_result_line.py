"""The game-over line says the win once, with the right verb (a scenario's verdict names its winner)."""

from __future__ import annotations

from simulator.ui.game_controller import result_line


def test_a_race_win_names_the_winner_and_the_reason() -> None:
    assert result_line("Red Team", "first across the Finish Line") == "Red Team wins! (first across the Finish Line)"


def test_a_verdict_that_names_the_winner_is_said_once() -> None:
    line = result_line("Riggers", "the Riggers win: the War Rig escapes (Escape the City, p.168)")
    assert line == "The Riggers win: the War Rig escapes (Escape the City, p.168)"
    assert "wins" not in line


def test_no_winner() -> None:
    assert result_line(None, "round limit") == "Game over: no winner (round limit)."


def test_a_reason_that_names_the_winner_without_a_win_keeps_the_headline() -> None:
    line = result_line("Blue Team", "Blue Team is the last player with vehicles (p.62)")
    assert line == "Blue Team wins! (Blue Team is the last player with vehicles (p.62))"
