"""The heads-up display: top bar (title, round, speed), the side panel (initiative order, the
selected creature's panel with the category it stands in and what that category does, the
combat log), the key help, the map legend, and the cards (title, round banner, end)."""

from __future__ import annotations

import functools

import pygame

from sim.maps import palette
from sim.render import portray
from sim.render.easing import ease_out_cubic, fade
from sim.render.placement import place
from sim.rules.categories import Category, describe
from sim.story.log import thing

SIZE_NAMES = ("Fine", "Diminutive", "Tiny", "Small", "Medium", "Large", "Huge", "Gargantuan", "Colossal")

TONE_RGB = {"hit": (255, 214, 120), "crit": palette.CRIT_TEXT, "miss": palette.UI_DIM, "damage": (255, 140, 120),
            "heal": palette.HEAL_TEXT, "good": (170, 220, 170), "bad": (240, 150, 140), "round": palette.UI_ACCENT,
            "end": palette.UI_ACCENT, "": palette.UI_TEXT}

HELP = {
    "watch": "Space pause  ·  P auto-play  ·  ←/→ step turn  ·  +/- speed  ·  1-9 categories per size  ·  C creature  "
             "·  R reach  ·  T travel time  ·  V view  ·  L legend  ·  drag pan, wheel zoom  ·  Esc quit",
    "replay": "→/] step forward  ·  ←/[ step back  ·  P auto-play  ·  Space pause  ·  +/- speed  ·  1-9 sizes  ·  C creature  "
              "·  R reach  ·  T travel  ·  V view  ·  L legend  ·  drag, wheel  ·  Esc quit",
    "play": "click: move (Alt 5-ft step, Shift withdraw, Ctrl+Shift run)  ·  click enemy: attack (Shift full, Ctrl charge)  "
            "·  W weapon  ·  X spell (area: click, then click or Enter)  ·  D prone/stand  ·  I torch  ·  O load  ·  A armor off  ·  M grapple/trip/rush  ·  B break free  ·  E end turn  "
            "·  . AI turn  ·  Space pause  ·  P auto  ·  Shift-D typed dice  ·  G DM  ·  Ctrl-Z/Y undo/redo  ·  Ctrl-S/O save/load  "
            "·  +/- speed  ·  1-9/C/R/T  ·  V view  ·  Esc cancel/quit",
}


# a toast's (text, fill, edge) colours by kind: info is neutral, error the red of a refusal
TOAST_LOOKS = {"info": (palette.UI_TEXT, palette.UI_PANEL, palette.UI_EDGE),
               "error": ((255, 235, 230), (120, 30, 26), (200, 80, 70))}


def panel_box(surf, rect, *, fill=palette.UI_PANEL, edge=palette.UI_EDGE, radius: int = 6, alpha: int | None = None):
    if alpha is None:
        pygame.draw.rect(surf, fill, rect, border_radius=radius)
    else:
        s = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(s, (*fill, alpha), s.get_rect(), border_radius=radius)
        surf.blit(s, rect.topleft)
    if edge is not None:
        pygame.draw.rect(surf, edge, rect, width=1, border_radius=radius)


def hp_bar(surf, rect: pygame.Rect, frac: float, *, shown: float | None = None, border=True,
           cache: dict | None = None) -> None:
    """An hp bar: the hit points left in colour, the part just lost fading in light grey (one
    image per look, kept in ``cache``)."""
    f = round(max(0.0, min(1.0, frac)), 2)
    s = f if shown is None else round(max(0.0, min(1.0, shown)), 2)
    key = (rect.w, rect.h, f, s, border)
    img = cache.get(key) if cache is not None else None
    if img is None:
        img = pygame.Surface((rect.w, rect.h))
        img.fill((20, 16, 16))
        if s > f:
            pygame.draw.rect(img, (200, 200, 200), pygame.Rect(0, 0, int(rect.w * s), rect.h))
        if f > 0:
            pygame.draw.rect(img, palette.hp_rgb(f), pygame.Rect(0, 0, max(1, int(rect.w * f)), rect.h))
        if border:
            pygame.draw.rect(img, (0, 0, 0), img.get_rect(), 1)
        if pygame.display.get_surface() is not None:
            img = img.convert()
        if cache is not None:
            if len(cache) > 4000:
                cache.clear()
            cache[key] = img
    surf.blit(img, rect.topleft)


