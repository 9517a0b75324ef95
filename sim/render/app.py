"""The window: input, the fixed-step loop, and the choice between a window and headless export.

The loop follows STYLE habit 11: real time is accumulated and consumed in fixed steps of 1/60 s
(``driver.pump()`` then ``scene.update(step)``); the frame is drawn interpolated between the last
two steps. Keys and mouse (the README lists them):

* all views: Space pause (play: let the AI play this turn; Pause or . pauses), P auto-play, +/- speed, 1-9 the
  category overlay for Fine..Colossal, C for the selected creature, 0 off, R reach this turn,
  T travel-time contours, V light and fog view (everything, the party's, the monsters'), L legend, H interface, F fit the map, Tab next creature, drag to pan,
  wheel to zoom (over the log: scroll), Esc quit;
* watch and replay: → or ] step a turn forward, ← or [ a turn back, Home restart;
* play: click a creature to select it, click a square to move there (the path, each step's cost
  and the total show under the cursor; Alt-click a 5-ft step, Shift-click withdraw, Ctrl-Shift-click
  run), click an enemy
  to attack with the chosen weapon (Shift full attack, with Rapid Shot if it has it; Ctrl charge; Ctrl-Shift Manyshot), W choose the weapon, X choose
  a spell (then click its target, point or direction; the area shows under the cursor; Ctrl-click
  casts defensively), D drop prone / stand up, I light a torch, O load a crossbow or sling (or
  prepare the fuse of the oil flask chosen with W), E end the turn.
"""

from __future__ import annotations

import os
import sys

STEP = 1.0 / 60.0
SPEEDS = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0)


def has_display() -> bool:
    """Whether a window can be opened: not with the dummy/offscreen driver, and on Linux/BSD only
    with an X11 or Wayland display (macOS and Windows always have one)."""
    drv = os.environ.get("SDL_VIDEODRIVER", "").lower()
    if drv in ("dummy", "offscreen"):
        return False
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def no_display_reason() -> str:
    """Why :func:`has_display` says no, in words for a message."""
    drv = os.environ.get("SDL_VIDEODRIVER", "").lower()
    if drv in ("dummy", "offscreen"):
        return f"SDL_VIDEODRIVER={drv} draws no window"
    return "DISPLAY/WAYLAND_DISPLAY unset"


def test_driver() -> bool:
    """SDL's dummy (or offscreen) video driver is selected: a window that draws nowhere, for
    tests and benchmarks run with a frame limit."""
    return os.environ.get("SDL_VIDEODRIVER", "").lower() in ("dummy", "offscreen")


