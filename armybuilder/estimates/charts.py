"""Server-rendered SVG charts of an estimate: no JavaScript, so they print and export too.

Each function returns a complete `<svg>` element as a string, with a `<title>` and
`<desc>` for screen readers and a text label on every bar.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

WIDTH = 560
HEIGHT = 220
MARGIN_LEFT = 40
MARGIN_BOTTOM = 28
MARGIN_TOP = 14


def at_least(distribution: Sequence[float]) -> list[float]:
    """P(X ≥ k) for every k, from P(X = k): the tail sums, clamped to [0, 1]."""
    tails: list[float] = []
    running = 0.0
    for p in reversed(distribution):
        running += p
        tails.append(min(1.0, max(0.0, running)))
    return list(reversed(tails))


def bar_chart(values: Sequence[float], *, title: str, description: str, x_label: str,
              css_class: str = "chart", offset: int = 0, decimal_separator: str = ".") -> str:
    """Bars of probabilities 0..1 for k = 0, 1, 2, ..., with the percentage over each bar;
    bar k is labelled `offset + k` (a distribution that starts below zero).

    Labels come translated and `decimal_separator` from the caller's locale (this module
    stays free of Django)."""
    n = max(1, len(values))
    plot_w = WIDTH - MARGIN_LEFT - 10
    plot_h = HEIGHT - MARGIN_BOTTOM - MARGIN_TOP
    step = plot_w / n
    bar_w = max(2.0, step * 0.8)
    parts = [
        f'<svg class="{escape(css_class)}" role="img" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="xMidYMid meet">',
        f"<title>{escape(title)}</title><desc>{escape(description)}</desc>",
        f'<line x1="{MARGIN_LEFT}" y1="{MARGIN_TOP + plot_h}" x2="{WIDTH - 10}" y2="{MARGIN_TOP + plot_h}" '
        'stroke="#1b1f24" stroke-width="1"/>',
    ]
    for fraction in (0.25, 0.5, 0.75, 1.0):
        y = MARGIN_TOP + plot_h * (1 - fraction)
        parts.append(f'<line x1="{MARGIN_LEFT}" y1="{y:.1f}" x2="{WIDTH - 10}" y2="{y:.1f}" stroke="#c9d0d8" '
                     'stroke-dasharray="3 3"/>')
        parts.append(f'<text x="{MARGIN_LEFT - 4}" y="{y + 4:.1f}" font-size="10" text-anchor="end">'
                     f"{int(fraction * 100)}%</text>")
    label_every = max(1, n // 20)
    for k, value in enumerate(values):
        value = min(1.0, max(0.0, float(value)))
        h = plot_h * value
        x = MARGIN_LEFT + k * step + (step - bar_w) / 2
        y = MARGIN_TOP + plot_h - h
        percent = f"{value * 100:.1f}".replace(".", decimal_separator)
        parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar_w:.1f}" height="{h:.1f}" fill="#1d4ed8">'
                     f"<title>{k + offset}: {percent}%</title></rect>")
        if k % label_every == 0:
            parts.append(f'<text x="{x + bar_w / 2:.1f}" y="{HEIGHT - MARGIN_BOTTOM + 12}" font-size="10" '
                         f'text-anchor="middle">{k + offset}</text>')
        if value >= 0.005 and n <= 24:
            parts.append(f'<text x="{x + bar_w / 2:.1f}" y="{y - 2:.1f}" font-size="9" text-anchor="middle">'
                         f"{value * 100:.0f}%</text>")
    parts.append(f'<text x="{MARGIN_LEFT + plot_w / 2:.1f}" y="{HEIGHT - 4}" font-size="11" '
                 f'text-anchor="middle">{escape(x_label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


#: A heat-map cell is coloured by a class (`heat-0` … `heat-20` in static/css/site.css),
#: not a `style=` attribute, so the pages' CSP needs no 'unsafe-inline' for styles.
HEAT_STEPS = 20


def heat_step(value: float, best: float) -> int:
    """The cell's shade, 0 (white) to `HEAT_STEPS` (the best value's green)."""
    share = 0.0 if best <= 0 else max(0.0, min(1.0, value / best))
    return round(share * HEAT_STEPS)


def heat_colour(value: float, best: float) -> str:
    """A white-to-green background for a matrix cell, scaled to the best value of the matrix."""
    share = 0.0 if best <= 0 else max(0.0, min(1.0, value / best))
    # From #ffffff to #4ade80 (green-400); text stays dark, so contrast holds at every shade.
    r = round(255 - (255 - 0x4A) * share)
    g = round(255 - (255 - 0xDE) * share)
    b = round(255 - (255 - 0x80) * share)
    return f"#{r:02x}{g:02x}{b:02x}"
