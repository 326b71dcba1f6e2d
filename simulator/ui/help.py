"""The help overlay: every control of the window, in one list (H or F1)."""

from __future__ import annotations

import pygame

from simulator.ui import draw

CONTROLS: tuple[tuple[str, str], ...] = (
    ("Left click a car", "select it (its dashboard lights up on the right)"),
    ("Drag a template from the tray", "drop it on a car: it snaps to the front edge"),
    ("1 .. 9", "put that template on the selected car"),
    ("Tab / M / right click", "mirror the template left <-> right"),
    ("V", "Reverse (Gear 1 only): the template goes on the rear edge"),
    ("S", "Slide: off / left / right (straights), off / on (turns)"),
    ("[  ]  or the slider", "Spin -15 / +15 degrees (0 resets), -90 .. 90"),
    ("Enter", "confirm: the car drives to its Final Position"),
    ("Esc", "cancel the template, a drag, or close this help"),
    ("Ctrl+Z", "undo the last move, gear change or hand placement"),
    ("+ / -", "gear up / down for the selected car"),
    ("T, or hold Shift", "Hand tool: left-drag a piece to move it by hand"),
    ("Q / E or wheel while dragging", "rotate the piece in your hand"),
    ("Wheel", "zoom about the cursor"),
    ("Right drag / arrow keys", "pan; Home fits the table"),
    ("R", "rulings mode: move anything, ask where a move ends or what a gun sees"),
    ("X (rulings)", "switch question: move / shoot"),
    ("A / D / I (rulings)", "shoot: cycle arc / cycle range / indirect"),
    ("Ctrl+S / Ctrl+O (rulings)", "save / load the rulings file (or drop a .toml on the window)"),
    ("Click a glowing car (game)", "activate it in its Gear Phase (or drag a template straight onto it)"),
    ("Panel buttons and dice (game)", "answer the prompt: roll, Push It, click a die to cancel it with a Shift, react, shoot"),
    ("Enter (game)", "choose the template, or press the panel's main button (Roll, Done, Fire...)"),
    ("Ctrl+Z (game)", "take back the last decision (instant: a step back in the game's history)"),
    ("Ctrl+S / Ctrl+O (game)", "save / load the game (gaslands_game.json; autosaved after every decision)"),
    ("F2", "switch between the game and a free table"),
    ("F5 .. F8", "a bot takes or gives back player 1 .. 4's seat; Space pauses the bots"),
    ("Wheel over the log", "scroll back through the game log"),
    ("H / F1", "show or hide this help"),
)
"""(keys, what they do), in the order shown."""


def draw_help(surface: pygame.Surface) -> None:
    """A dark translucent card in the middle of the window listing :data:`CONTROLS`."""
    w, h = surface.get_size()
    card = pygame.Rect(0, 0, min(980, w - 40), min(40 + 28 * len(CONTROLS) + 50, h - 40))
    card.center = (w // 2, h // 2)
    shade = pygame.Surface(card.size, pygame.SRCALPHA)
    shade.fill((12, 13, 16, 235))
    surface.blit(shade, card.topleft)
    pygame.draw.rect(surface, draw.SELECT, card, 2, border_radius=8)
    draw.text(surface, "Controls", (card.left + 20, card.top + 14), 30, draw.SELECT)
    draw.text(surface, "H, F1 or Esc closes this", (card.right - 20, card.top + 18), 18, draw.TEXT_DIM,
              "topright")
    y = card.top + 52
    row = max(18, min(28, (card.height - 60) // len(CONTROLS)))
    size = 20 if row >= 24 else 18
    for keys, what in CONTROLS:
        draw.text(surface, keys, (card.left + 24, y), size, draw.SELECT)
        draw.text(surface, what, (card.left + 300, y), size, draw.TEXT)
        y += row
