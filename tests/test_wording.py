"""Counts agree in number ("1 error", "2 errors") wherever the window, the CLI and the server print one."""

from __future__ import annotations

import re
from pathlib import Path

from simulator.vocab import plural

ROOT = Path(__file__).resolve().parents[1] / "simulator"
COUNTED = re.compile(r"\{[^{}]*\} (errors|problems|warnings|decisions|events|attacks|Hazard Tokens|votes|tiles|"
                     r"vehicles|gates|Audience Votes)\b")


def test_plural_agrees_in_number() -> None:
    assert plural(0, "error") == "0 errors"
    assert plural(1, "error") == "1 error"
    assert plural(2, "Hazard Token") == "2 Hazard Tokens"
    assert plural(1, "die", "dice") == "1 die" and plural(3, "die", "dice") == "3 dice"


def test_no_count_is_printed_in_the_plural_whatever_its_value() -> None:
    """A number put before a plural noun by an f-string reads "1 errors" when it is 1: use vocab.plural."""
    files = [*(ROOT / "ui").rglob("*.py"), *(ROOT / "net").rglob("*.py"), ROOT / "cli.py"]
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for path in files
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if COUNTED.search(line)]
    assert not found


def test_the_track_check_says_one_error(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from simulator.cli import main
    from simulator.scenario.track_doc import EMPTY_TRACK

    track = tmp_path / "t.toml"
    track.write_text(EMPTY_TRACK, encoding="utf-8")
    main(["check", str(track)])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    errors = int(re.search(r": (\d+) errors?,", last).group(1))  # type: ignore[union-attr]
    assert (f"{errors} error," if errors == 1 else f"{errors} errors,") in last


def test_the_log_counts_one_hit_and_one_die() -> None:
    from simulator.gaslands.events import Flipped

    assert Flipped("red-car", "Red Car", -1).text == "Red Car flips: 1 hit"
    assert Flipped("red-car", "Red Car", -2).text == "Red Car flips: 2 hits"


def test_no_event_text_counts_in_the_plural_whatever_its_value() -> None:
    """The golden playthroughs' logs never say "1 hits", "= 1 dice" or "sheds 1 tokens"."""
    golden = Path(__file__).resolve().parent / "golden"
    bad = re.compile(r"\b1 (hits|dice|tokens|votes)\b")
    found = {f"{p.name}: {m.group(0)}" for p in golden.glob("*.json") for m in bad.finditer(p.read_text("utf-8"))}
    assert not found
