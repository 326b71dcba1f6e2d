"""Writing only what was asked (issue 9): output paths, links, atomic writes, stray temporary files."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest

from simulator.atomic import ExportFolder, check_output_file, remove_stale_temps, write_text_atomic
from simulator.cli import main, rulings_json
from simulator.errors import InputFileError

ROOT = Path(__file__).resolve().parents[1]
STREET = ROOT / "scenarios" / "street_race.toml"
PNG = b"\x89PNG\r\n\x1a\n"


def render(out: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    code = main(["render", str(STREET), "-o", str(out), "--size", "640x480", "--free", *extra])
    return code, capsys.readouterr().err


def test_render_writes_a_png_atomically(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "shot.png"
    assert render(out, capsys) == (0, "")
    assert out.read_bytes()[:8] == PNG
    assert [p.name for p in tmp_path.iterdir()] == ["shot.png"]
    assert render(out, capsys) == (0, "")  # an existing picture is replaced


def test_render_refuses_a_folder_a_missing_folder_and_another_kind_of_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "x.png"
    folder.mkdir()
    assert render(folder, capsys) == (2, f"{folder}: -o: is a folder; give a file name ending .png\n")
    missing = tmp_path / "no" / "such" / "x.png"
    assert render(missing, capsys) == (2, f"{missing}: -o: the folder '{missing.parent}' does not exist\n")
    text = tmp_path / "notes.png"
    text.write_text("my notes")
    code, err = render(text, capsys)
    assert code == 2 and err.startswith(f"{text}: -o: exists and is not a .png file")
    assert text.read_text() == "my notes"


def test_render_does_not_write_through_a_link(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    precious = tmp_path / "precious.txt"
    precious.write_text("keep")
    link = tmp_path / "shot.png"
    link.symlink_to(precious)
    assert render(link, capsys) == (2, f"{link}: -o: is a symbolic link; give the path of a file, not of a link\n")
    assert precious.read_text() == "keep"


def test_unknown_query_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = ROOT / "tests" / "cases" / "move_tbone.toml"
    code = main(["render", str(case), "-o", str(tmp_path / "x.png"), "--query", "nope", "--size", "640x480"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(f"{case}: --query: no query 'nope'; the file has: ")
    assert not (tmp_path / "x.png").exists()


def test_export_templates_into_a_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "sheets"
    blocker.write_text("")
    assert main(["export-templates", "-o", str(blocker)]) == 2
    assert capsys.readouterr().err == f"{blocker}: -o: is a file, not a folder; name a new or empty folder\n"
    nowhere = tmp_path / "a" / "b"
    assert main(["export-templates", "-o", str(nowhere)]) == 2
    assert capsys.readouterr().err == f"{nowhere}: -o: the folder '{nowhere.parent}' does not exist\n"


@pytest.mark.parametrize("games", ["-1", "x", "1e9"])
def test_simulate_games_is_checked(games: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["simulate", str(STREET), "--games", games])
    assert info.value.code == 2
    assert "argument --games" in capsys.readouterr().err


def test_rule_prints_strict_json(capsys: pytest.CaptureFixture[str]) -> None:
    text = rulings_json([{"id": 1, "distance_mm": float("inf"), "ok": [1.5, float("nan")]}])
    assert json.loads(text) == [{"id": 1, "distance_mm": None, "ok": [1.5, None]}]
    assert capsys.readouterr().err.count("warning") == 2


def test_check_output_file_kinds(tmp_path: Path) -> None:
    assert check_output_file(tmp_path / "a.svg", ".svg") == tmp_path / "a.svg"
    with pytest.raises(InputFileError) as info:
        check_output_file(tmp_path / "a.txt", ".svg")
    assert str(info.value) == f"{tmp_path / 'a.txt'}: -o: name the file *.svg"
    fifo = tmp_path / "p.svg"
    os.mkfifo(fifo)
    with pytest.raises(InputFileError) as info:
        check_output_file(fifo, ".svg")
    assert str(info.value) == f"{fifo}: -o: is not a regular file"


def test_stray_temporary_files_are_cleaned_by_the_next_write(tmp_path: Path) -> None:
    target = tmp_path / "autosave.json"
    old = tmp_path / ".autosave.json.abc123.tmp"
    fresh = tmp_path / ".autosave.json.def456.tmp"  # maybe another process writing right now
    other = tmp_path / ".other.json.abc123.tmp"
    for p in (old, fresh, other):
        p.write_text("half")
    an_hour_ago = time.time() - 3600
    os.utime(old, (an_hour_ago, an_hour_ago))
    os.utime(other, (an_hour_ago, an_hour_ago))
    write_text_atomic(target, "{}")
    assert target.read_text() == "{}"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["autosave.json", fresh.name, other.name])
    assert remove_stale_temps(tmp_path / "other.json") == [other]


def test_export_folder_owns_only_what_it_wrote(tmp_path: Path) -> None:
    ours = re.compile(r"page-\d+\.txt")
    folder = ExportFolder(tmp_path / "out", "pages", ours, "PAGES v1")
    folder.prepare()
    for n in (1, 2):
        write_text_atomic(tmp_path / "out" / f"page-{n}.txt", f"PAGES v1 {n}")
    folder.finish(["page-1.txt", "page-2.txt"])
    again = ExportFolder(tmp_path / "out", "pages", ours, "PAGES v1")
    again.prepare()
    assert again.owned == {"page-1.txt", "page-2.txt"}
    again.finish(["page-1.txt"])
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [".gaslands-export.json", "page-1.txt"]
    (tmp_path / "out" / "page-7.txt").write_text("not ours")
    with pytest.raises(InputFileError):
        ExportFolder(tmp_path / "out", "pages", ours, "PAGES v1").prepare()
    # a manifest of another kind of export does not make its files ours
    (tmp_path / "out" / "page-7.txt").unlink()
    (tmp_path / "out" / ".gaslands-export.json").write_text('{"kind": "other", "files": ["page-1.txt"]}')
    (tmp_path / "out" / "page-1.txt").write_text("no signature")
    with pytest.raises(InputFileError):
        ExportFolder(tmp_path / "out", "pages", ours, "PAGES v1").prepare()
