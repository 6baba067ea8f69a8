"""How a pasted list's line is cut into pieces and its names compared, for every text reader
(`text`: unit lines; `text_configuration`: our export's configuration line)."""

from __future__ import annotations

import re

#: A price as lists write it, in any of our interface languages ("120 pts", "120 pkt", "120 b.",
#: "120 очк."): its number is the group `pts`.
POINTS = r"(?P<pts>\d+(?:\.\d+)?)\s*(?:pts?|points?|pkt|p|b|bodů|body|очк\w*)\.?"

_COUNT = re.compile(r"^(?P<n>\d+)\s*[x×]\s*(?P<rest>.+)$", re.I)


def pieces(text: str) -> list[str]:
    """`a, b (x, y), c` -> ["a", "b (x, y)", "c"]: commas inside brackets do not split."""
    found, depth, current = [], 0, ""
    for char in text:
        depth += (char in "([" and 1) or (-1 if char in ")]" else 0)
        if char == "," and depth <= 0:
            found.append(current.strip())
            current = ""
        else:
            current += char
    if current.strip():
        found.append(current.strip())
    return [p for p in found if p]


def counted(piece: str) -> tuple[int, str]:
    """`"4x Rifle"` -> (4, "Rifle"); a piece without a count is one."""
    match = _COUNT.match(piece)
    if match:
        return int(match["n"]), match["rest"].strip()
    return 1, piece


def name_key(name: str) -> str:
    """A name as two texts are compared: lower case, single spaces, brackets left out."""
    return " ".join(re.sub(r"\([^)]*\)", "", name).lower().split())
