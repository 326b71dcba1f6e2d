"""Printable 1:1 SVG dashboards of a team's vehicles, for play on a physical table (p.15-16, p.63-65).

:func:`dashboard_svg` draws one vehicle's dashboard card, :data:`CARD_W_MM`
wide, in millimetres (``width="180mm"`` with a matching ``viewBox``), so
printed at 100 % / actual size it is exactly that size: the vehicle's name,
type, weight and cost in Cans; its Handling, max Gear and Crew; a gear track
(1 to 6, gears above its max crossed out); a box per Hull Point to tick off; a
Hazard Token track up to its Wipeout (6, or 8 with Dutch Courage, p.34,
p.102); its weapons with facing, range, attack dice, Ammo boxes and special
rules; its upgrades, perks and special rules with their pages (short
reminders in our own words); and a 50 mm ruler to check the print scale.
:func:`export_dashboards` writes ``dashboard-01.svg``... into a folder, one
per vehicle, touching only files it wrote. Output is byte-for-byte
reproducible.
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.sax.saxutils import escape

from simulator.atomic import ExportFolder, write_text_atomic
from simulator.gaslands.tables import Sponsor, load_perk_classes, load_perks, load_upgrades, load_weapons
from simulator.gaslands.teams import (
    MAX_GEAR,
    Team,
    TeamVehicle,
    check,
    starting_ammo,
    statistics,
    vehicle_cost,
    vehicle_labels,
)

CARD_W_MM = 180.0
"""The card's width: two fit on an A4 sheet, one above the other."""
MARGIN_MM = 6.0
"""Blank margin inside the card's cut line."""
BOX_MM = 5.0
"""Side of a Hull, gear, Hazard or Ammo box."""
RULER_MM = 50.0
"""Length of the print-scale ruler on each card."""
WIPEOUT_AT = 6
"""Hazard Tokens at which a vehicle wipes out (p.34)."""
DUTCH_COURAGE_WIPEOUT = 8
"""Rusty's Bootleggers wipe out at 8 instead (Dutch Courage, p.102)."""

_FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
_NAME = re.compile(r"dashboard-\d+\.svg")
_SIGNATURE = "<title>Gaslands dashboard"
_RANGE_WORDS = {"short": "Short", "medium": "Medium", "long": "Long", "double": "Double",
                "small_burst": "Small Burst", "large_burst": "Large Burst", "dropped": "Dropped"}


def _n(v: float) -> str:
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _chars(size_mm: float, width_mm: float, bold: bool = False) -> int:
    """About how many characters fit in ``width_mm`` at ``size_mm`` (average glyph 0.56 em, bold 0.64)."""
    return max(1, int(width_mm / ((0.64 if bold else 0.56) * size_mm)))


def _fit(text: str, size_mm: float, width_mm: float, bold: bool = False) -> str:
    """``text`` cut (with an ellipsis) to about ``width_mm`` at ``size_mm``."""
    most = _chars(size_mm, width_mm, bold)
    return text if len(text) <= most else text[: most - 1].rstrip() + "…"


def _wrap(text: str, size_mm: float, width_mm: float, lines: int = 2) -> list[str]:
    """``text`` broken at spaces into at most ``lines`` lines of ``width_mm`` (the last cut with an ellipsis)."""
    most = _chars(size_mm, width_mm)
    out: list[str] = []
    words = text.split()
    while words and len(out) < lines:
        line = words.pop(0)
        while words and len(line) + 1 + len(words[0]) <= most:
            line += " " + words.pop(0)
        out.append(line)
    if words:
        out[-1] = _fit(out[-1] + " " + " ".join(words), size_mm, width_mm)
    return out or [""]


def _text(x: float, y: float, text: str, size: float, *, anchor: str = "start", bold: bool = False,
          fill: str = "#000", width: float | None = None) -> str:
    shown = _fit(text, size, width, bold) if width is not None else text
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" text-anchor="{anchor}"{weight} '
            f'fill="{fill}">{escape(shown)}</text>')


