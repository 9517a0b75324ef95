"""Headless export: animated GIF or WebP, or one PNG frame, drawn off-screen with no window.

The scene is stepped at a fixed 60 steps per second and a frame is taken every ``60 / fps``
steps: no wall clock is read, and particle motion is seeded from the fight's seed, so the same
seed gives the same frames (and the same bytes). A GIF shares one palette over the whole
animation (computed from sampled frames in a first pass), without dithering, so it stays small.
Files are written through :func:`sim.base.fileio.atomic_path`: a failed export leaves no file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from sim.base.errors import DataError
from sim.base.fileio import atomic_path, check_writable

STEPS_PER_SECOND = 60
STEP = 1.0 / STEPS_PER_SECOND
FORMATS = {".gif": "GIF", ".webp": "WEBP", ".png": "PNG"}
MAX_ANIMATION_SECONDS = 20 * 60   # an export stops after 20 minutes of animation, whatever the fight
UNFINISHED_GRACE = 5.0            # seconds an animation runs on after the last event of an unfinished log
TRANSPARENT = 255   # the GIF palette index meaning "unchanged since the last frame"


def format_of(path: str | Path) -> str:
    """The export format from a file name; a clear error for anything else.

    >>> format_of("fight.GIF"), format_of("a/b.webp"), format_of("frame.png")
    ('GIF', 'WEBP', 'PNG')
    """
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        shown = suffix or "(none)"
        raise DataError(f"{path}: unknown output format {shown}; use a file name ending in .gif, .webp or .png")
    return FORMATS[suffix]


def check_out(path: str | Path) -> str:
    """Check an output path before any work: known format, existing folder, not a folder."""
    fmt = format_of(path)
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.exists():
        raise DataError(f"{p}: folder {parent} does not exist; create it first or choose another --out")
    if p.exists() and p.is_dir():
        raise DataError(f"{p}: is a directory; give a file name ending in .gif, .webp or .png")
    check_writable(p)  # a folder we may not write in (/sys, /proc, read-only) is refused before any rendering
    return fmt


def init_headless() -> None:
    """pygame without a screen: the dummy video driver (set before pygame is imported)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import sys

    # pygame's import tries setuptools' pkg_resources (a sixth of a second, a tenth of a one-frame
    # render) only to find its bundled font; without it pygame opens the font file directly
    skip = "pygame" not in sys.modules and "pkg_resources" not in sys.modules
    if skip:
        sys.modules["pkg_resources"] = None   # makes `import pkg_resources` raise ImportError
    try:
        import pygame
    finally:
        if skip and sys.modules.get("pkg_resources", 0) is None:
            del sys.modules["pkg_resources"]

    if not pygame.font.get_init():
        pygame.font.init()


@dataclass
class ExportResult:
    path: Path
    format: str
    frames: int
    size: tuple[int, int]
    seconds: float          # animation length


@dataclass(frozen=True)
class Patch:
    """What changed in a frame since the one before, at the output scale: ``image`` (PIL, RGB)
    goes at (``left``, ``top``); the rest of the picture is the frame before."""
    left: int
    top: int
    image: object


