"""What the window draws for the table (issue 20 items 3-5): the question box (a die to type, the
DM's hand), the chance to hit under the cursor, and what a click will do (the weapon or spell
chosen, an area spell aimed), each in its own function so the HUD's own layout stays its own."""

from __future__ import annotations

import pygame

from sim.maps import palette
from sim.render.hud import panel_box


def overlay(scene, surf, view: pygame.Rect) -> None:
    """Everything of the table over the map, drawn after the cards."""
    if scene.mode != "play":
        return
    ready_line(scene, surf, view)
    lines = getattr(scene, "hit_lines", None)
    if lines and scene.prompt is None:
        hit_preview(scene, surf, view, lines)
    if scene.prompt is not None:
        prompt_box(scene, surf, view, scene.prompt)


def prompt_box(scene, surf, view: pygame.Rect, prompt) -> None:
    """The question, what is typed so far (with a caret), the refusal if any, and the keys."""
    t = scene.text
    title = t.render(prompt.title, 24, palette.UI_ACCENT)
    typed = t.render((prompt.text or "") + "_", 30, (255, 255, 255))
    inner = min(max(360, title.get_width()), view.w - 60)
    hint_lines = t.wrap(prompt.hint, 16, inner)
    error_lines = t.wrap(prompt.error, 18, inner) if prompt.error else []
    w = max(title.get_width(), 360, *(t.size(h, 16)[0] for h in hint_lines),
            *(t.size(e, 18)[0] for e in error_lines)) + 40
    h = 24 + title.get_height() + (typed.get_height() + 8 if not prompt.instant else 0) + 20 * len(hint_lines) \
        + 24 * len(error_lines)
    box = pygame.Rect(0, 0, min(w, view.w - 20), h)
    box.center = (view.centerx, view.y + view.h // 3)
    panel_box(surf, box, fill=(30, 32, 44), edge=palette.UI_ACCENT, radius=10, alpha=240)
    y = box.y + 12
    surf.blit(title, (box.x + 20, y))
    y += title.get_height() + 6
    if not prompt.instant:
        field = pygame.Rect(box.x + 20, y, 140, typed.get_height() + 2)
        pygame.draw.rect(surf, (12, 12, 18), field, border_radius=5)
        pygame.draw.rect(surf, palette.UI_EDGE, field, 1, border_radius=5)
        surf.blit(typed, (field.x + 8, field.y + 1))
        y += typed.get_height() + 10
    for line in error_lines:
        s = t.render(line, 18, palette.UI_BAD)
        surf.blit(s, (box.x + 20, y))
        y += 24
    for line in hint_lines:
        s = t.render(line, 16, palette.UI_DIM)
        surf.blit(s, (box.x + 20, y))
        y += 20


def hit_preview(scene, surf, view: pygame.Rect, lines: list[str]) -> None:
    """The chance to hit the hovered enemy with the chosen weapon, the expected damage and the
    modifiers, in a box beside the cursor's square."""
    t = scene.text
    rendered = [t.render(line, 18 if i == 0 else 16, palette.UI_TEXT if i == 0 else palette.UI_DIM)
                for i, line in enumerate(lines)]
    w = max(s.get_width() for s in rendered) + 20
    h = sum(s.get_height() + 2 for s in rendered) + 14
    sq = scene.hover
    if sq is None:
        return
    sx, sy = scene.camera.to_screen(sq[0] + 1.2, sq[1])
    box = pygame.Rect(int(sx), int(sy), w, h)
    if box.right > view.right - 4:
        x0, _ = scene.camera.to_screen(sq[0] - 0.2, sq[1])
        box.right = int(x0)
    box.clamp_ip(view.inflate(-8, -8))
    panel_box(surf, box, fill=(24, 26, 34), edge=palette.UI_EDGE, radius=7, alpha=235)
    y = box.y + 7
    for s in rendered:
        surf.blit(s, (box.x + 10, y))
        y += s.get_height() + 2


def ready_line(scene, surf, view: pygame.Rect) -> None:
    """What a click does now, at the top of the map, until it changes: the weapon or the spell
    chosen (an area spell aimed: click again or Enter to cast, Esc to cancel), a DM's move."""
    text = getattr(scene, "ready_text", "")
    if not text:
        return
    s = scene.text.render(text, 18, palette.UI_TEXT)
    box = pygame.Rect(0, 0, s.get_width() + 24, s.get_height() + 10)
    box.midtop = (view.centerx, view.y + 8)
    panel_box(surf, box, fill=(36, 34, 24), edge=palette.UI_ACCENT if scene.aim else palette.UI_EDGE, radius=7,
              alpha=225)
    surf.blit(s, (box.x + 12, box.y + 5))