def _box(x: float, y: float, *, label: str = "", crossed: bool = False, shade: bool = False,
         cls: str = "box") -> list[str]:
    fill = "#ddd" if shade else "#fff"
    out = [f'<rect class="{cls}" x="{_n(x)}" y="{_n(y)}" width="{_n(BOX_MM)}" height="{_n(BOX_MM)}" '
           f'fill="{fill}" stroke="#000" stroke-width="0.3"/>']
    if crossed:
        out.append(f'<path d="M {_n(x)} {_n(y)} L {_n(x + BOX_MM)} {_n(y + BOX_MM)} M {_n(x + BOX_MM)} {_n(y)} '
                   f'L {_n(x)} {_n(y + BOX_MM)}" stroke="#888" stroke-width="0.3"/>')
    if label:
        out.append(_text(x + BOX_MM / 2, y + BOX_MM * 0.72, label, 3.0, anchor="middle"))
    return out


def _ruler(x0: float, y0: float) -> list[str]:
    ticks = " ".join(f"M {_n(x0 + mm)} {_n(y0)} L {_n(x0 + mm)} {_n(y0 - (3.0 if mm % 10 == 0 else 1.5))}"
                     for mm in range(int(RULER_MM) + 1))
    return ['<g class="ruler">',
            f'<path fill="none" stroke="#000" stroke-width="0.2" d="M {_n(x0)} {_n(y0)} '
            f'L {_n(x0 + RULER_MM)} {_n(y0)} {ticks}"/>',
            _text(x0 + RULER_MM + 2, y0, f"{_n(RULER_MM)} mm: print at 100% / actual size", 2.2),
            "</g>"]


def _wipeout_at(team: Team) -> int:
    sponsor = team.sponsor_row
    return DUTCH_COURAGE_WIPEOUT if sponsor is not None and sponsor.has_perk("dutch_courage") else WIPEOUT_AT