def _frames(make, *, fps: float, scale: float, max_frames: int | None, tail: float, sample_every: int = 0,
            last: dict | None = None, wanted=None, share: dict | None = None, shrink: str = "smooth"):
    """Yield (index, picture) for every frame of the animation. ``make()`` builds a fresh
    (scene, driver). The picture is a PIL image made smaller by pygame's ``smoothscale``; with
    ``shrink="area"`` by exact area averaging (:mod:`sim.render.shrink`); with
    ``shrink="patches"`` (the GIF) the same pictures as "area", given as :class:`Patch`: the whole
    first frame, then only the rectangle that changed (compared at full size, so only that is
    made smaller, read and quantised). A picture that did not change is yielded again as the same
    object. At a scale no small ratio gives, both fall back to smoothscale's whole images.
    With ``sample_every`` only every n-th frame is drawn (palette pass; -n: about n frames
    spread over the scene's ``export_seconds()``, else one in two seconds); with
    ``wanted(index, driver)`` only the frames it accepts are drawn (the simulation and the
    animation clock still run through every step, so a frame is the same picture either way).
    ``last``: gets the full-size surface holding the last frame drawn (``"surface"``).
    ``share``: the painted cave, kept between two runs of the same animation (the GIF's palette
    pass and its frames), so the cave is painted once."""
    import pygame
    from PIL import Image

    scene, driver = make()
    if sample_every < 0 and hasattr(scene, "export_seconds"):   # -n: about n samples over the animation
        sample_every = max(1, int(scene.export_seconds() * fps / -sample_every))
    elif sample_every < 0:
        sample_every = max(1, int(round(2.0 * fps)))             # one frame in two seconds of animation
    scene.camera_glide = 0.0   # the camera cuts instead of gliding: a glide rewrites whole frames
    scene.cut_fades = True     # cards appear and go at once: a fade rewrites whole frames too
    scene.steady_flames = True  # torches burn steady: a flicker rewrites the whole lit area (4x the crawl GIF)
    scene.steady_clock = True  # clocks tick once a second of animation, not every frame
    scene.steady_log = True    # the log's lines stay put when the acting card is shorter (a fifth of the GIF)
    if share is not None and hasattr(scene, "cave"):
        if share.get("grid") is scene.grid:
            scene.cave.painted.update(share["painted"])
            scene.cave.maps.update(share["maps"])
        share.update(grid=scene.grid, painted=scene.cave.painted, maps=scene.cave.maps)
    surf = pygame.Surface(scene.size, 0, 32)
    per_frame = max(1, int(round(STEPS_PER_SECOND / fps)))
    out_size = (max(2, int(round(scene.size[0] * scale))), max(2, int(round(scene.size[1] * scale))))
    small = pygame.Surface(out_size) if out_size != scene.size else None
    area = _area_ratio(surf, scale) if shrink != "smooth" else None
    patches = area is not None and shrink == "patches"
    seen = None   # the full-size pixels of the last frame drawn (patches)
    holds = wanted is None and not sample_every and hasattr(scene, "export_hold")   # an animation, not a frame
    held, prev = 0, None
    i = 0
    ended_at = None
    step = 0
    while True:
        if max_frames is not None and i >= max_frames:
            return
        if step % per_frame == 0:
            if holds and prev is not None and held + 1 < scene.export_hold():
                held += 1          # the picture before, held one more frame (the writer merges them)
                yield i, prev
            elif wanted is not None and not wanted(i, driver):
                _hud_only(scene, surf)
            elif not sample_every or i % sample_every == 0:
                held = 0
                scene.draw(surf, 1.0)
                if last is not None:
                    last["surface"] = surf
                if area is not None:
                    img, seen = _shrunk(surf, area, seen, patches)
                    if img is None:      # nothing changed: the picture before, again
                        img = prev
                elif small is not None:   # pygame's smoothscale: as sharp as Lanczos at 3/4, a third of the time
                    pygame.transform.smoothscale(surf, out_size, small)
                    img = Image.frombytes("RGB", out_size, pygame.image.tobytes(small, "RGB"))
                else:
                    img = Image.frombytes("RGB", scene.size, pygame.image.tobytes(surf, "RGB"))
                prev = img
                yield i, img
            i += 1
        driver.pump()
        scene.update(STEP)
        step += 1
        if driver.done and scene.model.finished:
            if ended_at is None:
                ended_at = step
            elif step - ended_at >= tail * STEPS_PER_SECOND:
                return
        if driver.done and not scene.model.finished:   # a log that stops without its encounter_end
            if ended_at is None:
                ended_at = step
            elif step - ended_at >= (tail + UNFINISHED_GRACE) * STEPS_PER_SECOND:
                return
        if step >= STEPS_PER_SECOND * MAX_ANIMATION_SECONDS:   # the longest animation written
            return


def _area_ratio(surf, scale: float) -> tuple[int, int] | None:
    """(p, q) for :func:`sim.render.shrink.shrink` when the scene's size and the scale allow it."""
    from sim.render import shrink

    pq = shrink.ratio(scale)
    w, h = surf.get_size()
    if pq is None or w % pq[1] or h % pq[1] or surf.get_masks() != shrink.MASKS:
        return None
    return pq


