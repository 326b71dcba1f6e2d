"""The help overlay (H or F1): the controls of the mode on screen, then the window's own.

Each mode lists its controls (:meth:`simulator.ui.modes.Mode.help_lines`);
:data:`CONTROLS` gathers every mode's, for the README's controls table.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from simulator.ui import draw

SHELL_HELP: tuple[tuple[str, str], ...] = (
    ("H / F1", "show or hide this help"),
    ("File (top bar)", "New game, Open, Save, Save as, recent files, settings (UI scale, sound, colours), Quit"),
    ("Ctrl+N / Ctrl+Q", "a new game (asks first if anything is unsaved) / quit"),
    ("Ctrl+T", "the team builder: sponsor, vehicles, weapons, upgrades, perks, Cans (File menu too)"),
    ("Ctrl+Shift+S", "save as: choose the file (in your data folder by default)"),
    ("Ctrl+L", "legend: what each colour, ring, badge and mark on the table means"),
    ("Ctrl+B", "colour-blind-safe team colours (Okabe-Ito) on / off (kept in the settings)"),
    ("Ctrl+M", "sound off / on (engine, skids, crashes, gunfire, dice; kept in the settings)"),
    ("F4", "the track editor on this scenario's file (F4 again goes back)"),
)
"""The window's own controls, under every mode's."""

SCREEN_HELP: tuple[tuple[str, str], ...] = (
    ("click a list row", "choose it: a vehicle to show, an item to remove, something to buy"),
    ("Buy ... / Remove ...", "buy for the team or the vehicle shown; a refusal names the rule and its page"),
    ("Enter, or a double click on the row", "buy the item chosen in the list (team builder)"),
    ("Ctrl+Z", "undo the last change of the team"),
    ("Ctrl+O / Ctrl+S", "open a team file / save the team (in your data folder's teams folder)"),
    ("Esc", "back to the window underneath (the team is kept)"),
)
"""The controls of the team builder and the New game screen."""

ROW_PX = 26
DIM_ALPHA = 170
"""How dark the window behind the help card goes (0-255)."""
KEYS_PX = 330


def sections() -> tuple[tuple[str, Sequence[tuple[str, str]]], ...]:
    """Every mode's controls with the mode's name, then the window's."""
    from simulator.ui import table_tools
    from simulator.ui.modes import editor, free_table, game, replay, rulings

    return (("Free table", free_table.HELP), ("Rulings mode", rulings.OWN_HELP), ("Game", game.HELP),
            ("Tape measure and line of fire (in a game)", table_tools.HELP),
            ("Replay viewer", replay.HELP), ("Track editor", editor.HELP), ("Team builder", SCREEN_HELP),
            ("Everywhere", SHELL_HELP))


def controls() -> tuple[tuple[str, str], ...]:
    """Every control of the window once: (keys, what they do)."""
    seen: dict[tuple[str, str], None] = {}
    for _, rows in sections():
        for row in rows:
            seen.setdefault(row, None)
    return tuple(seen)


def draw_help(surface: pygame.Surface, title: str, lines: Sequence[tuple[str, str]]) -> None:
    """A dark translucent card in the middle of the window listing ``lines`` for the mode ``title``; the rest of the
    window is dimmed, so no button beside the card looks as if it were over it (a click anywhere closes it)."""
    w, h = surface.get_size()
    dim = pygame.Surface((w, h), pygame.SRCALPHA)
    dim.fill((0, 0, 0, DIM_ALPHA))
    surface.blit(dim, (0, 0))
    card = pygame.Rect(0, 0, min(1040, w - 40), min(60 + ROW_PX * len(lines) + 20, h - 40))
    card.center = (w // 2, h // 2)
    shade = pygame.Surface(card.size, pygame.SRCALPHA)
    shade.fill((12, 13, 16, 248))
    surface.blit(shade, card.topleft)
    pygame.draw.rect(surface, draw.SELECT, card, 2, border_radius=8)
    draw.text(surface, f"Controls: {title.lower()}", (card.left + 20, card.top + 14), 30, draw.SELECT)
    draw.text(surface, "H, F1 or Esc closes this", (card.right - 20, card.top + 18), 18, draw.TEXT_DIM, "topright")
    y = card.top + 52
    row = max(16, min(ROW_PX, (card.height - 60) // max(len(lines), 1)))
    size = 19 if row >= 22 else 16
    for keys, what in lines:
        draw.text(surface, keys, (card.left + 24, y), size, draw.SELECT)
        draw.text(surface, what, (card.left + KEYS_PX, y), size, draw.TEXT)
        y += row