def dashboard_svg(team: Team, index: int) -> str:
    """The SVG text of vehicle ``index``'s dashboard card (see the module docstring)."""
    vehicle = team.vehicles[index]
    label = vehicle_labels(team)[index]
    sponsor = team.sponsor_row
    stats = statistics(vehicle)
    t = vehicle.vehicle_type
    inner = CARD_W_MM - 2 * MARGIN_MM
    x0 = MARGIN_MM
    body: list[str] = []
    y = MARGIN_MM + 6.0
    body.append(_text(x0, y, label, 6.0, bold=True, width=inner - 40))
    body.append(_text(CARD_W_MM - MARGIN_MM, y, f"{vehicle_cost(vehicle, sponsor)} Cans", 5.0, anchor="end",
                      bold=True))
    y += 5.0
    team_words = f"{team.name} · {sponsor.name} (p.{sponsor.page})" if sponsor else f"{team.name} · no sponsor"
    body.append(_text(x0, y, f"{t.name} · {t.weight_name.capitalize()} (p.{t.page}) · {team_words}", 3.0,
                      width=inner))
    y += 4.0
    body.append(f'<path d="M {_n(x0)} {_n(y)} L {_n(CARD_W_MM - MARGIN_MM)} {_n(y)}" stroke="#000" '
                f'stroke-width="0.4"/>')
    y += 6.0
    for k, (word, value) in enumerate((("Handling", stats.handling), ("Max Gear", stats.max_gear),
                                       ("Crew", stats.crew), ("Hull", stats.hull))):
        x = x0 + k * 30.0
        body.append(_text(x, y, word, 3.0, fill="#444"))
        body.append(_text(x + 17.0, y + 0.5, str(value), 5.5, bold=True))
    y += 5.0
    body.append(_text(x0, y + 3.8, "Gear", 3.2, bold=True))
    body.append('<g class="gear-track">')
    for gear in range(1, MAX_GEAR + 1):
        body += _box(x0 + 22.0 + (gear - 1) * (BOX_MM + 1.0), y, label=str(gear), crossed=gear > stats.max_gear)
    body.append("</g>")
    wipeout = _wipeout_at(team)
    hx = x0 + 22.0 + MAX_GEAR * (BOX_MM + 1.0) + 12.0
    body.append(_text(hx, y + 3.8, "Hazard", 3.2, bold=True))
    body.append('<g class="hazard-track">')
    for k in range(1, wipeout + 1):
        body += _box(hx + 14.0 + (k - 1) * (BOX_MM + 1.0), y, label=str(k), shade=k == wipeout)
    body.append("</g>")
    pages = "p.34" if wipeout == WIPEOUT_AT else "p.34, p.102"
    body.append(_text(hx + 14.0 + wipeout * (BOX_MM + 1.0), y + 3.8, f"Wipeout ({pages})", 2.4, fill="#444"))
    y += BOX_MM + 3.0
    body.append(_text(x0, y + 3.8, "Hull", 3.2, bold=True))
    per_row = int((inner - 22.0) // (BOX_MM + 1.0))
    body.append('<g class="hull">')
    for k in range(stats.hull):
        row, col = divmod(k, per_row)
        body += _box(x0 + 22.0 + col * (BOX_MM + 1.0), y + row * (BOX_MM + 1.0), cls="hull-box")
    body.append("</g>")
    y += ((stats.hull - 1) // per_row + 1) * (BOX_MM + 1.0) + 4.0
    y = _weapons(body, vehicle, sponsor, x0, y, inner)
    y = _notes(body, vehicle, stats.rules, sponsor, x0, y, inner)
    y += 4.0
    body += _ruler(x0, y + 3.0)
    height = y + 3.0 + MARGIN_MM
    problems = check(team).problems_of(label)
    head = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(CARD_W_MM)}mm" height="{_n(height)}mm" '
        f'viewBox="0 0 {_n(CARD_W_MM)} {_n(height)}" font-family="{_FONT}">',
        f"<title>{escape(f'Gaslands dashboard: {label} ({t.name}), {team.name} (1:1)')}</title>",
        f'<rect class="cut" x="0.25" y="0.25" width="{_n(CARD_W_MM - 0.5)}" height="{_n(height - 0.5)}" '
        'fill="#fff" stroke="#000" stroke-width="0.5"/>',
    ]
    if problems:
        head.append(_text(CARD_W_MM - MARGIN_MM, height - MARGIN_MM + 3.0,
                          f"not legal: {problems[0].rule} ({problems[0].page})", 2.2, anchor="end", fill="#b00",
                          width=inner - RULER_MM - 45.0))
    return "\n".join([*head, *body, "</svg>"]) + "\n"


def _weapons(body: list[str], vehicle: TeamVehicle, sponsor: Sponsor | None, x0: float, y: float,
             inner: float) -> float:
    weapons = load_weapons()
    columns = ((0.0, "Weapon"), (46.0, "Facing"), (70.0, "Range"), (90.0, "Attack"), (104.0, "Ammo"),
               (128.0, "Special rules"))
    for dx, word in columns:
        body.append(_text(x0 + dx, y, word, 3.0, bold=True))
    y += 1.5
    body.append(f'<path d="M {_n(x0)} {_n(y)} L {_n(x0 + inner)} {_n(y)}" stroke="#000" stroke-width="0.25"/>')
    rows = [*vehicle.weapons]
    body.append('<g class="weapons">')
    for fitting in rows:
        w = weapons[fitting.key]
        y += 5.5
        facing: str = fitting.facing or ("360°" if not w.facings else "-")
        if fitting.mount:
            facing += f" ({fitting.mount})"
        dice = (f"{w.attack_dice}D6" if w.attack_dice else "-") if w.dice_by_range is None else "3/2/1D6"
        if not w.damaging and w.attack_dice:
            dice = f"({dice})"
        body.append(_text(x0, y, f"{w.name} (p.{w.page})", 3.0, width=45.0))
        body.append(_text(x0 + 46.0, y, facing, 3.0, width=23.0))
        body.append(_text(x0 + 70.0, y, _RANGE_WORDS[w.range], 3.0, width=19.0))
        body.append(_text(x0 + 90.0, y, dice, 3.0))
        ammo = starting_ammo(w, sponsor)
        if ammo:
            side = BOX_MM * 0.7
            for k in range(min(ammo, 5)):
                body.append(f'<rect class="ammo-box" x="{_n(x0 + 104.0 + k * (side + 0.8))}" y="{_n(y - 3.0)}" '
                            f'width="{_n(side)}" height="{_n(side)}" fill="#fff" stroke="#000" stroke-width="0.3"/>')
            if ammo > 5:
                body.append(_text(x0 + 104.0 + 5 * (BOX_MM * 0.7 + 0.8), y, f"+{ammo - 5}", 2.6))
        else:
            body.append(_text(x0 + 104.0, y, "-", 3.0))
        special = ", ".join(r for r in w.special_rules if r != "See special rules") or "-"
        body.append(_text(x0 + 128.0, y, special, 2.6, width=inner - 128.0))
    if not rows:
        y += 5.5
        body.append(_text(x0, y, "Handguns only (every vehicle has them, p.31)", 3.0, fill="#444"))
    body.append("</g>")
    return y + 6.0