def _shrunk(surf, pq, seen, patches: bool):
    """(picture, seen): the frame made smaller by area, whole or as the :class:`Patch` that
    changed since ``seen`` (the full-size pixels before, updated); (None, seen) if none did."""
    import pygame
    from PIL import Image

    from sim.render import shrink

    p, q = pq
    px = pygame.surfarray.pixels2d(surf)
    try:
        w, h = px.shape
        if not patches:
            return Image.fromarray(shrink.shrink(px, 0, 0, w, h, p, q), "RGB"), None
        if seen is None:
            seen = px.copy()
            x0, y0, x1, y1 = 0, 0, w, h
        else:
            x0, y0, x1, y1 = shrink.changed_box(px, seen)
            if x1 == 0:
                return None, seen
            x0, y0 = x0 - x0 % q, y0 - y0 % q
            x1, y1 = min(w, x1 + (-x1) % q), min(h, y1 + (-y1) % q)
        img = Image.fromarray(shrink.shrink(px, x0, y0, x1, y1, p, q), "RGB")
        return Patch(x0 // q * p, y0 // q * p, img), seen
    finally:
        del px   # the surface stays locked while a view of its pixels lives


def _hud_only(scene, surf) -> None:
    """A frame not wanted: only the side panel is drawn, because it keeps state from frame to
    frame (the log turns its pages by what it has shown); the bars above and below keep none,
    and the cave, tokens, particles and effects, which are most of the time, are skipped."""
    if getattr(scene, "show_hud", False):
        scene.hudder.panel(surf, scene.r_panel)


def _palette(make, *, fps, scale, max_frames, tail, share=None):
    """One 255-colour palette for the whole GIF, from a mosaic of sampled frames."""
    from PIL import Image

    samples = [img for _, img in _frames(make, fps=fps, scale=scale, max_frames=max_frames, tail=tail,
                                         sample_every=-16, share=share)]
    if len(samples) > 16:
        idx = sorted({round(k * (len(samples) - 1) / 15) for k in range(16)})
        samples = [samples[k] for k in idx]
    w, h = samples[0].size
    small = [s.resize((max(1, w // 2), max(1, h // 2)), Image.BILINEAR) for s in samples]
    cols = 4
    rows = (len(small) + cols - 1) // cols
    mosaic = Image.new("RGB", (cols * small[0].width, rows * small[0].height))
    for k, s in enumerate(small):
        mosaic.paste(s, ((k % cols) * s.width, (k // cols) * s.height))
    colours = _palette_colours(mosaic, 255)
    colours += colours[:3]          # index 255 (transparent) repeats colour 0; frames never keep it
    out = Image.new("P", (1, 1))
    out.putpalette(colours)
    return out


def quantize(img):
    """An RGB image to 256 colours: an adaptive palette plus the colours that must stay exact
    (teams, categories, fire, hp): for small screenshots."""
    from PIL import Image

    p = Image.new("P", (1, 1))
    p.putpalette(_palette_colours(img, 256))
    return img.quantize(palette=p, dither=Image.Dither.NONE)


def _palette_colours(img, size: int) -> list[int]:
    """``size`` palette colours (flat RGB): an adaptive median-cut palette of ``img`` for all
    but the colours that must stay exact (:func:`_fixed_colours`), which close it."""
    from PIL import Image

    fixed = _fixed_colours()
    n = size - len(fixed)
    pal = img.quantize(colors=n, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    colours = pal.getpalette()[:n * 3]
    colours += [0] * (n * 3 - len(colours))
    for rgb in fixed:
        colours += list(rgb)
    return colours


def _fixed_colours() -> list[tuple[int, int, int]]:
    """Colours the GIF palette must hold exactly, however small their area: teams (and the
    shades of a token), categories, fire, hp bars, text."""
    from sim.maps import palette as P

    out: list[tuple[int, int, int]] = [(0, 0, 0), (255, 255, 255), (240, 240, 240), (20, 16, 16)]
    teams = list(P.TEAM_RGB.values()) + list(P.EXTRA_TEAMS[:2])
    for rgb in teams:
        light = P.mix(rgb, (255, 255, 255), 0.35)
        out += [rgb, P.shade(rgb, 0.42), P.shade(rgb, 0.62), P.mix(P.shade(rgb, 0.62), light, 0.5), light]
    out += list(P.CATEGORY_RGB.values()) + list(P.FIRE) + list(P.HP_COLOURS)
    out += [P.UI_ACCENT, P.UI_BAD, P.UI_GOOD, P.DAMAGE_TEXT, P.HEAL_TEXT, P.CRIT_TEXT, P.SWARM_TEXT, P.MAGIC,
            P.REACH_SINGLE, P.REACH_DOUBLE, P.UI_TEXT, P.UI_DIM, P.UI_BG, P.UI_PANEL, P.UI_EDGE]
    seen, uniq = set(), []
    for c in out:
        c = tuple(int(v) for v in c)
        if c not in seen:
            seen.add(c)
            uniq.append(c)
    return uniq[:64]


def export(make: Callable, out: str | Path, *, fps: float = 10.0, scale: float = 0.75, max_frames: int | None = None,
           tail: float = 3.0, at: float | None = None, still: str | Path | None = None) -> ExportResult:
    """Render the animation of ``make()`` (a fresh (scene, driver) each call) to ``out``.

    ``.gif`` / ``.webp``: the whole fight (``max_frames`` caps it), and with ``still`` its last
    frame at full size as a PNG too; ``.png``: one frame, at ``at`` seconds of animation, or the
    last frame."""
    fmt = check_out(out)
    if still is not None and format_of(still) != "PNG":
        raise DataError(f"{still}: the still frame is written as PNG; give a name ending in .png")
    if still is not None:
        check_out(still)
    last: dict = {}
    init_headless()
    out = Path(out)
    if fps <= 0 or fps > 60:
        raise DataError(f"--fps must be between 1 and 60, got {fps:g}")
    if not (0.1 <= scale <= 2.0):
        raise DataError(f"--scale must be between 0.1 and 2, got {scale:g}")
    if fmt == "PNG":
        return _export_png(make, out, fps=fps, scale=scale, max_frames=max_frames, tail=tail, at=at)
    duration = int(round(1000 / fps))
    if fmt == "GIF":
        share: dict = {}
        pal = _palette(make, fps=fps, scale=scale, max_frames=max_frames, tail=tail, share=share)
        frames = _frames(make, fps=fps, scale=scale, max_frames=max_frames, tail=tail, last=last, share=share,
                         shrink="patches")
        with atomic_path(out) as tmp, open(tmp, "wb") as fh:
            n, size = write_gif_stream(fh, frames, pal, duration_ms=duration)
    else:
        collected = []

        def gen():
            for _, img in _frames(make, fps=fps, scale=scale, max_frames=max_frames, tail=tail, last=last):
                collected.append(img.size)
                yield img

        it = gen()
        first = next(it)
        with atomic_path(out) as tmp:
            first.save(tmp, format="WEBP", save_all=True, append_images=it, duration=duration, loop=0, quality=80,
                       method=4)
        size = first.size
        n = len(collected)
    if still is not None and "surface" in last:
        import pygame
        from PIL import Image

        surf = last["surface"]
        img = Image.frombytes("RGB", surf.get_size(), pygame.image.tobytes(surf, "RGB"))
        with atomic_path(still) as tmp:
            img.save(tmp, format="PNG", compress_level=6)   # optimize=True: 6x the time for 3% less
    return ExportResult(path=out, format=fmt, frames=n, size=size, seconds=n / fps)


def write_gif_stream(fh, frames, pal, *, duration_ms: int) -> tuple[int, tuple[int, int]]:
    """Write an animated GIF to the open binary file ``fh`` one frame at a time, never holding
    more than two frames: every frame (a PIL image, or a :class:`Patch` of the frame before)
    quantised to the shared palette ``pal``; after the first, only the rectangle of pixels that
    changed is stored, unchanged pixels in it as the
    transparent index 255 (disposal 1: each frame draws over the last), and a frame identical
    to the one before adds its duration to it. Returns (frames drawn, size).

    >>> import io
    >>> from PIL import Image
    >>> pal = Image.new("P", (1, 1)); pal.putpalette([0, 0, 0, 255, 255, 255] * 128)
    >>> a, b = Image.new("RGB", (4, 3)), Image.new("RGB", (4, 3)); b.putpixel((1, 1), (255, 255, 255))
    >>> buf = io.BytesIO()
    >>> write_gif_stream(buf, enumerate([a, a, b]), pal, duration_ms=100)
    (3, (4, 3))
    >>> im = Image.open(io.BytesIO(buf.getvalue())); im.n_frames, im.info["loop"]
    (2, 0)
    """
    import numpy as np
    from PIL import Image

    palette = bytes(pal.getpalette()[:768]).ljust(768, b"\0")
    delay = max(1, int(duration_ms / 10))   # hundredths of a second, as Pillow writes them
    prev = None
    pending = None        # (left, top, image data bytes, delay, transparent): written when the next differs
    n = 0
    size = (0, 0)

    def flush(item) -> None:
        left, top, data, cs, transparent = item
        while True:   # a GIF delay holds at most 655.35 s
            d = min(cs, 65535)
            fh.write(b"\x21\xf9\x04" + bytes([(1 << 2) | (1 if transparent else 0)]) + d.to_bytes(2, "little")
                     + bytes([TRANSPARENT if transparent else 0]) + b"\x00")
            fh.write(data[0] + left.to_bytes(2, "little") + top.to_bytes(2, "little") + data[1])
            cs -= d
            if cs <= 0:
                return
            data, left, top, transparent = _gif_blank(), 0, 0, True

    last_img = None
    for _, img in frames:
        n += 1
        if img is last_img and pending is not None:   # a picture held: its duration grows, nothing is encoded
            pending = pending[:3] + (pending[3] + delay, pending[4])
            continue
        last_img = img
        left, top, img = (img.left, img.top, img.image) if isinstance(img, Patch) else (0, 0, img)
        q = img.quantize(palette=pal, dither=Image.Dither.NONE)
        cur = np.array(q)
        cur[cur == TRANSPARENT] = 0   # same colour, so index 255 stays free for "unchanged"
        if prev is None:
            if left or top:
                raise ValueError("the first frame of a GIF must be whole, not a patch")
            size = (cur.shape[1], cur.shape[0])
            fh.write(b"GIF89a" + size[0].to_bytes(2, "little") + size[1].to_bytes(2, "little")
                     + bytes([0xF7, 0, 0]) + palette)
            fh.write(b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")   # loop forever
            pending = (0, 0, _gif_image(cur, palette), delay, False)
            prev = cur
            continue
        region = prev[top:top + cur.shape[0], left:left + cur.shape[1]]   # a view: updated in place below
        changed = cur != region
        if not changed.any():
            pending = pending[:3] + (pending[3] + delay, pending[4])
            continue
        flush(pending)
        rows = np.flatnonzero(changed.any(axis=1))
        cols = np.flatnonzero(changed.any(axis=0))
        r0, r1, c0, c1 = int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1
        delta = np.where(changed, cur, np.uint8(TRANSPARENT))[r0:r1, c0:c1]
        pending = (left + c0, top + r0, _gif_image(np.ascontiguousarray(delta), palette), delay, True)
        region[...] = cur
    if pending is not None:
        flush(pending)
    fh.write(b"\x3b")
    return n, size


def _gif_image(indices, palette: bytes) -> tuple[bytes, bytes]:
    """The image descriptor's opening byte and, after the place where its left and top go, the
    rest of the descriptor and the LZW data of a palette-index array (encoded by Pillow as a
    one-frame GIF, from which the image block is taken)."""
    import io

    from PIL import Image

    im = Image.fromarray(indices, mode="P")
    im.putpalette(list(palette))
    buf = io.BytesIO()
    im.save(buf, format="GIF", optimize=False, interlace=False)
    data = buf.getvalue()
    pos = 13
    flags = data[10]
    gct = b""
    if flags & 0x80:
        n = 3 * (2 << (flags & 7))
        gct = data[pos:pos + n]
        pos += n
    while data[pos] == 0x21:   # skip extensions
        pos += 2
        while data[pos]:
            pos += data[pos] + 1
        pos += 1
    if data[pos] != 0x2C:
        raise RuntimeError("Pillow wrote a GIF without an image block")
    w_h = data[pos + 5:pos + 9]
    local = data[pos + 9]
    body_start = pos + 10
    lct = b""
    if local & 0x80:
        n = 3 * (2 << (local & 7))
        lct = data[body_start:body_start + n]
        body_start += n
    end = body_start + 1
    while data[end]:
        end += data[end] + 1
    body = data[body_start:end + 1]
    table = lct or gct
    if table and table != palette[:len(table)] or (table and len(table) != 768):
        bits = max(1, (len(table) // 3).bit_length() - 1)   # its own palette goes with it as a local table
        return b"\x2c", w_h + bytes([0x80 | (local & 0x40) | (bits - 1)]) + table + body
    return b"\x2c", w_h + bytes([local & 0x40]) + body


def _gif_blank() -> tuple[bytes, bytes]:
    """A 1 x 1 transparent frame (to carry a delay longer than one GIF frame can hold)."""
    import numpy as np

    return _gif_image(np.full((1, 1), TRANSPARENT, dtype=np.uint8), bytes(768))


def _export_png(make, out: Path, *, fps, scale, max_frames, tail, at) -> ExportResult:
    last = None
    n = 0
    stop = None if at is None else int(round(at * fps))
    if stop is not None:   # draw only the frame asked for (issue 19: 20 s -> a few s for --at 12)
        def wanted(i, driver):
            return i >= stop
    else:                  # the last frame: it lies in the tail after the fight's end (or at max_frames)
        def wanted(i, driver):
            return driver.done or (max_frames is not None and i >= max_frames - 1)
    for i, img in _frames(make, fps=fps, scale=scale, max_frames=max_frames if stop is None else stop + 1, tail=tail,
                          wanted=wanted):
        last = img
        n = i + 1
    if last is None:
        raise DataError(f"{out}: no frame to write")
    with atomic_path(out) as tmp:
        # compress level 3: a third of level 6's encode time (0.05 s against 0.15 s) for a file 8% larger
        # (463 KB against 431 KB for the demo at 12 s); the pixels are the same (PNG is lossless)
        last.save(tmp, format="PNG", compress_level=3)
    return ExportResult(path=out, format="PNG", frames=1, size=last.size, seconds=n / fps)
