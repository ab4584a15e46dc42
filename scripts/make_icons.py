"""Draw the 36 Ici Londres icons as SVG files for the television's board
(voice_host/host/companion/static/icons/<name>.svg), in one style: line drawings on a 64x64
grid, a light stroke 3.5 units wide with round ends, and a few parts filled in the board's
gold or red. The drawings are this project's own; the names are the engine's
(voice_host/games/icons.py). Run it again after changing a drawing:

    python scripts/make_icons.py [--check]

``--check`` writes nothing and fails when a file differs from what the script draws (the
test suite runs it)."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from xml.sax.saxutils import quoteattr

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "voice_host" / "host" / "companion" / "static" / "icons"
INK = "#f4f1ea"
GOLD = "#f2c14e"
RED = "#e0584f"

Shape = tuple[str, dict[str, object]]


def path(d: str, fill: str = "none") -> Shape:
    return ("path", {"d": d, "fill": fill})


def circle(cx: float, cy: float, r: float, fill: str = "none") -> Shape:
    return ("circle", {"cx": cx, "cy": cy, "r": r, "fill": fill})


def dot(cx: float, cy: float, r: float = 2.2) -> Shape:
    return ("circle", {"cx": cx, "cy": cy, "r": r, "fill": INK, "stroke": "none"})


def ellipse(cx: float, cy: float, rx: float, ry: float, fill: str = "none") -> Shape:
    return ("ellipse", {"cx": cx, "cy": cy, "rx": rx, "ry": ry, "fill": fill})


def line(*points: float) -> Shape:
    pairs = [f"{points[i]:g} {points[i + 1]:g}" for i in range(0, len(points), 2)]
    return path("M" + " L".join(pairs))


def star_points(cx: float, cy: float, outer: float, inner: float, n: int = 5) -> str:
    out = []
    for i in range(2 * n):
        r = outer if i % 2 == 0 else inner
        a = -math.pi / 2 + i * math.pi / n
        out.append(f"{cx + r * math.cos(a):.1f} {cy + r * math.sin(a):.1f}")
    return "M" + " L".join(out) + " Z"


def rays(cx: float, cy: float, r1: float, r2: float, n: int) -> list[Shape]:
    shapes = []
    for i in range(n):
        a = i * 2 * math.pi / n
        shapes.append(line(round(cx + r1 * math.cos(a), 1), round(cy + r1 * math.sin(a), 1),
                           round(cx + r2 * math.cos(a), 1), round(cy + r2 * math.sin(a), 1)))
    return shapes


ICONS: dict[str, list[Shape]] = {
    "heart": [path("M32 53 C14 41 7 31 9 21 C11 12 24 9 32 19 C40 9 53 12 55 21 "
                   "C57 31 50 41 32 53 Z", RED)],
    "book": [path("M6 16 C14 12 24 12 32 18 C40 12 50 12 58 16 V50 C50 46 40 46 32 52 "
                  "C24 46 14 46 6 50 Z"), line(32, 18, 32, 52),
             path("M12 22 C17 20 22 20 26 23"), path("M38 23 C42 20 47 20 52 22")],
    "bell": [path("M18 44 V30 C18 21 24 15 32 15 C40 15 46 21 46 30 V44 L50 48 H14 Z"),
             circle(32, 53, 3.5, GOLD), line(32, 15, 32, 10)],
    "key": [circle(19, 32, 10), dot(19, 32, 2.5), line(29, 32, 57, 32), line(50, 32, 50, 41),
            line(56, 32, 56, 39)],
    "elephant": [path("M10 48 V32 C10 22 18 18 28 18 C38 18 46 22 46 32 V48"),
                 path("M46 28 C55 28 57 38 55 48 C54 52 50 52 50 48"),
                 path("M20 24 C15 29 18 37 27 37 C31 33 31 26 26 22"), dot(38, 27),
                 line(18, 48, 18, 54), line(38, 48, 38, 54)],
    "anchor": [circle(32, 11, 4.5), line(32, 16, 32, 55), line(22, 24, 42, 24),
               path("M11 38 C13 48 21 55 32 55 C43 55 51 48 53 38"),
               line(7, 43, 11, 37, 17, 41), line(57, 43, 53, 37, 47, 41)],
    "star": [path(star_points(32, 33, 25, 10.5), GOLD)],
    "candle": [path("M23 30 H41 V56 H23 Z"), line(32, 25, 32, 30),
               path("M32 8 C37 14 39 19 32 25 C25 19 27 14 32 8 Z", GOLD),
               path("M41 38 C44 40 44 44 41 45")],
    "rose": [path("M32 30 C21 30 19 20 23 13 C27 17 29 13 32 9 C35 13 37 17 41 13 "
                  "C45 20 43 30 32 30 Z", RED), path("M27 19 C30 23 34 23 37 19"),
             line(32, 30, 32, 57), path("M32 45 C25 40 19 42 17 47 C23 49 28 49 32 45 Z"),
             path("M32 40 C37 36 43 37 45 41 C40 43 36 43 32 40 Z")],
    "feather": [path("M52 8 C31 12 18 29 16 52 C35 48 50 32 52 8 Z"), line(10, 58, 42, 20),
                path("M22 40 H30"), path("M28 32 H38"), path("M34 24 H44")],
    "glass": [path("M19 8 H45 C45 23 41 32 32 32 C23 32 19 23 19 8 Z"),
              path("M21 17 H43 C42 26 38 30 32 30 C26 30 22 26 21 17 Z", RED),
              line(32, 32, 32, 52), line(21, 55, 43, 55)],
    "tower": [path("M20 56 V22 H44 V56"),
              path("M17 22 V11 H24 V16 H29 V11 H35 V16 H40 V11 H47 V22"),
              path("M27 56 V46 C27 41 37 41 37 46 V56"), path("M29 28 H35 V35 H29 Z")],
    "ladder": [line(20, 6, 20, 58), line(44, 6, 44, 58), line(20, 15, 44, 15),
               line(20, 26, 44, 26), line(20, 37, 44, 37), line(20, 48, 44, 48)],
    "compass": [circle(32, 32, 24), path("M32 12 L38 32 H26 Z", GOLD),
                path("M26 32 H38 L32 52 Z"), dot(32, 32, 2.5),
                line(32, 4, 32, 8), line(60, 32, 56, 32), line(32, 60, 32, 56),
                line(4, 32, 8, 32)],
    "mouse": [path("M8 46 C12 32 26 26 38 30 L55 40 C52 45 48 46 44 46 Z"), circle(35, 25, 6),
              dot(45, 37), path("M8 46 C2 50 4 57 12 55 C18 53 22 56 22 58")],
    "owl": [ellipse(32, 37, 17, 20), circle(25, 31, 5.5), circle(39, 31, 5.5), dot(25, 31),
            dot(39, 31), path("M30 39 L32 44 L34 39 Z", GOLD), line(17, 23, 20, 11, 27, 19),
            line(47, 23, 44, 11, 37, 19), path("M24 50 C28 53 36 53 40 50")],
    "pipe": [path("M10 28 H28 V41 C28 50 10 50 10 41 Z"), path("M28 33 L55 25 V30 L28 38"),
             path("M17 22 C13 18 22 16 18 10"), path("M23 22 C20 19 27 17 24 12")],
    "umbrella": [path("M7 32 C7 18 19 9 32 9 C45 9 57 18 57 32 C53 28 47 28 44 32 C41 28 35 28 "
                      "32 32 C29 28 23 28 20 32 C17 28 11 28 7 32 Z", RED),
                 path("M32 32 V50 C32 57 23 57 23 50"), line(32, 9, 32, 5)],
    "lightning": [path("M37 5 L15 36 H30 L25 59 L49 26 H34 L41 5 Z", GOLD)],
    "violin": [path("M32 24 C24 24 21 30 26 35 C19 37 19 49 26 53 C29 55 35 55 38 53 "
                    "C45 49 45 37 38 35 C43 30 40 24 32 24 Z"), line(32, 24, 32, 7),
               circle(32, 6, 2.5), path("M27 41 C26 43 26 45 27 47"),
               path("M37 41 C38 43 38 45 37 47"), line(47, 58, 57, 18)],
    "moon": [path("M40 8 A24 24 0 1 0 56 42 A19 19 0 1 1 40 8 Z", GOLD)],
    "boat": [path("M6 40 H58 L49 53 H15 Z"), line(32, 40, 32, 7),
             path("M35 9 L53 36 H35 Z"), path("M29 14 L13 36 H29 Z")],
    "cat": [path("M16 27 L17 9 L28 19 H36 L47 9 L48 27 C52 42 44 53 32 53 C20 53 12 42 16 27 Z"),
            ellipse(25, 32, 2.5, 3.5, INK), ellipse(39, 32, 2.5, 3.5, INK),
            path("M30 39 H34 L32 42 Z", RED), line(20, 41, 8, 39), line(20, 44, 9, 47),
            line(44, 41, 56, 39), line(44, 44, 55, 47)],
    "wolf": [path("M32 57 L17 41 L11 9 L24 22 H40 L53 9 L47 41 Z"),
             line(23, 32, 28, 34), line(41, 32, 36, 34), path("M27 46 L32 51 L37 46 Z", INK),
             line(32, 34, 32, 46)],
    "spider": [circle(32, 37, 8.5), circle(32, 24, 5), line(32, 19, 32, 4),
               path("M24 33 C16 28 12 26 6 30"), path("M24 37 C16 36 10 38 6 44"),
               path("M25 41 C19 44 15 50 14 56"), path("M27 30 C22 22 16 18 10 18"),
               path("M40 33 C48 28 52 26 58 30"), path("M40 37 C48 36 54 38 58 44"),
               path("M39 41 C45 44 49 50 50 56"), path("M37 30 C42 22 48 18 54 18")],
    "apple": [path("M32 21 C24 14 11 16 11 32 C11 46 21 57 32 52 C43 57 53 46 53 32 "
                   "C53 16 40 14 32 21 Z", RED), path("M32 21 C32 14 34 10 37 7"),
              path("M35 15 C38 9 46 8 49 12 C43 16 39 17 35 15 Z", GOLD)],
    "egg": [path("M32 7 C20 7 12 28 12 38 C12 50 21 57 32 57 C43 57 52 50 52 38 "
                 "C52 28 44 7 32 7 Z"), path("M20 36 C20 30 22 24 25 20")],
    "fish": [path("M6 32 C16 17 37 17 47 32 C37 47 16 47 6 32 Z"), path("M47 32 L59 21 V43 Z"),
             dot(17, 30, 2.5), path("M26 24 C29 29 29 35 26 40")],
    "rabbit": [circle(32, 41, 14), path("M26 29 C19 15 21 5 26 5 C31 5 32 16 30 28"),
               path("M38 29 C45 15 43 5 38 5 C33 5 32 16 34 28"), dot(26, 39), dot(38, 39),
               path("M30 46 H34 L32 49 Z", RED)],
    "mirror": [ellipse(32, 24, 16, 18), ellipse(32, 24, 11, 13),
               line(32, 42, 32, 58), line(25, 16, 29, 12), line(25, 22, 34, 13)],
    "crown": [path("M10 47 L7 17 L21 31 L32 11 L43 31 L57 17 L54 47 Z", GOLD),
              line(10, 54, 54, 54), circle(32, 38, 3, RED)],
    "skull": [path("M13 30 C13 16 21 7 32 7 C43 7 51 16 51 30 C51 38 47 42 44 44 V53 H20 V44 "
                   "C17 42 13 38 13 30 Z"), circle(24, 29, 5, INK), circle(40, 29, 5, INK),
              path("M30 39 L32 35 L34 39 Z", INK), line(26, 46, 26, 53), line(32, 46, 32, 53),
              line(38, 46, 38, 53)],
    "sun": [circle(32, 32, 11, GOLD), *rays(32, 32, 17, 26, 8)],
    "sword": [path("M32 4 L36 10 V40 H28 V10 Z"), line(19, 40, 45, 40), line(32, 40, 32, 53),
              circle(32, 56, 3, GOLD)],
    "clock": [circle(32, 32, 25), line(32, 32, 32, 16), line(32, 32, 43, 39), dot(32, 32, 2.5),
              line(32, 9, 32, 12), line(55, 32, 52, 32), line(32, 55, 32, 52),
              line(9, 32, 12, 32)],
    "snake": [path("M10 52 C10 41 23 41 32 45 C41 49 53 48 53 38 C53 28 41 28 32 32 "
                   "C23 36 11 34 11 24 C11 15 22 12 34 14"), ellipse(39, 14, 6.5, 4.5, INK),
              ("path", {"d": "M45 14 L52 11 M45 14 L52 17", "stroke": RED,
                        "stroke_width": 2.5})],
}


def draw(name: str, shapes: list[Shape]) -> str:
    """One icon as an SVG document (its English name as its title; the page names it in the
    game's language)."""
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" '
             f'height="64" role="img" fill="none" stroke="{INK}" stroke-width="3.5" '
             'stroke-linecap="round" stroke-linejoin="round">', f"<title>{name}</title>"]
    for tag, attrs in shapes:
        text = " ".join(f"{k.replace('_', '-')}={quoteattr(str(v))}" for k, v in attrs.items()
                        if not (k == "fill" and v == "none"))
        parts.append(f"<{tag} {text}/>")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; fail when a file differs from its drawing")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from voice_host.games.icons import ICON_NAMES

    missing = set(ICON_NAMES) ^ set(ICONS)
    if missing:
        print(f"drawings and icons differ: {sorted(missing)}", file=sys.stderr)
        return 1
    stale = []
    args.out.mkdir(parents=True, exist_ok=True)
    for name in ICON_NAMES:
        target = args.out / f"{name}.svg"
        text = draw(name, ICONS[name])
        if args.check:
            if not target.is_file() or target.read_text(encoding="utf-8") != text:
                stale.append(target.name)
        else:
            target.write_text(text, encoding="utf-8")
    if stale:
        print(f"out of date (run scripts/make_icons.py): {', '.join(stale)}", file=sys.stderr)
        return 1
    print(f"{len(ICON_NAMES)} icons {'checked' if args.check else 'written'} in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