def open_window(size, title: str):
    """Open a resizable window, or return None when SDL cannot (no usable display)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    try:
        pygame.display.init()
        pygame.font.init()
        screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    except pygame.error:
        return None
    pygame.display.set_caption(title)
    from sim.render.assets import icon_surface

    try:
        pygame.display.set_icon(icon_surface())
    except pygame.error:
        pass
    return screen


class App:
    """Runs a scene and its driver (a :class:`~sim.render.session.Timeline` or a
    :class:`~sim.view.play.PlayController`) in a window. ``max_frames`` and ``fixed``
    (one step per frame, no wall clock) are for tests on the dummy driver."""

    def __init__(self, scene, driver, screen, *, max_frames: int | None = None, fixed: bool = False, fps: int = 60):
        self.scene = scene
        self.driver = driver
        self.screen = screen
        self.max_frames = max_frames
        self.fixed = fixed
        self.fps = fps
        self.running = True
        self._drag = None
        self._mouse = None               # where the mouse was last seen over the window
        scene.resume_speed = scene.director.speed or 1.0
        self.frames = 0

    # -- the loop ------------------------------------------------------------------------------------------------
    def run(self) -> int:
        import pygame

        clock = pygame.time.Clock()
        acc = 0.0
        while self.running:
            for event in pygame.event.get():
                self.handle(event)
            if self.fixed:
                acc = STEP
            else:
                acc += min(0.25, clock.tick(self.fps) / 1000.0)
            while acc >= STEP:
                self.driver.pump()
                self.scene.update(STEP)
                acc -= STEP
            self.scene.draw(self.screen, min(1.0, acc / STEP))
            pygame.display.flip()
            self.frames += 1
            if self.max_frames is not None and self.frames >= self.max_frames:
                break
        return 0

    # -- input ---------------------------------------------------------------------------------------------------------
    def handle(self, event) -> None:
        import pygame

        sc = self.scene
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.VIDEORESIZE:
            self.screen = pygame.display.get_surface()
            sc.resize(self.screen.get_size())
        elif event.type == pygame.KEYDOWN:
            self.key(event.key, event.mod, getattr(event, "unicode", ""))
        elif event.type == pygame.MOUSEWHEEL:
            mx, my = pygame.mouse.get_pos()
            if sc.r_panel.collidepoint(mx, my):
                sc.hudder.log_scroll = max(0, sc.hudder.log_scroll + event.y * 3)
            else:
                sc.auto_camera = False
                sc.camera.zoom_at(1 if event.y > 0 else -1, mx, my)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 2, 3):
            self._drag = (event.pos, event.pos, event.button, False)
        elif event.type == pygame.MOUSEMOTION:
            if self._drag is not None:
                start, last, button, moved = self._drag
                dx, dy = event.pos[0] - last[0], event.pos[1] - last[1]
                moved = moved or abs(event.pos[0] - start[0]) + abs(event.pos[1] - start[1]) > 5
                if moved:
                    sc.auto_camera = False
                    sc.camera.pan_pixels(dx, dy)
                self._drag = (start, event.pos, button, moved)
            self.hover(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button in (1, 2, 3):
            drag, self._drag = self._drag, None
            if drag is not None and not drag[3]:
                self.click(event.pos, event.button, pygame.key.get_mods())

    def key(self, key: int, mod: int, char: str = "") -> None:
        import pygame

        sc = self.scene
        d = sc.director
        play = sc.mode == "play"
        if play and sc.prompt is not None:   # a question over the map takes every key
            self._prompt_key(key, char)
            return
        if play and key == pygame.K_ESCAPE and (self.driver.table.cancel_prompt() or self._cancel_aim()):
            return
        if play and key in (pygame.K_RETURN, pygame.K_KP_ENTER) and sc.aim is not None:
            self.driver.confirm_aim()
            return
        if play and key == pygame.K_d and mod & pygame.KMOD_SHIFT:
            self.driver.table.toggle_dice(side=bool(mod & pygame.KMOD_CTRL))
            return
        if play and mod & pygame.KMOD_CTRL and key in (pygame.K_z, pygame.K_y, pygame.K_s, pygame.K_o):
            {pygame.K_z: self.driver.undo, pygame.K_y: self.driver.redo,
             pygame.K_s: self.driver.save_game, pygame.K_o: self.driver.load_game}[key]()
            self._refresh_hover()
            return
        if key in (pygame.K_ESCAPE, pygame.K_q):
            self.running = False
        elif key == pygame.K_SPACE and play:
            sc.paused = not sc.paused
            sc.toast("paused: the turns nobody plays wait (Space goes on)" if sc.paused else "going on", 1.4)
        elif key == pygame.K_PERIOD and play:
            self.driver.request_step()
        elif key == pygame.K_g and play:
            self.driver.table.dm_menu()
        elif key == pygame.K_LEFT and play and self.driver.enc.finished:
            self.driver.undo()
        elif key == pygame.K_HOME and play and self.driver.enc.finished:
            self.driver.back_to_start()
        elif key in (pygame.K_SPACE, pygame.K_PAUSE, pygame.K_PERIOD):
            if d.speed == 0:
                d.speed = self.scene.resume_speed
            else:
                self.scene.resume_speed = d.speed
                d.speed = 0.0
        elif key == pygame.K_p:
            sc.autoplay = not sc.autoplay
            if d.speed == 0:
                d.speed = self.scene.resume_speed
            sc.toast("auto-play on" if sc.autoplay else "auto-play off", 1.2)
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS) or char == "+":
            self._speed(+1)
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS, pygame.K_UNDERSCORE) or char == "-":
            self._speed(-1)
        elif key in (pygame.K_RIGHT, pygame.K_RIGHTBRACKET) and not play:
            self.driver.step_forward()
        elif key in (pygame.K_LEFT, pygame.K_LEFTBRACKET) and not play:
            self.driver.step_back()
        elif key == pygame.K_HOME and not play:
            self.driver.restart(upto=self.driver.bounds[0])
        elif pygame.K_1 <= key <= pygame.K_9:
            i = key - pygame.K_1
            sc.overlays["size"] = None if sc.overlays.get("size") == i else i
            sc.overlays["creature"] = False
        elif key == pygame.K_0:
            sc.overlays.update(size=None, creature=False, reach=False, contours=False)
        elif key == pygame.K_c:
            sc.overlays["creature"] = not sc.overlays.get("creature")
            sc.overlays["size"] = None
        elif key == pygame.K_r:
            sc.overlays["reach"] = not sc.overlays.get("reach")
        elif key == pygame.K_t:
            sc.overlays["contours"] = not sc.overlays.get("contours")
        elif key == pygame.K_v and sc.lighting is not None:
            sc.toast(f"view: {sc.lighting.cycle_view()}")
        elif key == pygame.K_l:
            sc.show_legend = not sc.show_legend
        elif key == pygame.K_h:
            sc.show_hud = not sc.show_hud
            sc.resize(sc.size)
        elif key == pygame.K_f:
            sc.fit()
            sc.auto_camera = sc.mode != "play" and not sc.auto_camera
        elif key == pygame.K_TAB:
            ids = [cid for cid in sc.model.order if sc.model.creatures[cid].alive]
            if ids:
                cur = sc.selected_id()
                sc.selected = ids[(ids.index(cur) + 1) % len(ids)] if cur in ids else ids[0]
        elif play and key == pygame.K_w:
            self.driver.cycle_weapon()
        elif play and key == pygame.K_e:
            self.driver.end_turn()
        elif play and key == pygame.K_x:
            self.driver.cycle_spell()
            self._refresh_hover()
        elif play and key == pygame.K_d:
            self.driver.toggle_prone()
        elif play and key == pygame.K_i:
            self.driver.light_torch()
        elif play and key == pygame.K_o:
            self.driver.load()
        elif play and key == pygame.K_a:
            self.driver.remove_armor()
        elif play and key == pygame.K_m:
            self.driver.cycle_maneuver()
        elif play and key == pygame.K_b:
            self.driver.break_free(artist=bool(mod & pygame.KMOD_SHIFT))

    def _prompt_key(self, key: int, char: str) -> None:
        """A key for the question over the map: typed, Enter gives it, Backspace, Esc cancels."""
        import pygame

        p = self.scene.prompt
        if key == pygame.K_ESCAPE:
            self.driver.table.cancel_prompt()
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            p.key("", enter=True)
        elif key == pygame.K_BACKSPACE:
            p.key("", backspace=True)
        elif char:
            p.key(char)
        elif pygame.K_KP0 <= key <= pygame.K_KP9:
            p.key(str(key - pygame.K_KP0))

    def _cancel_aim(self) -> bool:
        sc = self.scene
        if sc.aim is None:
            return False
        sc.aim = None
        sc.area_preview = []
        sc.toast("aim cancelled", 1.0)
        return True

    def _speed(self, direction: int) -> None:
        d = self.scene.director
        cur = d.speed or self.scene.resume_speed
        i = min(range(len(SPEEDS)), key=lambda j: abs(SPEEDS[j] - cur))
        new = SPEEDS[max(0, min(len(SPEEDS) - 1, i + direction))]
        if d.speed == 0:
            self.scene.resume_speed = new
        else:
            d.speed = new
        self.scene.toast(f"speed {new:g}x", 1.0)

    def hover(self, pos) -> None:
        sc = self.scene
        if not sc.r_view.collidepoint(pos):
            sc.hover = None
            sc.preview = None
            sc.hit_lines = []
            return
        sq = sc.camera.square_at(*pos)
        self._mouse = pos
        if sc.mode == "play" and sc.spell_choice:
            sc.hit_lines = []
            if sc.aim is not None:   # aimed: the area stays where it was put until cast or cancelled
                return
            # the area follows the cursor (sleep's intersection moves within a square)
            sc.hover = sq
            sc.preview = None
            sc.area_preview = (self.driver.spell_area(sq, point=self._point(pos))
                               if sc.awaiting_input and sc.grid.in_bounds(sq) else [])
            return
        sc.area_preview = []
        if sq == sc.hover:
            return
        sc.hover = sq
        sc.preview = None
        if sc.mode == "play" and sc.awaiting_input:
            c = self.driver.current()
            if c is not None and sc.grid.in_bounds(sq) and not sc.model.at(sq):
                sc.preview = sc.world.path_preview(c.id, sq)
            self.driver.hover_enemy(sq)

    def _point(self, pos) -> tuple[float, float]:
        """Where in the map a screen pixel falls, in squares (fractional)."""
        x, y = self.scene.camera.to_world(*pos)
        return (float(x), float(y))

    def _refresh_hover(self) -> None:
        if self._mouse is not None:
            self.scene.hover = None
            self.hover(self._mouse)

    def click(self, pos, button: int, mods: int) -> None:
        import pygame

        sc = self.scene
        if not sc.r_view.collidepoint(pos) or (sc.mode == "play" and sc.prompt is not None):
            return
        sq = sc.camera.square_at(*pos)
        if button == 3:
            sc.selected = None
            return
        if button != 1:
            return
        if sc.mode == "play":
            self.driver.click_square(sq, shift=bool(mods & pygame.KMOD_SHIFT), ctrl=bool(mods & pygame.KMOD_CTRL),
                                     alt=bool(mods & pygame.KMOD_ALT), point=self._point(pos))
            sc.hover = None
            self.hover(pos)
        else:
            here = [cv for cv in sc.model.at(sq)]
            sc.selected = here[0].id if here else None

