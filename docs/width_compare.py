"""The imported-widths comparison of docs/imported-widths.md: two imports of the same files (one by
the old measure, one by the new), per size the floor squares whose category changed, and the two
overlays side by side over the map's picture.

    python docs/width_compare.py OLD_DIR NEW_DIR NAME [NAME ...] --size large --out docs/images

OLD_DIR and NEW_DIR hold ``NAME.toml`` (and its picture ``NAME.png``) written by ``cavesim import``.
Prints a Markdown table per map; writes ``widths-NAME-SIZE.png`` (old left, new right).
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from sim.maps.read import load_map
from sim.rules.bodies import body_for
from sim.rules.sizes import Size
from sim.terrain.classify import classify


def changed(old, new) -> list[tuple[str, int, int]]:
    """Per size: (size, floor squares in either map, squares whose category differs)."""
    out = []
    for size in Size:
        body = body_for(size.name.lower())
        a, b = classify(old, body), classify(new, body)
        floor = ~old.rock | ~new.rock
        out.append((size.name.lower(), int(floor.sum()), int(((a != b) & floor).sum())))
    return out


def side_by_side(old_toml: Path, new_toml: Path, size: str, out: Path) -> None:
    with tempfile.TemporaryDirectory() as d:
        tiles = []
        for label, toml in (("old", old_toml), ("new", new_toml)):
            ov = Path(d) / f"{label}.png"
            subprocess.run(["cavesim", "export", str(toml), "--to", "overlay", "--size", size, str(ov)], check=True,
                           capture_output=True)
            over = Image.open(ov).convert("RGBA")
            base = Image.open(toml.with_suffix(".png")).convert("RGBA").resize(over.size)
            tile = Image.alpha_composite(base, over)
            ImageDraw.Draw(tile).text((8, 8), f"{label} measure, {size}", fill=(255, 255, 255, 255),
                                      stroke_width=2, stroke_fill=(0, 0, 0, 255))
            tiles.append(tile)
        w, h = tiles[0].size
        scale = min(1.0, 700 / w)
        tiles = [t.resize((int(w * scale), int(h * scale))) for t in tiles]
        sheet = Image.new("RGBA", (2 * tiles[0].width + 10, tiles[0].height), (255, 255, 255, 255))
        sheet.paste(tiles[0], (0, 0))
        sheet.paste(tiles[1], (tiles[0].width + 10, 0))
        sheet.convert("RGB").quantize(colors=256, dither=Image.Dither.NONE).save(out, optimize=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("names", nargs="+")
    ap.add_argument("--size", default="large")
    ap.add_argument("--out", type=Path, default=Path("docs/images"))
    args = ap.parse_args()
    for name in args.names:
        old, new = load_map(args.old / f"{name}.toml"), load_map(args.new / f"{name}.toml")
        print(f"\n{name}: floor {int((~old.rock).sum())} squares before, {int((~new.rock).sum())} after; "
              f"widths changed in {int((np.abs(old.width_ft - new.width_ft) > 1e-9).sum())} squares\n")
        print("| size | floor squares | category changed |\n|---|---:|---:|")
        for size, n, k in changed(old, new):
            print(f"| {size} | {n} | {k} |")
        side_by_side(args.old / f"{name}.toml", args.new / f"{name}.toml", args.size,
                     args.out / f"widths-{name}-{args.size}.png")


if __name__ == "__main__":
    main()
