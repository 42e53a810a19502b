"""The pitch's marks against its grounds, by WCAG 2.1's contrast ratio, with the colours read
from the style sheet itself: a focus ring at 3:1 or more on every square, a state's ring at 3:1
against the token it outlines, a written mark (P/S, a square's odds) told from every ground by
its halo at 3:1 and from its halo at 4.5:1."""

import re
from pathlib import Path

import pytest
from django.conf import settings

CSS = Path(settings.BASE_DIR) / "static" / "css" / "bbweb.css"
NON_TEXT = 3.0  # WCAG 2.1 SC 1.4.11: focus rings and state marks
TEXT = 4.5  # SC 1.4.3: small text, against the halo it is drawn in
OPACITIES = (1.0, 0.7, 0.55)  # a token's body as drawn: fresh, acted, prone or stunned


def _rules() -> dict[str, dict[str, str]]:
    text = re.sub(r"/\*.*?\*/", "", CSS.read_text(), flags=re.S)
    rules: dict[str, dict[str, str]] = {}
    for block in re.finditer(r"([^{}]+)\{([^{}]*)\}", text):
        for selector in block.group(1).split(","):
            declarations = rules.setdefault(" ".join(selector.split()), {})
            for pair in block.group(2).split(";"):
                if ":" in pair:
                    name, value = pair.split(":", 1)
                    declarations[name.strip()] = value.strip()
    return rules


RULES = _rules()


def colour(selector: str, prop: str) -> str:
    value = RULES[selector][prop]
    variable = re.fullmatch(r"var\((--[\w-]+)\)", value)
    value = RULES[":root"][variable.group(1)] if variable else value
    assert re.fullmatch(r"#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?", value), (selector, prop, value)
    return value


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    h = "".join(c * 2 for c in h) if len(h) == 3 else h
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def luminance(hex_colour: str) -> float:
    """WCAG 2.1's relative luminance."""
    channels = [c / 255 for c in _rgb(hex_colour)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def over(fg: str, opacity: float, bg: str) -> str:
    """``fg`` drawn at ``opacity`` on ``bg``: the colour the eye sees."""
    mixed = (
        round(opacity * f + (1 - opacity) * b) for f, b in zip(_rgb(fg), _rgb(bg), strict=True)
    )
    return "#" + "".join(f"{c:02x}" for c in mixed)


GROUNDS = {
    "margin": colour(".pitch", "background"),
    "square": colour(".pitch .cell", "fill"),
    "other square": colour(".pitch .cell:nth-child(2n)", "fill"),
    "end zone": colour(".pitch .cell.zone-endzone", "fill"),
    "wide zone": colour(".pitch .cell.zone-wide", "fill"),
}
REACH_OPACITY = float(RULES[".overlay .mark-reach rect"]["fill-opacity"])
SHADED = {
    f"{ground} shaded {risk}": over(
        colour(f".overlay .mark-reach.{risk} rect", "fill"), REACH_OPACITY, c
    )
    for ground, c in GROUNDS.items()
    for risk in ("sure", "likely", "even", "long")
}
BODIES = {
    f"{team} at {opacity:.0%} on the {ground}": over(
        colour(f".token.team-{team} .body", "fill"), opacity, c
    )
    for team in ("home", "away")
    for opacity in OPACITIES
    for ground, c in GROUNDS.items()
}


def test_the_formula_gives_wcags_known_figures() -> None:
    assert contrast("#000", "#fff") == pytest.approx(21.0)
    assert contrast("#777", "#fff") == pytest.approx(4.48, abs=0.01)
    assert contrast("#3f8f3a", "#3f8f3a") == 1.0


@pytest.mark.parametrize(
    "selector", [".pitch .cell:focus", ".pitch .token:focus", ".pitch .token:focus .body"]
)
def test_a_focus_ring_stands_out_on_every_ground(selector: str) -> None:
    if "stroke" not in RULES[selector]:
        pytest.fail(f"{selector} draws no ring")
    ring = colour(selector, "stroke")
    for ground, c in GROUNDS.items():
        assert contrast(ring, c) >= NON_TEXT, (selector, ground, round(contrast(ring, c), 2))


@pytest.mark.parametrize(
    "selector",
    [
        ".token .body",
        ".token.mine.can-act .body",
        ".token.selected .body",
        ".token.state-stunned .body",
    ],
)
def test_a_tokens_state_ring_stands_out_against_the_token_it_outlines(selector: str) -> None:
    ring = colour(selector, "stroke")
    for body, c in BODIES.items():
        assert contrast(ring, c) >= NON_TEXT, (selector, body, round(contrast(ring, c), 2))


def test_a_can_act_ring_is_edged_by_a_halo_told_from_every_ground_and_from_the_ring() -> None:
    halo = colour(".token .halo", "fill")
    ring = colour(".token.mine.can-act .body", "stroke")
    assert contrast(halo, ring) >= NON_TEXT, round(contrast(halo, ring), 2)
    for ground, c in GROUNDS.items():
        assert contrast(halo, c) >= NON_TEXT, (ground, round(contrast(halo, c), 2))


@pytest.mark.parametrize(
    ("selector", "grounds"),
    [
        (".pitch .state-mark", GROUNDS),
        (".overlay .odds", GROUNDS | SHADED),
        (".overlay .mark-dice .dice", GROUNDS),
    ],
)
def test_a_written_mark_is_told_from_every_ground_by_its_halo(
    selector: str, grounds: dict[str, str]
) -> None:
    glyph, halo = colour(selector, "fill"), colour(selector, "stroke")
    assert RULES[selector].get("paint-order") == "stroke"  # the halo is drawn beneath the glyph
    assert contrast(glyph, halo) >= TEXT, (selector, round(contrast(glyph, halo), 2))
    for ground, c in grounds.items():
        assert contrast(halo, c) >= NON_TEXT, (selector, ground, round(contrast(halo, c), 2))
