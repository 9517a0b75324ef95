"""Pure easing functions on ``t`` in [0, 1] (STYLE habit 11: tweens are functions of time).

>>> [round(f(0.5), 3) for f in (linear, smoothstep, ease_in_out_cubic, ease_out_cubic)]
[0.5, 0.5, 0.5, 0.875]
>>> ease_out_back(1.0), ease_in_out_cubic(0.0), ease_in_out_cubic(1.0)
(1.0, 0.0, 1.0)
>>> lerp(10, 20, 0.25)
12.5
"""

from __future__ import annotations

import math


def clamp01(t: float) -> float:
    return 0.0 if t <= 0.0 else 1.0 if t >= 1.0 else float(t)


def lerp(a: float, b: float, t: float) -> float:
    return a + (b - a) * t


def linear(t: float) -> float:
    return clamp01(t)


def smoothstep(t: float) -> float:
    t = clamp01(t)
    return t * t * (3.0 - 2.0 * t)


def ease_in_cubic(t: float) -> float:
    t = clamp01(t)
    return t * t * t


def ease_out_cubic(t: float) -> float:
    t = clamp01(t)
    return 1.0 - (1.0 - t) ** 3


def ease_in_out_cubic(t: float) -> float:
    t = clamp01(t)
    return 4.0 * t * t * t if t < 0.5 else 1.0 - (-2.0 * t + 2.0) ** 3 / 2.0


def ease_out_back(t: float, s: float = 1.70158) -> float:
    t = clamp01(t)
    u = t - 1.0
    return 1.0 + (s + 1.0) * u ** 3 + s * u * u


def ease_out_quad(t: float) -> float:
    t = clamp01(t)
    return 1.0 - (1.0 - t) * (1.0 - t)


def pulse(t: float) -> float:
    """0 -> 1 -> 0 over [0, 1] (a sine hump), for flashes and lunges.

    >>> pulse(0.0), pulse(0.5), round(pulse(1.0), 9)
    (0.0, 1.0, 0.0)
    """
    return math.sin(math.pi * clamp01(t))


def lunge(t: float) -> float:
    """Out fast, back slower: the shape of a strike (peak at t = 0.35)."""
    t = clamp01(t)
    if t < 0.35:
        return ease_out_cubic(t / 0.35)
    return 1.0 - ease_in_out_cubic((t - 0.35) / 0.65)


def fade(t: float, fade_in: float = 0.15, fade_out: float = 0.25) -> float:
    """Opacity of something that fades in, holds and fades out over [0, 1].

    >>> fade(0.5), fade(0.0), fade(1.0)
    (1.0, 0.0, 0.0)
    """
    t = clamp01(t)
    if fade_in > 0 and t < fade_in:
        return t / fade_in
    if fade_out > 0 and t > 1.0 - fade_out:
        return max(0.0, (1.0 - t) / fade_out)
    return 1.0
