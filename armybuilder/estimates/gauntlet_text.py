"""The gauntlet's figures in a player's words: one sentence per figure of a unit, and the rows
the editor shows (the panel's table and each unit row), with their bars and percentages.

Read from a unit's row of `gauntlet.measure`; the chances' wording is the system's own
(`GameSystem.combat_chances`), so nothing here names a system.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from rules.systems.registry import GameSystem


def percent(value: float) -> str:
    """A chance as a player reads it: "46%" ("<1%" for a chance that is not nothing)."""
    rounded = round(100 * value)
    return "<1%" if rounded == 0 and value > 0 else f"{rounded}%"


def unit_sentences(row: Mapping[str, Any], *, system: GameSystem, per_model: bool) -> list[str]:
    """Every figure of a unit's gauntlet row explained, one sentence each: its offence with its
    best and worst target, its durability, its figures per wound (a system that counts wounds)
    and the chances of its fights the system reports."""
    unit = row["name"]
    offence = {"unit": unit, "value": f"{row['offence_per_point']:.2f}",
               "best": row["best_target"], "worst": row["worst_target"]}
    if per_model:
        sentences = [_("Against the gauntlet, %(unit)s slays %(value)s enemy models per model a turn; "
                       "best against %(best)s, worst against %(worst)s.") % offence]
    else:
        sentences = [_("Against the gauntlet, %(unit)s destroys %(value)s of its points a turn; "
                       "best against %(best)s, worst against %(worst)s.") % offence]
    durability = row.get("durability_per_point")
    if durability is None:
        sentences.append(_("The gauntlet's attacks destroy none of %(unit)s in a turn.") % {"unit": unit})
    elif per_model:
        sentences.append(_("To destroy %(unit)s in a turn, the gauntlet needs %(value)s of its models "
                           "for each model of this unit; higher is tougher.")
                         % {"unit": unit, "value": f"{durability:.1f}"})
    else:
        sentences.append(_("To destroy %(unit)s in a turn, the gauntlet needs %(value)s of its points "
                           "for each point of this unit; higher is tougher.")
                         % {"unit": unit, "value": f"{durability:.1f}"})
    if row.get("offence_per_wound") is not None:
        wounds = {"unit": unit, "offence": f"{row['offence_per_wound']:.2f}"}
        if row.get("durability_per_wound") is None:
            sentences.append(_("Per wound, %(unit)s inflicts %(offence)s wounds a turn for each wound of its "
                               "own, and the gauntlet's attacks take none of its wounds.") % wounds)
        else:
            sentences.append(_("Per wound, %(unit)s inflicts %(offence)s wounds a turn for each wound of its "
                               "own, and the gauntlet needs %(durability)s wounds of attackers for each of "
                               "its wounds to destroy it.")
                             % {**wounds, "durability": f"{row['durability_per_wound']:.1f}"})
    wording = {chance.key: chance for chance in system.combat_chances}
    for chance in row.get("combat_chances") or ():
        declared = wording.get(chance["key"])
        if declared is not None:
            sentences.append(_(declared.sentence) % {"unit": unit, "percent": percent(chance["value"])})
    return sentences


def figure_rows(rows: Sequence[Mapping[str, Any]], *, system: GameSystem, per_model: bool
                ) -> list[dict[str, Any]]:
    """The units' rows as the editor shows them: each with its sentences, its bars (0–100, the
    list's best unit is 100) and its chances as translated labels and percentages."""
    best = {key: max((row.get(key) or 0 for row in rows), default=0) or 1
            for key in ("offence_per_point", "durability_per_point", "offence_per_wound",
                        "durability_per_wound")}
    shown = []
    for row in rows:
        bars = {f"{key}_bar": round(100 * (row.get(key) or 0) / best[key]) for key in best}
        chances = [{**chance, "label": _(chance["label"]), "percent": percent(chance["value"])}
                   for chance in row.get("combat_chances") or ()]
        shown.append({**row, **bars, "chances": chances,
                      "sentences": unit_sentences(row, system=system, per_model=per_model)})
    return shown