class Hud:
    """Draws the interface around and over the map. Sizes in pixels."""

    def __init__(self, scene):
        self.scene = scene
        self.text = scene.text
        self._panel: pygame.Surface | None = None
        self._panel_key = None
        self.log_scroll = 0
        self._page_start = 0
        self._log_top = 0              # an export's log top so far (it moves down, never up)
        self._legend_cache = None      # (key, image) of the legend painted last
        self._wrapped: dict = {}
        self._legend_key = None
        self._legend = None
        self._legend_local = None      # the legend's box in the side panel (panel pixels), if it is there
        self.legend_in_panel = True    # the panel holds the legend (else it goes over the map's corner)
        self.legend_rect = None        # where the legend was last drawn, in screen pixels
        self.card_rect = None          # where the last closing card was drawn, in screen pixels

    # -- what the HUD says of the scene -------------------------------------------------------------------------
    def turn_key(self):
        """What of the live turn the panel shows (who acts, the actions left): its cache key."""
        sc = self.scene
        enc = sc.world.enc
        t = getattr(enc, "turn", None) if sc.world.live else None
        return (t.actor, t.standard, t.move, t.moved) if t is not None else None

    def creature_summary(self, cid: str) -> dict:
        """The panel's words on a creature: what it is, its weapon (or spell), hit points,
        conditions, and the category of the square it stands in."""
        sc = self.scene
        cv = sc.model.get(cid)
        sc.world.sync(sc.model)
        c = sc.world.creature(cid)
        out: dict = {"lines": []}
        if cv is None:
            return out
        size = cv.size.title()
        if cv.swarm:
            out["what"] = f"{size} swarm  ·  {cv.team}"
        else:
            out["what"] = f"{size} {cv.template.replace('-', ' ')}  ·  {cv.team}"
        lines = []
        if c is not None:
            b = c.block
            lines.append(f"AC {b.ac} (touch {b.touch_ac}, flat-footed {b.flat_footed_ac})  ·  speed {cv.speed} ft"
                         + (f"  ·  init {cv.initiative}" if cv.initiative is not None else ""))
            if cv.swarm and b.swarm is not None:
                lines.append(f"{b.swarm.count:,} {b.swarm.component.key} creatures; shares squares; "
                             "pours through any crack one of them fits")
            else:
                weapon = sc.weapon_choice if (sc.mode == "play" and sc.weapon_choice and cid == sc.model.current) \
                    else cv.wielding
                w = f"In hand: {thing(cv.wielding) if cv.wielding else '-'}" + ("  (torch lit)" if cv.torch_lit and cv.wielding != "torch" else "")
                if sc.mode == "play" and weapon != cv.wielding:
                    w += f"  ·  chosen (W): {thing(weapon) if weapon else '-'}"
                if sc.mode == "play" and sc.spell_choice and cid == sc.model.current:
                    w += f"  ·  casting (X): {sc.spell_choice.replace('-', ' ')}"
                lines.append(w)
                if cv.armor_off:
                    lines.append("Armour off, dragged behind (before the tight places)")
                elif cv.armor_progress > 0:
                    lines.append(f"Taking its armour off: {cv.armor_progress:.0%} done (does nothing else)")
                if sc.mode == "play":  # the live creature: what is loaded, what is left to throw
                    gear = [f"{k.replace('-', ' ')} empty (O loads)" for k in sorted(getattr(c, "unloaded", ()))]
                    gear += [f"{n} {k.replace('-', ' ')}{'s' if n != 1 else ''} to throw"
                             for k, n in sorted(getattr(c, "thrown_left", {}).items())]
                    if gear:
                        lines.append("  ·  ".join(gear))
        conds = [portray.BADGE_NAMES.get(k, k) for k in sorted(cv.conditions) if k not in ("flat_footed",)]
        if cv.prone and "prone" not in cv.conditions:
            conds.append("prone")
        if conds:
            lines.append("Conditions: " + ", ".join(conds))
        t = self.turn_key()
        if t is not None and t[0] == cid:
            left = [n for n, ok in (("standard", t[1]), ("move", t[2])) if ok]
            lines.append("Actions left: " + (", ".join(left) if left else "none"))
        out["lines"] = lines
        if c is not None and c.squares and cv.alive:
            if cv.swarm:
                out["category"] = int(Category.CLEAR)
                out["category_words"] = "Clear: a swarm never suffers constricted-space penalties (§7.25)"
            else:
                out["category"] = int(sc.world.standing(cid))
        return out

    def teams_summary(self) -> list[tuple[str, str]]:
        """Each team and who is in it (the title card)."""
        sc = self.scene
        out = []
        for team in sc.model.teams:
            members = [cv for cv in sc.model.creatures.values() if cv.team == team]
            counts: dict[str, list] = {}
            for cv in members:
                counts.setdefault(cv.name, []).append(cv)
            parts = []
            for name, group in counts.items():
                if len(group) == 1:
                    cv = group[0]
                    what = "swarm" if cv.swarm else cv.template.replace("-", " ")
                    parts.append(f"{cv.label} ({what})" if cv.label.lower() != what else cv.label)
                else:
                    parts.append(f"{len(group)} {name.lower()}s")
            out.append((team, ", ".join(parts)))
        return out

    def category_overlay_name(self) -> str | None:
        """Whose categories the overlay colours the map for (a size, or the creature selected)."""
        sc = self.scene
        if sc.overlays.get("size") is not None:
            return SIZE_NAMES[sc.overlays["size"]]
        if sc.overlays.get("creature") and sc.selected_id():
            return sc.model.label(sc.selected_id())
        return None

    # -- bars -----------------------------------------------------------------------------------------------------
    def topbar(self, surf, rect: pygame.Rect) -> None:
        sc = self.scene
        m = sc.model
        pygame.draw.rect(surf, palette.UI_BG, rect)
        pygame.draw.line(surf, palette.UI_EDGE, rect.bottomleft, (rect.right, rect.bottom), 1)
        t = self.text
        x = rect.x + 12
        title = t.render(sc.title or m.map_name, 22, palette.UI_ACCENT)
        surf.blit(title, (x, rect.centery - title.get_height() // 2))
        x += title.get_width() + 14
        if sc.title and m.map_name and m.map_name != sc.title:
            sub = t.render(f"{m.map_name}  ·  seed {m.seed}", 17, palette.UI_DIM)
            surf.blit(sub, (x, rect.centery - sub.get_height() // 2 + 1))
        # right: round, mode, speed
        right = rect.right - 12
        mode = sc.status_text()
        ms = t.render(mode, 18, palette.UI_TEXT)
        right -= ms.get_width()
        surf.blit(ms, (right, rect.centery - ms.get_height() // 2))
        right -= 18
        rnd = t.render(f"Round {max(1, m.round)}" if m.round else "Setting up", 22, palette.UI_TEXT)
        right -= rnd.get_width()
        surf.blit(rnd, (right, rect.centery - rnd.get_height() // 2))

    def bottombar(self, surf, rect: pygame.Rect) -> None:
        """The square under the cursor over the key help. A bar with a row to spare (play's, sized
        by :meth:`bar_height`) keeps that row for the square, so the help never moves; a smaller
        one gives the square a help row, and the help ends in "…" where it is cut (at a word)."""
        pygame.draw.rect(surf, palette.UI_BG, rect)
        pygame.draw.line(surf, palette.UI_EDGE, rect.topleft, (rect.right, rect.top), 1)
        square = self.square_text()
        mode = self.scene.mode
        every = self._help_lines(mode, rect.width, 1 << 20)
        if (rect.height - 4) // 18 > len(every):
            lines, rows = every, [square or ""] + list(every)
        else:
            lines = self._help_lines(mode, rect.width, rect.height - (18 if square else 0))
            rows = ([square] if square else []) + list(lines)
        y = rect.centery - 9 * len(rows) + 1
        for k, line in enumerate(rows):
            if not line:
                y += 18
                continue
            s = self.text.render(line, 16, palette.UI_TEXT if (square and k == 0) else palette.UI_DIM)
            surf.blit(s, (rect.x + 10, y))
            y += 18

    def square_text(self) -> str | None:
        """The square under the cursor: ``x, y``, its width and ceiling, and its category for the
        body shown (the size overlay's, else the selected creature's)."""
        sc = self.scene
        sq = getattr(sc, "hover", None)
        g = sc.grid
        if sq is None or not g.in_bounds(sq):
            return None
        x, y = sq
        if g.rock[y, x]:
            return f"square {x},{y}: rock"
        text = f"square {x},{y}: width {g.width_ft[y, x]:g} ft, ceiling {g.height_ft[y, x]:g} ft"
        if g.difficult[y, x]:
            text += ", rubble"
        size = sc.overlays.get("size")
        cid = sc.selected_id()
        if size is not None:
            cat, who = sc.world.size_categories(size)[y, x], f"a {SIZE_NAMES[size]} body"
        elif cid is not None:
            cat, who = sc.world.creature_categories(cid)[y, x], sc.model.label(cid)
        else:
            return text
        return f"{text}: {Category(int(cat)).label} for {who}"

    def bar_height(self, mode: str, width: int) -> int:
        """The bottom bar's height for a window ``width`` px wide: one line of key help outside
        play; in play, every line of its help and a row for the square under the cursor."""
        if mode != "play":
            return 24
        return 18 * (len(self._help_lines(mode, width, 1 << 20)) + 1) + 6

    @functools.lru_cache(maxsize=16)
    def _help_lines(self, mode: str, width: int, height: int) -> tuple[str, ...]:
        """The key help items, wrapped at the items (an item wider than the bar at its words) into
        lines no wider than the bar; when they need more lines than the bar holds, the last line
        ends in "…" after the last whole item (or word) that fits -- never a word cut in two."""
        n_lines = max(1, (height - 4) // 18)
        room = max(1, width - 20)
        fits = lambda line: self.text.size(line, 16)[0] <= room   # noqa: E731
        sep = "  ·  "
        lines: list[str] = []
        for item in HELP.get(mode, HELP["watch"]).split(sep):
            if lines and fits(f"{lines[-1]}{sep}{item}"):
                lines[-1] = f"{lines[-1]}{sep}{item}"
            else:
                lines += [w.strip() for w in self.text.wrap(item, 16, room)]
        if len(lines) > n_lines:
            last = lines[n_lines - 1]
            while not fits(last + " …") and " " in last.strip():
                cut = last.rfind(sep)
                last = last[:cut] if cut > 0 else last.rsplit(" ", 1)[0]
            lines = lines[:n_lines - 1] + [last.rstrip(" ·") + " …"]
        return tuple(lines)

    # -- the side panel ------------------------------------------------------------------------------------------
    def panel(self, surf, rect: pygame.Rect) -> None:
        sc = self.scene
        key = (sc.model.version, sc.selected_id(), rect.size, self.log_scroll, sc.weapon_choice, sc.spell_choice, self.turn_key(),
               tuple(round(v, 2) for v in sc.hp_shown.values()), self._legend_items_key() if sc.show_legend else None)
        if self._panel is None or key != self._panel_key or self._panel.get_size() != rect.size:
            if self._panel is None or self._panel.get_size() != rect.size:
                self._panel = pygame.Surface(rect.size)
                self._log_top = 0
            self._draw_panel(self._panel, pygame.Rect(0, 0, rect.w, rect.h))
            self._panel_key = key
        surf.blit(self._panel, rect.topleft)
        if self._legend_local is not None:
            self.legend_rect = self._legend_local.move(rect.topleft)

    def _draw_panel(self, surf, rect: pygame.Rect) -> None:
        surf.fill(palette.UI_BG)
        pygame.draw.line(surf, palette.UI_EDGE, rect.topleft, rect.bottomleft, 1)
        pad = 10
        inner = rect.inflate(-2 * pad, -2 * pad)
        y = inner.y
        y = self._initiative(surf, inner.x, y, inner.w, max_h=int(rect.h * 0.36))
        y += 8
        y = self._selected(surf, inner.x, y, inner.w)
        y += 8
        if getattr(self.scene, "steady_log", False):   # an export: the log moves down for a taller card, never up
            y = self._log_top = max(y, self._log_top)
        bottom = inner.bottom
        self._legend_local = None
        if self.scene.show_legend:   # the legend sits at the foot of the panel, off the map
            img = self._legend_image(inner.w)
            if bottom - y - img.get_height() - 6 >= 90:     # the log keeps a few lines
                bottom -= img.get_height() + 6
                surf.blit(img, (inner.x, bottom + 6))
                self._legend_local = pygame.Rect(inner.x, bottom + 6, *img.get_size())
        self.legend_in_panel = self._legend_local is not None
        self._log(surf, pygame.Rect(inner.x, y, inner.w, bottom - y))

    def _header(self, surf, x, y, w, text) -> int:
        s = self.text.render(text.upper(), 16, palette.UI_DIM)
        surf.blit(s, (x, y))
        yy = y + s.get_height() // 2
        pygame.draw.line(surf, palette.UI_EDGE, (x + s.get_width() + 8, yy), (x + w, yy), 1)
        return y + s.get_height() + 4

    def _initiative(self, surf, x, y, w, max_h) -> int:
        sc = self.scene
        m = sc.model
        y = self._header(surf, x, y, w, "Initiative")
        row_h = 19
        order = m.order
        n_fit = max(3, (max_h - 20) // row_h)
        start = 0
        if len(order) > n_fit and m.current in order:
            start = max(0, min(len(order) - n_fit, order.index(m.current) - n_fit // 3))
        for cid in order[start:start + n_fit]:
            cv = m.creatures[cid]
            r = pygame.Rect(x, y, w, row_h - 1)
            cur = cid == m.current and not m.finished
            if cur:
                pygame.draw.rect(surf, (58, 50, 30), r, border_radius=4)
                pygame.draw.polygon(surf, palette.UI_ACCENT, [(x + 2, y + 4), (x + 2, y + row_h - 6), (x + 8, y + row_h // 2 - 1)])
            if cid == sc.selected_id():
                pygame.draw.rect(surf, palette.UI_EDGE, r, 1, border_radius=4)
            team = palette.team_rgb(cv.team, cv.team_index)
            pygame.draw.circle(surf, team if cv.alive else palette.shade(team, 0.4), (x + 16, y + row_h // 2 - 1), 5)
            col = palette.UI_TEXT if cv.alive and not cv.down else palette.UI_DIM
            init = f"{cv.initiative:>2}" if cv.initiative is not None else "  "
            s = self.text.render(init, 16, palette.UI_DIM)
            surf.blit(s, (x + 26, y + 3))
            name = self.text.render(cv.label, 18, col)
            room = w - 48 - (112 if cv.alive else 80)     # a long name stops short of the hp figures
            if name.get_width() > room > 20:
                name = name.subsurface(pygame.Rect(0, 0, room, name.get_height()))
            surf.blit(name, (x + 48, y + 2))
            if not cv.alive:
                st = "dispersed" if "dispersed" in cv.conditions else "dead"
                s = self.text.render(st, 16, palette.UI_BAD)
                surf.blit(s, (x + w - s.get_width() - 2, y + 3))
                pygame.draw.line(surf, palette.UI_DIM, (x + 48, y + row_h // 2), (x + 48 + name.get_width(), y + row_h // 2), 1)
            else:
                bar = pygame.Rect(x + w - 52, y + 6, 50, 6)
                hp_bar(surf, bar, cv.hp_fraction, shown=sc.hp_shown.get(cid), cache=sc.bars)
                s = self.text.render(f"{cv.hp}/{cv.max_hp}", 16, palette.UI_BAD if cv.hp <= 0 else palette.UI_DIM)
                surf.blit(s, (bar.x - s.get_width() - 6, y + 3))
            y += row_h
        if len(order) > n_fit:
            s = self.text.render(f"{len(order)} creatures", 15, palette.UI_DIM)
            surf.blit(s, (x + w - s.get_width(), y))
            y += 14
        return y

    def _selected(self, surf, x, y, w) -> int:
        sc = self.scene
        cid = sc.selected_id()
        cv = sc.model.get(cid)
        y = self._header(surf, x, y, w, "Selected" if cid == sc.selected else "Acting")
        if cv is None:
            s = self.text.render("click a creature", 17, palette.UI_DIM)
            surf.blit(s, (x, y))
            return y + 22
        team = palette.team_rgb(cv.team, cv.team_index)
        s = self.text.render(cv.label, 24, team)
        surf.blit(s, (x, y))
        info = self.creature_summary(cid)
        s2 = self.text.render(info.get("what", ""), 16, palette.UI_DIM)
        surf.blit(s2, (x + s.get_width() + 8, y + 6))
        y += s.get_height() + 3
        bar = pygame.Rect(x, y, w, 10)
        hp_bar(surf, bar, cv.hp_fraction, shown=sc.hp_shown.get(cid), cache=sc.bars)
        hp = self.text.render(f"{cv.hp} / {cv.max_hp} hp", 15, (255, 255, 255), outline=(0, 0, 0))
        surf.blit(hp, (x + w - hp.get_width() - 2, y - 2))
        y += 14
        for line in info.get("lines", []):
            for part in self.text.wrap(line, 17, w):
                s = self.text.render(part, 17, palette.UI_TEXT)
                surf.blit(s, (x, y))
                y += s.get_height() + 1
        cat = info.get("category")
        if cat is not None:
            y += 3
            rgb = palette.category_rgb(cat)
            pygame.draw.rect(surf, rgb, pygame.Rect(x, y + 2, 12, 12), border_radius=3)
            pygame.draw.rect(surf, (0, 0, 0), pygame.Rect(x, y + 2, 12, 12), 1, border_radius=3)
            s = self.text.render(f"Stands in: {Category(cat).label}", 18, rgb)
            surf.blit(s, (x + 18, y + 1))
            y += s.get_height() + 3
            words = info.get("category_words") or describe(cat)
            effect = words.split(": ", 1)[1] if ": " in words else words
            for part in self.text.wrap(effect, 16, w - 4):
                s = self.text.render(part, 16, palette.UI_DIM)
                surf.blit(s, (x + 4, y))
                y += s.get_height() + 1
        return y

    def _log(self, surf, rect: pygame.Rect) -> None:
        """The combat log, paged: new lines are written below the last ones and the page turns by
        half when it is full (the lines on screen do not shift at every event)."""
        y = self._header(surf, rect.x, rect.y, rect.w, "Combat log")
        area = pygame.Rect(rect.x, y, rect.w, rect.bottom - y)
        if area.h < 20:
            return
        lh = self.text.line_height(16) + 1
        n_fit = max(1, area.h // lh)
        lines = []
        for entry in self.scene.model.log:
            key = (entry.text, area.w)
            wrapped = self._wrapped.get(key)
            if wrapped is None:
                wrapped = self.text.wrap(entry.text, 16, area.w)
                self._wrapped[key] = wrapped
            lines.extend((part, entry.tone) for part in wrapped)
        total = len(lines)
        if self.log_scroll > 0:
            self.log_scroll = min(self.log_scroll, max(0, total - n_fit))
            end = total - self.log_scroll
            show = lines[max(0, end - n_fit):end]
        else:
            if self._page_start > total or total - self._page_start > n_fit:
                self._page_start = max(0, total - max(1, n_fit // 2)) if total > n_fit else 0
            show = lines[self._page_start:self._page_start + n_fit]
        yy = area.y
        for text, tone in show:
            s = self.text.render(text, 16, TONE_RGB.get(tone, palette.UI_TEXT))
            surf.blit(s, (area.x, yy))
            yy += lh

    # -- on the map ------------------------------------------------------------------------------------------------
    def _legend_items_key(self):
        sc = self.scene
        return (self.category_overlay_name(), bool(sc.overlays.get("reach")), bool(sc.overlays.get("contours")),
                tuple(sc.model.teams))

    def legend(self, surf, view: pygame.Rect) -> None:
        """The legend over the map's bottom-left corner: only when there is no side panel (with
        one, the panel holds it: :meth:`_draw_panel`). ``legend_rect``: where it went, in
        screen pixels (the panel's records it in the panel's own)."""
        key = (self._legend_items_key(), view.bottom, view.x)
        if key != self._legend_key:
            self._legend_key = key
            img = self._legend_image(210)
            if img.get_height() > view.h - 20 or img.get_width() > view.w - 20:   # no room in a very small frame
                img = img.subsurface(pygame.Rect(0, 0, min(img.get_width(), max(1, view.w - 20)),
                                                 min(img.get_height(), max(1, view.h - 20)))).copy()
            self._legend = (img, (view.x + 10, view.bottom - img.get_height() - 10))
        img, pos = self._legend
        surf.blit(img, pos)
        self.legend_rect = pygame.Rect(pos, img.get_size())

    def _legend_image(self, w: int) -> pygame.Surface:
        """The legend's box, ``w`` pixels wide (kept until what it lists changes): the floor
        shade, the category colours of the overlay shown, reach and travel-time marks, the
        teams; the short entries in two columns when the box is wide enough (the side panel's)."""
        key = (self._legend_items_key(), w)
        cached = self._legend_cache
        if cached is None or cached[0] != key:
            self._legend_cache = (key, self._paint_legend(w))
        return self._legend_cache[1]

    def _paint_legend(self, w: int) -> pygame.Surface:
        sc = self.scene
        t = self.text
        items = [("ceiling", None)]
        cat_for = self.category_overlay_name()
        if cat_for:
            items.append(("title", f"Categories for {cat_for}"))
            items += [("cat", cat) for cat in Category]
        if sc.overlays.get("reach"):
            items.append(("swatch", (palette.REACH_SINGLE, "one move action")))
            items.append(("swatch", (palette.REACH_DOUBLE, "double move")))
        if sc.overlays.get("contours"):
            items.append(("line", "travel time, rounds"))
        items += [("team", (palette.team_rgb(team, i), team)) for i, team in enumerate(sc.model.teams[:4])]
        cols = 2 if w >= 300 else 1
        line_h = 17
        rows: list[list] = []     # each row: items side by side (two short entries of one kind, or one)
        for kind, val in items:
            if (cols == 2 and kind in ("cat", "team", "swatch") and rows and len(rows[-1]) == 1
                    and rows[-1][0][0] == kind):
                rows[-1].append((kind, val))
            else:
                rows.append([(kind, val)])
        h = 10 + sum(36 if r[0][0] == "ceiling" else line_h for r in rows)
        out = pygame.Surface((w, h), pygame.SRCALPHA)
        panel_box(out, out.get_rect(), fill=(14, 14, 18), alpha=205)
        y = 6
        col_w = (w - 8) // cols
        for row in rows:
            for k, (kind, val) in enumerate(row):
                x = 8 + k * col_w
                if kind == "ceiling":
                    self._legend_ceiling(out, pygame.Rect(8, y + 15, min(w, 210) - 16, 9), y)
                elif kind == "title":
                    out.blit(t.render(val, 15, palette.UI_ACCENT), (x, y))
                else:
                    if kind == "cat":
                        rgb, label = palette.category_rgb(val), val.label
                    elif kind == "line":
                        rgb, label = palette.CONTOUR, val
                    else:
                        rgb, label = val
                    if kind == "team":
                        pygame.draw.circle(out, rgb, (x + 7, y + 7), 6)
                    elif kind == "line":
                        pygame.draw.line(out, rgb, (x, y + 7), (x + 14, y + 7), 2)
                    else:
                        pygame.draw.rect(out, rgb, pygame.Rect(x, y + 2, 14, 11), border_radius=2)
                    out.blit(t.render(label, 15, palette.UI_TEXT), (x + 20, y))
            y += 36 if row[0][0] == "ceiling" else line_h
        if pygame.display.get_surface() is not None:
            out = out.convert_alpha()
        return out

    def _legend_ceiling(self, surf, bar: pygame.Rect, y: int) -> None:
        """The floor shade's scale: ceiling heights from 2 ft to 16 ft and more."""
        t = self.text
        surf.blit(t.render("Floor shade = ceiling height", 15, palette.UI_TEXT), (bar.x, y))
        for i in range(bar.w):
            hft = 2 + 14 * i / max(1, bar.w - 1)
            pygame.draw.line(surf, palette.ceiling_rgb(hft), (bar.x + i, bar.y), (bar.x + i, bar.bottom))
        pygame.draw.rect(surf, (0, 0, 0), bar, 1)
        lo = t.render("2 ft", 14, palette.UI_DIM)
        hi = t.render("16 ft+", 14, palette.UI_DIM)
        mid = t.render("cracks to scale", 14, palette.UI_DIM)
        surf.blit(lo, (bar.x, bar.bottom + 1))
        surf.blit(hi, (bar.right - hi.get_width(), bar.bottom + 1))
        surf.blit(mid, (bar.centerx - mid.get_width() // 2, bar.bottom + 1))

    def caption(self, surf, view: pygame.Rect, text: str, alpha: float = 1.0) -> None:
        if not text or alpha <= 0.02:
            return
        key = (text, view.w)
        lines = self._wrapped.get(key)
        if lines is None:
            lines = self._wrapped[key] = self.text.wrap(text, 19, view.w - 300)[:2]
        lh = self.text.line_height(19) + 2
        h = lh * len(lines) + 10
        w = max(self.text.size(s, 19)[0] for s in lines) + 24
        box = pygame.Rect(view.centerx - w // 2 + 100, view.bottom - h - 10, w, h)
        box.right = min(box.right, view.right - 10)
        panel_box(surf, box, fill=(10, 10, 14), alpha=int(200 * alpha), edge=None)
        y = box.y + 6
        for s in lines:
            r = self.text.render(s, 19, palette.UI_TEXT)
            if alpha < 1:
                r = r.copy()
                r.set_alpha(int(255 * alpha))
            surf.blit(r, (box.x + 12, y))
            y += lh

    def _cut(self, a: float) -> float:
        """An opacity as drawn: as it is in a window; all or nothing in an export (the scene's
        ``cut_fades``), where every step of a fade would rewrite the frame."""
        return (1.0 if a >= 0.5 else 0.0) if getattr(self.scene, "cut_fades", False) else a

    def banner(self, surf, view: pygame.Rect, text: str, p: float) -> None:
        a = self._cut(fade(p, 0.15, 0.35))
        if a <= 0:
            return
        s = self.text.render(text, 40, palette.UI_ACCENT, outline=(0, 0, 0))
        w = s.get_width() + 60
        box = pygame.Rect(0, 0, w, s.get_height() + 16)
        box.centerx = view.centerx
        slide = 0.0 if getattr(self.scene, "cut_fades", False) else 1 - ease_out_cubic(min(1.0, p * 4))
        box.y = view.y + 14 - int(slide * 20)
        panel_box(surf, box, fill=(12, 12, 16), alpha=int(190 * a), edge=None, radius=10)
        s2 = s.copy()
        s2.set_alpha(int(255 * a))
        surf.blit(s2, (box.centerx - s.get_width() // 2, box.y + 8))

    def title_card(self, surf, view: pygame.Rect, anim, p: float) -> None:
        a = self._cut(fade(p, 0.08, 0.2))
        if a <= 0:
            return
        sc = self.scene
        shade = pygame.Surface(view.size, pygame.SRCALPHA)
        shade.fill((6, 6, 10, int(185 * a)))
        surf.blit(shade, view.topleft)
        t = self.text
        lines = []
        title = anim.data.get("title") or sc.model.map_name
        lines.append((title, 60, palette.UI_ACCENT))
        sub = anim.data.get("subtitle") or ""
        for part in t.wrap(sub, 26, int(view.w * 0.8)):
            lines.append((part, 26, palette.UI_TEXT))
        lines.append(("", 14, palette.UI_TEXT))
        for team, names in self.teams_summary():
            rgb = palette.team_rgb(team, sc.model.teams.index(team) if team in sc.model.teams else 0)
            head = f"{team.title()}: "
            for part in t.wrap(head + names, 22, int(view.w * 0.8)):
                lines.append((part, 22, rgb))
        lines.append(("", 14, palette.UI_TEXT))
        lines.append((f"{sc.model.map_name}  ·  {sc.model.cols} x {sc.model.rows} squares of 5 ft  ·  seed {sc.model.seed}",
                      18, palette.UI_DIM))
        total = sum(t.line_height(sz) + 6 for _, sz, _ in lines)
        slide = 0.0 if getattr(sc, "cut_fades", False) else 1 - ease_out_cubic(min(1.0, p * 5))
        y = view.centery - total // 2 - int(slide * 30)
        for text, size, rgb in lines:
            if text:
                s = t.render(text, size, rgb, outline=(0, 0, 0) if size >= 40 else None)
                s2 = s.copy()
                s2.set_alpha(int(255 * a))
                surf.blit(s2, (view.centerx - s.get_width() // 2, y))
            y += t.line_height(size) + 6

    def end_card(self, surf, view: pygame.Rect, anim, p: float) -> None:
        a = self._cut(min(1.0, p * 4))
        sc = self.scene
        m = sc.model
        t = self.text
        winner = anim.data.get("winner")
        rnd = anim.data.get("round", m.round)
        if winner:
            head = "The party wins" if winner == "party" else f"The {winner} win"
        else:
            head = "No winner"
        sub = f"after {rnd} round{'s' if rnd != 1 else ''}" + ("" if winner else f" ({anim.data.get('reason', '').replace('_', ' ')})")
        standing = [cv for cv in m.creatures.values() if cv.alive and not cv.down]
        surv = ", ".join(f"{cv.label} {cv.hp}/{cv.max_hp}" for cv in standing) or "nobody"
        body = [(head, 48, palette.team_rgb(winner, m.teams.index(winner)) if winner in m.teams else palette.UI_ACCENT),
                (sub, 24, palette.UI_TEXT)]
        for part in t.wrap(f"Still standing: {surv}", 19, int(view.w * 0.6)):
            body.append((part, 19, palette.UI_DIM))
        self.card(surf, view, body, a)

    def card(self, surf, view: pygame.Rect, body: list, a: float) -> None:
        """A closing card: lines of (text, size, colour), fading in with ``a``, where it hides no
        token (:meth:`_card_box`): the final positions stay visible. ``card_rect``: where it went."""
        t = self.text
        h = sum(t.line_height(s) + 8 for _, s, _ in body) + 24
        w = max(t.size(x, s)[0] for x, s, _ in body) + 60
        box = self._card_box(view, w, h)
        if box is None:   # no free place on the map: a smaller card over the top of the side panel
            pr = self.scene.r_panel
            small = []
            for text, size, rgb in body:
                size = min(size, 26)
                small += [(part, size, rgb) for part in t.wrap(text, size, pr.w - 40)]
            body = small
            h = sum(t.line_height(s) + 8 for _, s, _ in body) + 24
            box = pygame.Rect(pr.x + 6, pr.y + 6, pr.w - 12, h)
        box.y -= int((1 - ease_out_cubic(a)) * 30)
        self.card_rect = pygame.Rect(box)
        panel_box(surf, box, fill=(12, 12, 16), alpha=int(220 * a), radius=12)
        y = box.y + 14
        for text, size, rgb in body:
            s = t.render(text, size, rgb, outline=(0, 0, 0) if size >= 40 else None).copy()
            s.set_alpha(int(255 * a))
            surf.blit(s, (box.centerx - s.get_width() // 2, y))
            y += t.line_height(size) + 8

    def _card_box(self, view: pygame.Rect, w: int, h: int) -> pygame.Rect | None:
        """Where a ``w`` x ``h`` card goes over the map: the first of the top, the bottom, the
        middle and the corners of the view that covers none of the tokens drawn; None when every
        one would (the caller then uses the side panel, or the top of the view without one)."""
        m = 12
        xs = (view.centerx - w // 2, view.x + m, view.right - m - w)
        ys = (view.y + m, view.bottom - m - h, view.centery - h // 2)
        cands = [(xs[0], ys[0], w, h), (xs[0], ys[1], w, h), (xs[0], ys[2], w, h)]
        cands += [(x, y, w, h) for y in ys[:2] for x in xs[1:]]
        tokens = [tuple(r) for r in self.scene.tokens.rects]
        spot = place(cands, tokens, area=tuple(view))
        if spot is None and not self.scene.show_hud:
            spot = cands[0]
        return pygame.Rect(spot) if spot is not None else None

    def toast(self, surf, view: pygame.Rect, text: str, a: float, kind: str = "info") -> None:
        """A toast: ``kind`` "info" on the interface's panel colours, "error" on red."""
        if a <= 0:
            return
        text_rgb, fill, edge = TOAST_LOOKS.get(kind, TOAST_LOOKS["info"])
        s = self.text.render(text, 20, text_rgb)
        box = pygame.Rect(0, 0, s.get_width() + 30, s.get_height() + 14)
        box.centerx = view.centerx
        box.y = view.bottom - box.h - 70
        panel_box(surf, box, fill=fill, alpha=int(230 * a), edge=edge, radius=8)
        s2 = s.copy()
        s2.set_alpha(int(255 * a))
        surf.blit(s2, (box.x + 15, box.y + 7))
