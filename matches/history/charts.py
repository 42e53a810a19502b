"""Line charts drawn on the server as SVG: the figures in, the points of each line out, with
the ticks of both axes, in a box the template draws (with the same figures as a table)."""

from collections.abc import Sequence
from dataclasses import dataclass

# The box in SVG units; the left margin holds the value axis' labels ("1,000,000 gp"), the
# bottom one the match numbers and the axis' name. At 390 px the box is drawn about 340 px
# wide, so a font of 11 units reads as about 11 px.
WIDTH, HEIGHT = 360, 160
LEFT, RIGHT, TOP, BOTTOM = 84, 12, 12, 36
MAX_MATCH_TICKS = 8


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    value: int
    label: str  # what the figure belongs to (the match), for the table and the dot's title


@dataclass(frozen=True)
class Chart:
    points: str  # "x,y x,y ...", for a <polyline>
    dots: list[Dot]
    low: int
    high: int
    value_ticks: list[tuple[float, int]]  # (y, value) on the left axis
    match_ticks: list[tuple[float, int]]  # (x, the match's number) under the bottom axis
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM


def line_chart(values: Sequence[int], labels: Sequence[str] = ()) -> Chart:
    """The values left to right (match 1, 2 ...), the lowest at the bottom and the highest at
    the top (a flat line in the middle when they are all equal)."""
    low, high = (min(values), max(values)) if values else (0, 0)
    span = high - low
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = inner_w / max(len(values) - 1, 1)

    def y_of(value: int) -> float:
        middle = TOP + inner_h / 2
        return round(middle if span == 0 else TOP + inner_h - (value - low) * inner_h / span, 1)

    dots = [
        Dot(round(LEFT + i * step, 1), y_of(value), value, labels[i] if i < len(labels) else "")
        for i, value in enumerate(values)
    ]
    every = -(-len(values) // MAX_MATCH_TICKS)  # at most MAX_MATCH_TICKS numbers under the axis
    match_ticks = [(dot.x, i + 1) for i, dot in enumerate(dots) if i % every == 0] if dots else []
    value_ticks = [(y_of(high), high)] if span == 0 else [(y_of(high), high), (y_of(low), low)]
    return Chart(
        " ".join(f"{dot.x},{dot.y}" for dot in dots), dots, low, high, value_ticks, match_ticks
    )
