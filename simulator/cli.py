"""The ``gaslands`` command.

``gaslands``                      play the Street Race (p.61-62) hot-seat in the window
``gaslands play FILE``            play a race (or a saved game ``.json``); open a rulings file or board
``gaslands render FILE -o PNG``   draw it headless (no display needed)
``gaslands replay SAVE.json``     step through a saved game in the replay viewer (``--events``: the event stream)
``gaslands rule FILE``            answer a rulings file's queries as JSON (docs/rulings.md)
``gaslands export-templates -o DIR``  the template set as printable 1:1 SVG sheets
``gaslands simulate FILE --games N --seed S [--sponsors all --cans 50]``  bot games, headless, with a summary
``gaslands check TRACK``          check a Death Race track's gates (p.124-125)
``gaslands export-track FILE -o DIR``  the table as a printable overview and 1:1 A4 tiles (SVG)
``gaslands edit TRACK [--from LAYOUT]``  the track editor (a new track from an example layout)
``gaslands playtest TRACK --races N --seed S [--workers K | --dask ADDRESS] -o DIR``  bot races of a track:
                                  a report and heat maps
``gaslands team check TEAM [--cans N]``  is the team legal? one JSON object (docs/teams.md); exit 0 legal, 1 not
``gaslands team import ROSTER.rosz -o TEAM.toml``  a BattleScribe / NewRecruit roster as a team file
``gaslands team dashboards TEAM.toml -o DIR``  each vehicle's dashboard as a printable 1:1 SVG card
``gaslands team edit [TEAM.toml] [--render PNG]``  the team builder in the window (a new team if no file)
``gaslands host FILE``            serve a game to players across a network (docs/online.md)
``gaslands join URL``             join a hosted game with its link (``--bot``: the built-in bot plays the seat)

Exit codes: 0 success, 1 a track that breaks the rules (`check`), 2 invalid input (the problems are printed on stderr,
one line each, naming file, table, key and reason), 3 no display, 4 refused by the game server (`join`), 5 the game
server could not be reached (`join`), 130 stopped with Ctrl-C (`host`: the game is saved).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulator.atomic import check_output_file, write_atomic_with
from simulator.errors import InputFileError, Problem, SimulatorError
from simulator.vocab import plural

if TYPE_CHECKING:
    from simulator.scenario.loader import Scenario

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

EXIT_BAD_INPUT = 2
EXIT_NO_DISPLAY = 3


def _has_display() -> bool:
    if os.environ.get("SDL_VIDEODRIVER") not in (None, "", "x11", "wayland"):
        return True
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def _is_board(path: Path) -> bool:
    """A Deadlands board file (a ``[board]`` table) or a board save (``.json``, docs/boards.md)."""
    if path.suffix.lower() == ".json":
        from simulator.boards.board_play import is_board_save

        return is_board_save(path)
    from simulator.scenario.loader import read_toml

    return "board" in read_toml(path)


def _default_scenario() -> Path:
    from simulator.scenario.loader import bundled_scenario

    return bundled_scenario()


def cmd_play(args: argparse.Namespace) -> int:
    """Open the window on a scenario (the Street Race by default)."""
    path = Path(args.file) if args.file else _default_scenario()
    if not _has_display():
        print(
            "gaslands: no display to open a window on.\n"
            f"  Draw the table to a picture instead:  gaslands render {path} -o table.png\n"
            "  (or run under a desktop session / Xvfb, or set DISPLAY)",
            file=sys.stderr,
        )
        return EXIT_NO_DISPLAY
    ts = Path(args.template_set) if args.template_set else None
    if _is_board(path):
        from simulator.ui.board_app import load_play, run_board_window

        load_play(path)  # a board file or save: check it before a window opens
        run_board_window(path)
        return 0
    from simulator.scenario.campaign_file import is_campaign

    if path.suffix.lower() == ".toml" and is_campaign(path):
        from simulator.scenario.campaign_file import load_campaign
        from simulator.ui.campaign_window import run_campaign_window

        load_campaign(path)  # a campaign file: check it before a window opens
        run_campaign_window(path)
        return 0
    if path.suffix.lower() == ".json":
        from simulator.scenario.saves import load

        load(path)  # a saved game: check it replays before a window opens
        from simulator.ui.window import run_window

        run_window(path, ts, game=True)
        return 0
    from simulator.scenario.rulings import load_rulings_file

    scenario = load_rulings_file(path)  # validate the table and its queries before a window opens
    _check_query(path, args.query)
    from simulator.scenario.setup import team_warnings

    for warning in team_warnings(scenario):  # seated all the same: a house team is the players' choice
        print(f"gaslands: warning: {warning}", file=sys.stderr)
    from simulator.ui.window import run_window

    run_window(path, ts, query=args.query, game=False if args.free else None, seed=args.seed)
    return 0


def _replay_window(path: Path) -> int:
    """``gaslands replay SAVE.json``: the replay viewer (step, play, jump to a round, the log beside it)."""
    if not _has_display():
        print(
            "gaslands: no display to open the replay viewer on.\n"
            f"  Print the game's events instead:  gaslands replay {path} --events\n"
            "  (or run under a desktop session / Xvfb, or set DISPLAY)",
            file=sys.stderr,
        )
        return EXIT_NO_DISPLAY
    from simulator.scenario.saves import load

    game = load(path)  # check it replays before a window opens (SaveError names the problem)
    from simulator.ui.window import run_replay

    run_replay(path, game)
    return 0


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _check_query(path: Path, query: str | None, scenario: Scenario | None = None) -> None:
    """An unknown ``--query`` is a named error (before a window or a picture is made)."""
    if query is None:
        return
    from simulator.scenario.loader import load_scenario
    from simulator.ui.rulings_view import select_query

    if scenario is None:
        scenario = load_scenario(path)
    try:
        select_query(scenario.spec.query, query)
    except KeyError as exc:
        raise InputFileError(str(path), [Problem("--query", str(exc.args[0]))]) from None


def cmd_render(args: argparse.Namespace) -> int:
    """Draw a scenario or board to a PNG with the window's drawing code, headless.

    ``-o`` must name a ``.png`` in an existing folder that is new or a PNG (not a
    folder, a link or another kind of file); the picture is written atomically.
    """
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    path = Path(args.file)
    width, height = args.size
    out = check_output_file(args.output, ".png", PNG_SIGNATURE)
    raw = None
    if path.suffix.lower() != ".json":
        from simulator.scenario.loader import read_toml

        raw = read_toml(path)
    if (raw is not None and "board" in raw) or (raw is None and _is_board(path)):
        from simulator.ui.board_app import render_board

        write_atomic_with(out, lambda tmp: render_board(path, tmp, (width, height)), ".png")
    elif raw is not None and "campaign" in raw:
        from simulator.scenario.campaign_file import load_campaign
        from simulator.ui.window import render_campaign_png

        load_campaign(path)  # a clear error naming the field before any drawing
        write_atomic_with(out, lambda tmp: render_campaign_png(path, tmp, (width, height)), ".png")
    else:
        if raw is None:
            from simulator.scenario.saves import load

            last = len(load(path).history.entries) - 1
            if args.step is not None and args.step > last:
                raise InputFileError(str(path), [Problem("--step", f"the game has steps 0 to {last}, not {args.step}")])
        else:
            if args.step is not None:
                raise InputFileError(str(path), [Problem("--step", "only a saved game (.json) has steps")])
            from simulator.scenario.loader import parse_scenario
            from simulator.scenario.rulings import parse_queries

            scenario = parse_scenario(raw, str(path))
            parse_queries(scenario)  # the table and its queries, as `gaslands rule` checks them
            _check_query(path, args.query, scenario)
        from simulator.ui.window import render_png

        ts = Path(args.template_set) if args.template_set else None
        write_atomic_with(out, lambda tmp: render_png(path, tmp, (width, height), template_set_path=ts,
                                                      query=args.query, game=False if args.free else None,
                                                      seed=args.seed, step=args.step), ".png")
    print(f"wrote {out}")
    return 0


def rulings_json(results: list[dict[str, Any]]) -> str:
    """The answers of ``gaslands rule`` as JSON text: strict JSON, never ``NaN`` or ``Infinity``
    (a number that is not finite would be a defect; it is written as ``null`` and named on stderr)."""

    def finite(value: Any) -> Any:
        if isinstance(value, float) and not math.isfinite(value):
            print(f"gaslands: warning: a result was {value}; written as null", file=sys.stderr)
            return None
        if isinstance(value, dict):
            return {k: finite(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [finite(v) for v in value]
        return value

    return json.dumps(finite(results), indent=2, allow_nan=False)


def cmd_rule(args: argparse.Namespace) -> int:
    """Answer a rulings file: a JSON array on stdout, one object per query (docs/rulings.md)."""
    from simulator.scenario.rulings import run_rulings

    results = run_rulings(args.file, args.template_set)
    sys.stdout.write(rulings_json(results) + "\n")
    return 0


def cmd_export_templates(args: argparse.Namespace) -> int:
    """Write the template set as printable A4 SVG sheets at 1:1."""
    from simulator.geometry.templates import load_template_set
    from simulator.scenario.svg_export import PDF_NAME, export_templates

    written = export_templates(load_template_set(args.template_set), Path(args.output))
    for p in written:
        print(f"wrote {p}")
    print(f"wrote {Path(args.output) / PDF_NAME} (every sheet; print at 100% / actual size, scaling off)")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    """Check a Death Race track against the rules and guidelines (p.124-125): 0 legal, 1 not."""
    from simulator.geometry.track import check_track
    from simulator.scenario.loader import load_scenario

    scenario = load_scenario(args.file)
    findings = check_track(scenario.table, scenario.template_set)
    for f in findings:
        print(f.render())
    errors = sum(f.severity == "error" for f in findings)
    warnings = len(findings) - errors
    print(f"{args.file}: {plural(errors, 'error')}, {plural(warnings, 'warning')}"
          + (" - a legal Death Race track" if not errors else ""))
    return 1 if errors else 0


def cmd_export_track(args: argparse.Namespace) -> int:
    """Write a scenario's table as an A4 overview and 1:1 A4 tiles to tape together."""
    from simulator.scenario.loader import load_scenario
    from simulator.scenario.track_export import export_track

    scenario = load_scenario(args.file)
    try:
        done = export_track(scenario, Path(args.output))
    except OSError as exc:
        print(f"gaslands: cannot write the track to {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    first, last = done.tiles[0].stem.removeprefix("tile-"), done.tiles[-1].stem.removeprefix("tile-")
    print(f"wrote {done.overview} and {plural(len(done.tiles), 'tile')} {first}..{last} ({done.cols} columns x "
          f"{done.rows} rows of A4 portrait, {len(done.empty)} empty) to {args.output}, and the overview and "
          f"{plural(len(done.tiles) - len(done.empty), 'tile')} with something on them in "
          f"{done.pdf.name if done.pdf else 'track.pdf'}; print at 100% / actual size (scaling off)")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play bot games headless and print a summary."""
    from simulator.scenario.simulate import simulate_command

    ts = Path(args.template_set) if args.template_set else None
    save_dir = Path(args.save_dir) if args.save_dir else None
    if save_dir is not None and save_dir.exists() and not save_dir.is_dir():
        print(f"gaslands: --save-dir {save_dir}: not a folder", file=sys.stderr)
        return EXIT_BAD_INPUT
    sponsors: tuple[str | None, ...] = ()
    if args.sponsors:
        from simulator.gaslands.teams import UnknownName
        from simulator.scenario.simulate import parse_sponsors

        try:
            sponsors = parse_sponsors(args.sponsors)
        except UnknownName as exc:
            print(f"gaslands: --sponsors: {exc.reason}", file=sys.stderr)
            return EXIT_BAD_INPUT
    path = Path(args.file)
    if path.suffix.lower() == ".toml" and path.is_file():
        from simulator.scenario.loader import read_toml

        raw = read_toml(path)
        what = "a Deadlands board" if "board" in raw else "a campaign file" if "campaign" in raw else ""
        if what:
            hint = "gaslands play" if "board" in raw else "gaslands campaign play --bots"
            print(f"gaslands: {path} is {what}: simulate plays Gaslands scenarios (try {hint} {path})",
                  file=sys.stderr)
            return EXIT_BAD_INPUT
    return simulate_command(path, games=args.games, seed=args.seed, progress=not args.quiet,
                            template_set=ts, save_dir=save_dir, sponsors=sponsors, cans=args.cans)


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a saved game: ``--events`` prints its events as JSON lines; otherwise the replay viewer opens."""
    if Path(args.file).suffix.lower() != ".json":
        print(f"gaslands: {args.file}: replay takes a saved game (.json, written by Ctrl+S, autosave or "
              "simulate --save-dir); to open a scenario or rulings file use `gaslands play`", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not args.events:
        return _replay_window(Path(args.file))
    from simulator.scenario.replay import event_lines
    from simulator.scenario.saves import load

    game = load(Path(args.file))
    for line in event_lines(game):
        print(json.dumps(line, ensure_ascii=False, allow_nan=False))
    return 0


def cmd_playtest(args: argparse.Namespace) -> int:
    """Race the bots round a track and write ``report.json`` and the heat maps into ``-o DIR``."""
    import re

    from simulator.atomic import ExportFolder, write_text_atomic
    from simulator.scenario.playtest import playtest, report_json, summary_lines

    folder = ExportFolder(args.output, "playtest", re.compile(r"report\.json|heat-[a-z-]+\.png"), '"heatmaps":')
    folder.prepare()  # a bad -o is refused before any race is run
    ts = Path(args.template_set) if args.template_set else None
    from simulator.scenario.playtest import default_workers

    workers = args.workers or (1 if args.dask else default_workers())
    scenario, report, heat = playtest(Path(args.file), args.races, args.seed, workers=workers,
                                      dask_address=args.dask, template_set=ts, progress=not args.quiet)
    from simulator.ui.heatmap import save_heatmap

    out = Path(args.output)
    written = []
    for name, file_name in report["heatmaps"].items():
        def draw(tmp: Path, kind: str = name) -> None:
            save_heatmap(scenario.table, heat, kind, report["races"], tmp)

        write_atomic_with(out / file_name, draw, ".png")
        written.append(file_name)
    write_text_atomic(out / "report.json", report_json(report))
    folder.finish([*written, "report.json"])
    print("\n".join(summary_lines(report)))
    print(f"wrote {out / 'report.json'} and {len(written)} heat maps ({', '.join(written)})")
    return 0


LAYOUTS = {"figure-of-eight": "death_race_figure_eight.toml", "tear-drop": "death_race_teardrop.toml",
           "loop": "death_race.toml"}
"""Example layouts a new track may start from (p.124-125), bundled in scenarios/."""


def cmd_edit(args: argparse.Namespace) -> int:
    """Open the track editor on a file; a new file starts empty or from an example layout (``--from``)."""
    path = Path(args.file)
    if args.layout:
        if path.exists():
            print(f"gaslands: {path} exists; --from starts a new track only (open it without --from to edit it)",
                  file=sys.stderr)
            return EXIT_BAD_INPUT
        from simulator.atomic import write_text_atomic
        from simulator.scenario.loader import bundled_scenario

        write_text_atomic(path, bundled_scenario(LAYOUTS[args.layout]).read_text(encoding="utf-8"))
        print(f"wrote {path} from the {args.layout} layout")
    from simulator.ui.modes.editor import check_editable

    check_editable(path)  # a file that cannot be read is named before a window opens
    if args.render:
        from simulator.ui.window import render_editor_png

        out = check_output_file(args.render, ".png", PNG_SIGNATURE)
        write_atomic_with(out, lambda tmp: render_editor_png(path, tmp), ".png")
        print(f"wrote {out}")
        return 0
    if not _has_display():
        print(f"gaslands: no display to open the editor on; draw it instead: gaslands edit {path} --render "
              "editor.png", file=sys.stderr)
        return EXIT_NO_DISPLAY
    from simulator.ui.window import run_editor

    run_editor(path)
    return 0


def _workers(text: str) -> int:
    """A number of local worker processes, 1 to 256."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of workers, not {text!r}") from None
    if not 1 <= n <= 256:
        raise argparse.ArgumentTypeError(f"the number of workers is 1 to 256, not {n}")
    return n


def _races(text: str) -> int:
    """A number of races, 1 to 100,000."""
    n = _count(text)
    if n < 1:
        raise argparse.ArgumentTypeError("a playtest needs at least 1 race")
    return n


def _ruling(text: str) -> tuple[str, bool]:
    """``NAME=true`` or ``NAME=false``: a reading of an open point of team building (docs/rulings.md)."""
    from dataclasses import fields

    from simulator.gaslands.teams import BuildRulings

    known = [f.name for f in fields(BuildRulings)]
    name, _, value = text.partition("=")
    if name not in known or value.lower() not in ("true", "false"):
        raise argparse.ArgumentTypeError(f"expected NAME=true or NAME=false with NAME one of {', '.join(known)}, "
                                         f"not {text!r}")
    return name, value.lower() == "true"


def _rulings(pairs: list[tuple[str, bool]] | None) -> Any:
    from simulator.gaslands.teams import BuildRulings

    return BuildRulings(**dict(pairs or []))


def cmd_team_check(args: argparse.Namespace) -> int:
    """Check a team file against the rules of team building: one JSON object (docs/teams.md); 0 legal, 1 not."""
    from simulator.gaslands.teams import check
    from simulator.scenario.team_file import load_team

    report = check(load_team(args.file), args.cans, _rulings(args.ruling))
    sys.stdout.write(json.dumps(report.to_json(), indent=2) + "\n")
    return 0 if report.legal else 1


def cmd_team_import(args: argparse.Namespace) -> int:
    """Turn a BattleScribe / NewRecruit roster into a team file; say what could not be mapped and whether the
    team is legal."""
    from simulator.gaslands.teams import check
    from simulator.scenario.roster_import import import_roster
    from simulator.scenario.team_file import save_team

    out = check_output_file(args.output, ".toml", b"[team]")
    imported = import_roster(args.file)
    save_team(imported.team, out)
    team = imported.team
    sponsor = team.sponsor_row.name if team.sponsor_row else "no sponsor"
    print(f"wrote {out}: {team.name}, {sponsor}, {plural(len(team.vehicles), 'vehicle')}")
    for message in imported.messages:
        print(f"  not imported: {message}")
    report = check(team)
    verdict = "legal" if report.legal else f"not legal ({plural(len(report.problems), 'problem')}: gaslands team check {out})"
    print(f"{report.cans} of {report.limit} Cans; {verdict}")
    return 0


def cmd_team_dashboards(args: argparse.Namespace) -> int:
    """Write each vehicle's dashboard as a 1:1 SVG card, for play on a physical table."""
    from simulator.scenario.dashboard_export import export_dashboards
    from simulator.scenario.team_file import load_team

    written = export_dashboards(load_team(args.file), Path(args.output))
    for p in written:
        print(f"wrote {p}")
    print("print at 100% / actual size: each card has a 50 mm ruler to check")
    return 0


def cmd_team_edit(args: argparse.Namespace) -> int:
    """The team builder on a team file (read first: a file that cannot be read is named before a window opens)."""
    path = Path(args.file) if args.file else None
    if path is not None and path.exists():
        from simulator.scenario.team_file import load_team

        load_team(path)
    if args.render:
        from simulator.ui.window import render_team_builder_png

        out = check_output_file(args.render, ".png", PNG_SIGNATURE)
        write_atomic_with(out, lambda tmp: render_team_builder_png(path, tmp), ".png")
        print(f"wrote {out}")
        return 0
    if not _has_display():
        print("gaslands: no display to open the team builder on; draw it instead: gaslands team edit "
              f"{path or ''} --render builder.png".replace("  ", " "), file=sys.stderr)
        return EXIT_NO_DISPLAY
    from simulator.ui.window import run_team_builder

    run_team_builder(path)
    return 0


def _cans(text: str) -> int:
    """A team size in Cans: a whole number, 1 to 10,000."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a team size is a whole number of Cans, not {text!r}") from None
    if not 1 <= n <= 10_000:
        raise argparse.ArgumentTypeError(f"a team size is 1 to 10000 Cans, not {n}")
    return n


def cmd_host(args: argparse.Namespace) -> int:
    """Serve a game across the network until it is over (docs/online.md)."""
    from simulator.net.server import HostOptions, host_command

    path = Path(args.file) if args.file else _default_scenario()
    if path.suffix.lower() != ".json" and _is_board(path):
        raise SimulatorError(f"{path} is a Deadlands board: online play is for Gaslands games")
    return host_command(HostOptions(path, port=args.port, bind=args.bind, seed=args.seed,
                                    seats_file=Path(args.seats_file) if args.seats_file else None,
                                    save=Path(args.save) if args.save else None, public_url=args.public_url))


def cmd_join(args: argparse.Namespace) -> int:
    """Join a hosted game with its link: in the window (the same game screen as hot-seat), or headless with --bot
    (the built-in bot plays the seat) or --log (the game's events as text)."""
    from simulator.net.client import join_headless
    from simulator.net.protocol import parse_link

    try:
        link = parse_link(args.url)
    except ValueError as exc:
        given = Path(args.url.strip().strip("'\""))
        if "://" not in args.url and given.suffix and given.is_file():
            print(f"gaslands: {args.url} is a file, not a join link: give the link itself, the ws://... text the host "
                  "printed (a --seats-file holds one per seat, under \"seats\")", file=sys.stderr)
        else:
            print(f"gaslands: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.bot or args.log:
        return join_headless(link, bot=args.bot, log=args.log, retry_s=args.retry)
    if not _has_display():
        print("gaslands: no display to open a window on: play the seat with the built-in bot (--bot) or follow "
              "the game as text (--log)", file=sys.stderr)
        return EXIT_NO_DISPLAY
    from simulator.ui.window import run_online_window

    return run_online_window(link, args.retry)


def _port(text: str) -> int:
    """A TCP port, 0 to 65535 (0: any free port)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a port is a whole number, not {text!r}") from None
    if not 0 <= n <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {n}")
    return n


def _seconds(text: str) -> float:
    """A time in seconds, 0 to 86400."""
    try:
        n = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, not {text!r}") from None
    if not 0 <= n <= 86_400:
        raise argparse.ArgumentTypeError(f"expected 0 to 86400 seconds, not {text}")
    return n


MIN_SIZE_PX = (640, 480)
"""The smallest picture ``render`` draws: the window's layout (table, tray, dashboards) needs it."""


def _size(text: str) -> tuple[int, int]:
    """``WIDTHxHEIGHT`` in pixels: 640..8000 wide, 480..8000 high."""
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1400x900, not {text!r}") from None
    if not (MIN_SIZE_PX[0] <= w <= 8000 and MIN_SIZE_PX[1] <= h <= 8000):
        raise argparse.ArgumentTypeError(f"a picture is {MIN_SIZE_PX[0]} to 8000 pixels wide and {MIN_SIZE_PX[1]} "
                                         f"to 8000 high, not {text!r}")
    return w, h


def _count(text: str) -> int:
    """A whole number of games, 0 to 100,000."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of games, not {text!r}") from None
    if not 0 <= n <= 100_000:
        raise argparse.ArgumentTypeError(f"the number of games is 0 to 100000, not {n}")
    return n


def _step(text: str) -> int:
    """A step of a saved game: a whole number from 0 (the start)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a step is a whole number, not {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"a step is 0 (the start) or more, not {n}")
    return n


def _seed(text: str) -> int:
    """A dice seed: a whole number."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number, not {text!r}") from None
    if not -(2**63) <= n < 2**63:
        raise argparse.ArgumentTypeError("a seed is a whole number of at most 19 digits")
    return n


def _png_path(text: str) -> str:
    """An output path ending in .png."""
    if not text.lower().endswith(".png"):
        raise argparse.ArgumentTypeError(f"the picture is written as PNG: name it *.png, not {text!r}")
    return text


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``gaslands``."""
    parser = argparse.ArgumentParser(prog="gaslands", description="A digital table for Gaslands.")
    parser.add_argument("--template-set", help="a template-set TOML file (default: the bundled set)")
    sub = parser.add_subparsers(dest="command")
    play = sub.add_parser("play", help="open a scenario in the window")
    play.add_argument("file", nargs="?",
                      help="scenario, saved game (.json), rulings or board file (default: the Street Race)")
    play.add_argument("--template-set", dest="template_set_sub", help="a template-set TOML file")
    play.add_argument("--query", help="a rulings file's query to show (its id or 1-based index)")
    play.add_argument("--free", action="store_true", help="open a race as the free table, not as a game")
    play.add_argument("--seed", type=_seed, default=None, help="dice seed of a new game (default: random)")
    render = sub.add_parser("render", help="draw a scenario to a PNG, headless")
    render.add_argument("file")
    render.add_argument("-o", "--output", required=True, type=_png_path, help="the PNG to write")
    render.add_argument("--size", default="1400x900", type=_size,
                        help="WIDTHxHEIGHT in pixels (default 1400x900)")
    render.add_argument("--template-set", dest="template_set_sub")
    render.add_argument("--query", help="a rulings file's query to draw (its id or 1-based index)")
    render.add_argument("--free", action="store_true", help="draw a race as the free table, not as a game")
    render.add_argument("--seed", type=_seed, default=1, help="dice seed of the game drawn (default 1)")
    render.add_argument("--step", type=_step, default=None,
                        help="a saved game in the replay viewer at this step (0 the start; default: play it on)")
    rule = sub.add_parser("rule", help="answer a rulings file as JSON")
    rule.add_argument("file")
    rule.add_argument("--template-set", dest="template_set_sub", help="a template-set TOML file")
    export = sub.add_parser("export-templates", help="printable 1:1 SVG of the template set")
    export.add_argument("-o", "--output", required=True)
    export.add_argument("--template-set", dest="template_set_sub")
    check = sub.add_parser("check", help="check a Death Race track's gates against the rules (p.124-125)")
    check.add_argument("file")
    track = sub.add_parser("export-track", help="printable SVG of a scenario's table: overview + 1:1 A4 tiles")
    track.add_argument("file")
    track.add_argument("-o", "--output", required=True, help="folder for overview.svg and tile-*.svg")
    sim = sub.add_parser("simulate", help="play bot games headless")
    sim.add_argument("file")
    sim.add_argument("--games", type=_count, default=10)
    sim.add_argument("--seed", type=_seed, default=1)
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.add_argument("--template-set", dest="template_set_sub", help="a template-set TOML file")
    sim.add_argument("--save-dir", help="write each game's save (seed + decisions) into this folder")
    sim.add_argument("--sponsors", help="bot-built teams: 'all', 'none' or sponsor names separated by commas")
    sim.add_argument("--cans", type=_cans, default=50, help="team size of bot-built teams (default 50)")
    replay = sub.add_parser("replay", help="step through a saved game in the replay viewer, or print its events")
    replay.add_argument("file", help="a saved game (.json)")
    replay.add_argument("--events", action="store_true",
                        help="print every event as a JSON line (type, page, vehicle names, deltas) and exit")
    ed = sub.add_parser("edit", help="the track editor on a track file (a new one if it does not exist)")
    ed.add_argument("file")
    ed.add_argument("--from", dest="layout", choices=sorted(LAYOUTS),
                    help="start a new track from an example layout (p.124-125)")
    ed.add_argument("--render", metavar="PNG", help="draw the editor to a PNG instead of opening a window")
    pt = sub.add_parser("playtest", help="bot races of a track: report.json and heat maps")
    pt.add_argument("file")
    pt.add_argument("--races", type=_races, default=100, help="how many races (default 100)")
    pt.add_argument("--seed", type=_seed, default=1, help="the seed every race's dice are drawn from (default 1)")
    pt.add_argument("--workers", type=_workers, default=None,
                    help="local worker processes (default: one per core); the report does not depend on it")
    pt.add_argument("--dask", metavar="SCHEDULER_ADDRESS",
                    help="run the races on a Dask cluster (tcp://HOST:8786; needs the cluster extra)")
    pt.add_argument("-o", "--output", required=True, help="folder for report.json and heat-*.png")
    pt.add_argument("--quiet", action="store_true", help="no progress bar")
    pt.add_argument("--template-set", dest="template_set_sub", help="a template-set TOML file")
    team = sub.add_parser("team", help="team files: check, import a roster, print dashboards (p.63-65, p.91-115)")
    team_sub = team.add_subparsers(dest="team_command", required=True)
    team_check = team_sub.add_parser("check", help="is the team legal? one JSON object; exit 0 legal, 1 not")
    team_check.add_argument("file")
    team_check.add_argument("--cans", type=_cans, default=None, help="the team size (default: the file's cans)")
    team_check.add_argument("--ruling", type=_ruling, action="append",
                            help="NAME=true|false: a reading of an open point (docs/rulings.md); repeatable")
    team_import = team_sub.add_parser("import", help="a BattleScribe / NewRecruit roster (.rosz) as a team file")
    team_import.add_argument("file", help="the roster (.rosz, or an unzipped .ros)")
    team_import.add_argument("-o", "--output", required=True, help="the team file to write (*.toml)")
    team_cards = team_sub.add_parser("dashboards", help="each vehicle's dashboard as a printable 1:1 SVG card")
    team_cards.add_argument("file")
    team_cards.add_argument("-o", "--output", required=True, help="folder for dashboard-01.svg, ...")
    team_edit = team_sub.add_parser("edit", help="the team builder in the window (a new team if no file)")
    team_edit.add_argument("file", nargs="?", help="a team file (*.toml): opened, or created on the first save")
    team_edit.add_argument("--render", metavar="PNG", help="draw the builder to a PNG instead (no display needed)")
    camp = sub.add_parser("campaign", help="campaigns: Escalating, Championship and Televised Seasons, Savage "
                                           "Highways (p.154-175)")
    camp_sub = camp.add_subparsers(dest="campaign_command", required=True)
    camp_new = camp_sub.add_parser("new", help="a new campaign file: your team files (--team) and bot-built teams")
    camp_new.add_argument("file", help="the campaign file to write (*.toml)")
    camp_new.add_argument("--kind", choices=("escalating", "championship", "televised", "savage_highways"),
                          default="televised", help="the campaign (default televised: a Televised Season, p.156)")
    camp_new.add_argument("--teams", type=_count, default=2, help="teams (2 for now: the scenarios seat two players; Savage Highways: Riggers and Gangers)")
    camp_new.add_argument("--events", type=_count, default=3, help="Televised Events (or games) in the schedule")
    camp_new.add_argument("--cans", type=_cans, default=30, help="each team's Cans (p.159: 30)")
    camp_new.add_argument("--seed", type=_seed, default=1, help="the campaign's seed (schedule, dice)")
    camp_new.add_argument("--bots", action="store_true", help="bots drive every team")
    camp_new.add_argument("--force", action="store_true", help="replace an existing file")
    camp_new.add_argument("--team", action="append", default=[], metavar="TEAM_FILE",
                          help="a player's team file (gaslands team check; repeat for each player); the other teams "
                               "are bot-built (Savage Highways: the Riggers' team, then the Gangers')")
    camp_new.add_argument("--sponsors", help="bot-built teams' sponsors in turn: 'all', 'none' or sponsor names "
                                             "separated by commas (p.159: each team has a Sponsor)")
    camp_show = camp_sub.add_parser("show", help="standings, schedule and the games played")
    camp_show.add_argument("file")
    camp_play = camp_sub.add_parser("play", help="the next game: in the window, or by the bots with --bots")
    camp_play.add_argument("file")
    camp_play.add_argument("--skirmish", default="", help="a Wasteland Skirmish (scenario key) instead of the next "
                                                         "Televised Event (p.157)")
    camp_play.add_argument("--bots", action="store_true", help="the bots play it headless; the file is updated")
    camp_play.add_argument("--round-limit", type=_count, default=30, help="stop a bot game after this many rounds")
    host = sub.add_parser("host", help="serve a game to players across a network (docs/online.md)")
    host.add_argument("file", nargs="?", help="a scenario, or a saved game .json to resume (default: the Street Race)")
    host.add_argument("--port", type=_port, default=None, help="TCP port (default 8765, or the save's; 0: any free)")
    host.add_argument("--bind", default=None,
                      help="address to listen on (default 127.0.0.1: this computer only; 0.0.0.0: the LAN)")
    host.add_argument("--seed", type=_seed, default=None, help="dice seed of a new game (default: secret, random)")
    host.add_argument("--seats-file", help="also write the join links to this JSON file")
    host.add_argument("--save", help="autosave here (default: the save resumed, or the user's data folder)")
    host.add_argument("--public-url", help="the address players reach, for links through a tunnel or proxy "
                                           "(e.g. wss://example.org/gaslands)")
    join = sub.add_parser("join", help="join a hosted game with its link")
    join.add_argument("url", help="the join link the host gave you (quote it: it holds ? and &)")
    join.add_argument("--bot", action="store_true", help="play the seat headless with the built-in bot")
    join.add_argument("--log", action="store_true", help="print the game's events as they happen (headless)")
    join.add_argument("--retry", type=_seconds, default=60.0,
                      help="seconds to keep trying to reconnect to a lost server (default 60)")
    return parser


TEAM_COMMANDS = {"check": cmd_team_check, "import": cmd_team_import, "dashboards": cmd_team_dashboards,
                 "edit": cmd_team_edit}


def cmd_team(args: argparse.Namespace) -> int:
    """``gaslands team ...``."""
    return TEAM_COMMANDS[args.team_command](args)


def cmd_campaign(args: argparse.Namespace) -> int:
    """``gaslands campaign new|show|play`` (p.154-175)."""
    from simulator.scenario import campaign_cli

    match args.campaign_command:
        case "new":
            sponsors: tuple[str | None, ...] = ()
            if args.sponsors:
                from simulator.gaslands.teams import UnknownName
                from simulator.scenario.simulate import parse_sponsors

                try:
                    sponsors = parse_sponsors(args.sponsors)
                except UnknownName as exc:
                    print(f"gaslands: --sponsors: {exc.reason}", file=sys.stderr)
                    return 2
            return campaign_cli.new(Path(args.file), args.kind, args.teams, args.events, args.cans, args.seed,
                                    args.bots, args.force, tuple(Path(f) for f in args.team), sponsors)
        case "show":
            return campaign_cli.show(Path(args.file))
        case "play":
            if not args.bots and not _has_display():
                print("gaslands: no display to open a window on; add --bots to let the bots play the next game",
                      file=sys.stderr)
                return EXIT_NO_DISPLAY
            return campaign_cli.play(Path(args.file), args.skirmish, args.bots, args.round_limit)
    return 2


COMMANDS = {
    None: cmd_play, "play": cmd_play, "render": cmd_render, "rule": cmd_rule,
    "export-templates": cmd_export_templates, "simulate": cmd_simulate, "check": cmd_check,
    "export-track": cmd_export_track, "playtest": cmd_playtest, "edit": cmd_edit, "team": cmd_team, "replay": cmd_replay,
    "host": cmd_host, "join": cmd_join, "campaign": cmd_campaign,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = build_parser().parse_args(argv)
    if getattr(args, "template_set_sub", None):
        args.template_set = args.template_set_sub
    if not hasattr(args, "file"):
        args.file = None
    for name, default in (("query", None), ("free", False), ("seed", None), ("step", None)):
        if not hasattr(args, name):
            setattr(args, name, default)
    try:
        return COMMANDS[args.command](args)
    except BrokenPipeError:  # `gaslands rule FILE | head`: the reader left; not an error of ours
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        return 0
    except InputFileError as exc:
        for problem in exc.problems:
            print(problem.render(exc.source), file=sys.stderr)
        return EXIT_BAD_INPUT
    except SimulatorError as exc:
        print(f"gaslands: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:  # a file that cannot be written (full disk, no permission)
        where = f" {exc.filename}" if exc.filename else ""
        print(f"gaslands: cannot write{where}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
