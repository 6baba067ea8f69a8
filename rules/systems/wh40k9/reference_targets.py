"""Typical enemies for "what does my unit do to a typical X?" (the estimates contract).

Profiles of the usual mathhammer yardsticks of 9th edition: GEQ (a guardsman-like T3 5+
squad), MEQ (Primaris-like T4 3+ W2), TEQ (Terminator-like T4 2+ with a 4++ and W3), a
vehicle (T7 3+ W10) and a monster (T8 3+ W12, 5+ Feel No Pain-free).

**Points are ours.** The booklet prints no points, so these targets carry this project's own
per-model points (`points` below, also in each target's name), chosen near what models of that
profile cost in 9th edition's published lists, so that "points destroyed" and points
efficiency against a reference target mean something. They are not a codex's numbers.
"""

from __future__ import annotations

from typing import Any

from points.catalogue.i18n import gettext_noop


def _target(name: str, *, count: int, points: int, t: int, w: int, sv: int, ld: int, keywords: list[str],
            invuln: int | None = None, ws: int = 4, bs: int = 4, s: int = 3, a: int = 1, m: int = 6
            ) -> dict[str, Any]:
    model: dict[str, Any] = {"name": name, "count": count, "points": points, "m": m, "ws": ws, "bs": bs,
                             "s": s, "t": t, "w": w, "a": a, "ld": ld, "sv": sv, "keywords": keywords,
                             "rules": [], "weapons": []}
    if invuln is not None:
        model["invuln"] = invuln
    return {"format": 1, "system": "wh40k9", "name": name, "models": [model]}


REFERENCE_TARGETS: dict[str, dict[str, Any]] = {
    "geq-10": _target(gettext_noop("GEQ squad (10 × T3 W1 5+, our 6 pts each)"), count=10, points=6,
                      t=3, w=1, sv=5, ld=6, keywords=["INFANTRY"]),
    "meq-5": _target(gettext_noop("MEQ squad (5 × T4 W2 3+, our 20 pts each)"), count=5, points=20,
                     t=4, w=2, sv=3, ld=7, keywords=["INFANTRY"], ws=3, bs=3, s=4, a=2),
    "teq-5": _target(gettext_noop("TEQ squad (5 × T4 W3 2+/4++, our 40 pts each)"), count=5, points=40,
                     t=4, w=3, sv=2, invuln=4, ld=8, keywords=["INFANTRY", "TERMINATOR"],
                     ws=3, bs=3, s=4, a=2, m=5),
    "vehicle": _target(gettext_noop("Vehicle (T7 W10 3+, our 140 pts)"), count=1, points=140,
                       t=7, w=10, sv=3, ld=8, keywords=["VEHICLE"], ws=6, bs=3, s=6, a=3, m=12),
    "monster": _target(gettext_noop("Monster (T8 W12 3+, our 200 pts)"), count=1, points=200,
                       t=8, w=12, sv=3, ld=8, keywords=["MONSTER"], ws=3, bs=4, s=7, a=4, m=8),
}