def _notes(body: list[str], vehicle: TeamVehicle, rules: frozenset[str], sponsor: Sponsor | None, x0: float,
           y: float, inner: float) -> float:
    upgrades, perks, classes = load_upgrades(), load_perks(), load_perk_classes()
    lines: list[tuple[str, str]] = []
    for fitting in vehicle.upgrades:
        u = upgrades[fitting.key]
        where = f" ({fitting.facing})" if fitting.facing else ""
        lines.append((f"{u.name}{where} (p.{u.page})", u.summary))
    for key in vehicle.perks:
        p = perks[key]
        lines.append((f"{p.name} ({classes[p.perk_class].name}, p.{p.page})", p.summary))
    if rules:
        lines.append(("Special rules", ", ".join(sorted(rules))))
    if sponsor is not None:
        lines.append((f"Sponsored by {sponsor.name}", ""))
        lines += [(f"{sp.name} (p.{sp.page})", sp.summary) for sp in sponsor.perks]
    body.append('<g class="notes">')
    body.append(_text(x0, y, "Upgrades, perks and special rules", 3.0, bold=True))
    if not lines:
        lines.append(("none", ""))
    for name, summary in lines:
        y += 4.4
        heading = not summary and name.startswith("Sponsored by")
        body.append(_text(x0, y + (1.0 if heading else 0.0), name, 2.8 if not heading else 3.0, bold=True,
                          width=inner if heading else 58.0))
        y += 1.0 if heading else 0.0
        for k, line in enumerate(_wrap(summary, 2.6, inner - 60.0) if summary else []):
            y += 3.4 if k else 0.0
            body.append(_text(x0 + 60.0, y, line, 2.6))
    body.append("</g>")
    return y + 2.0


def render_dashboards(team: Team) -> list[str]:
    """The SVG text of every vehicle's dashboard, in the team's order."""
    return [dashboard_svg(team, i) for i in range(len(team.vehicles))]


def export_dashboards(team: Team, out_dir: Path) -> list[Path]:
    """Write each vehicle's dashboard as ``dashboard-01.svg``, ``dashboard-02.svg``... in ``out_dir``.

    ``out_dir`` is created if missing (its parent must exist); files are
    written atomically; only files this command wrote are touched (an
    earlier export's extra cards are removed, a folder holding anything else
    is refused with :class:`~simulator.errors.InputFileError` naming ``-o``).
    Returns the written paths; ``OSError`` when writing fails.
    """
    texts = render_dashboards(team)
    folder = ExportFolder(out_dir, "dashboards", _NAME, _SIGNATURE)
    folder.prepare()
    paths = []
    for k, text in enumerate(texts, start=1):
        path = folder.folder / f"dashboard-{k:02d}.svg"
        write_text_atomic(path, text)
        paths.append(path)
    folder.finish(paths)
    return paths


__all__ = ["CARD_W_MM", "dashboard_svg", "export_dashboards", "render_dashboards"]
