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

#: Past this a figure reads as "more than" it: a unit the gauntlet can hardly scratch has a
#: durability in the billions, which says nothing more than "very tough".
LARGEST_SHOWN = 999


def number(value: float | None, digits: int) -> str:
    """A figure with `digits` decimals, "—" for none, ">999" past `LARGEST_SHOWN`."""
    if value is None:
        return "—"
    return f">{LARGEST_SHOWN}" if value > LARGEST_SHOWN else f"{value:.{digits}f}"


def percent(value: float) -> str:
    """A chance as a player reads it: "46%" ("<1%" for a chance that is not nothing, ">99%"
    for one that is not certain)."""
    rounded = round(100 * value)
    if rounded == 0 and value > 0:
        return "<1%"
    return ">99%" if rounded == 100 and value < 1 else f"{rounded}%"


def shown_target(name: str | None, *, reference: bool) -> str | None:
    """An enemy's name as a player reads it: a reference target's in their language (its system
    marks its English name for translation), a player's unit or list's exactly as they wrote it:
    never through gettext, even when it reads like a reference target's."""
    if name is None or not reference:
        return name
    return _(name)


def target_text(name: str | None, *, reference: bool) -> str | None:
    """`shown_target` in running text: a reference target's name marked as one ("Ogres (…)
    (reference target)"), where the page's label (`_gauntlet_target.html`) cannot go."""
    shown = shown_target(name, reference=reference)
    if shown is None or not reference:
        return shown
    return _("%(target)s (reference target)") % {"target": shown}


def shown_targets(row: Mapping[str, Any]) -> dict[str, Any]:
    """A unit row's best and worst target as a player reads them (`shown_target`), with their
    flags: what the editor's rows and the API give for `best_target` and `worst_target`."""
    shown: dict[str, Any] = {}
    for key in ("best_target", "worst_target"):
        reference = bool(row.get(f"{key}_reference"))
        shown[key] = shown_target(row.get(key), reference=reference)
        shown[f"{key}_reference"] = reference
    return shown


def shown_pairing(pairing: Mapping[str, Any]) -> dict[str, Any]:
    """A (unit, target) pairing of the report as the panel shows it: the target by
    `shown_target`; the unit is the player's own and shown as written."""
    reference = bool(pairing.get("target_reference"))
    return {**pairing, "target": shown_target(pairing["target"], reference=reference),
            "target_reference": reference}


def unit_sentences(row: Mapping[str, Any], *, system: GameSystem, per_model: bool) -> list[str]:
    """Every figure of a unit's gauntlet row explained, one sentence each: its offence with its
    best and worst target, its durability, its figures per wound (a system that counts wounds)
    and the chances of its fights the system reports."""
    unit = row["name"]
    offence = {"unit": unit, "value": number(row["offence_per_point"], 2),
               "best": target_text(row["best_target"], reference=bool(row.get("best_target_reference"))),
               "worst": target_text(row["worst_target"], reference=bool(row.get("worst_target_reference")))}
    # Whose points: "destroys 0.07 of its points" read as the unit's own (issue 43), so each
    # figure says what is counted on each side, the enemy's and this unit's.
    if per_model:
        sentences = [_("Against the gauntlet, %(unit)s slays %(value)s enemy models a turn for every model "
                       "in it; best against %(best)s, worst against %(worst)s.") % offence]
    else:
        sentences = [_("Against the gauntlet, %(unit)s destroys %(value)s enemy points a turn for every "
                       "point it costs; best against %(best)s, worst against %(worst)s.") % offence]
    durability = row.get("durability_per_point")
    if durability is None:
        sentences.append(_("The gauntlet's attacks destroy none of %(unit)s in a turn.") % {"unit": unit})
    elif per_model:
        sentences.append(_("To destroy %(unit)s in a turn, the gauntlet's units need %(value)s of their "
                           "models for every model in it; higher is tougher.")
                         % {"unit": unit, "value": number(durability, 1)})
    else:
        sentences.append(_("To destroy %(unit)s in a turn, the gauntlet's units need %(value)s of their "
                           "points for every point it costs; higher is tougher.")
                         % {"unit": unit, "value": number(durability, 1)})
    if any((row.get(key) or 0) > LARGEST_SHOWN for key in ("durability_per_point", "durability_per_wound")):
        sentences.append(_("“>%(largest)s” means more than %(largest)s: the gauntlet's attacks hardly harm "
                           "%(unit)s in a turn (a lone character, or a unit they can barely wound), so the "
                           "figure says only that it is very hard to destroy.")
                         % {"unit": unit, "largest": LARGEST_SHOWN})
    if row.get("offence_per_wound") is not None:
        wounds = {"unit": unit, "offence": number(row["offence_per_wound"], 2)}
        if row.get("durability_per_wound") is None:
            sentences.append(_("Per wound, %(unit)s inflicts %(offence)s wounds a turn for each wound of its "
                               "own, and the gauntlet's attacks take none of its wounds.") % wounds)
        else:
            sentences.append(_("Per wound, %(unit)s inflicts %(offence)s wounds a turn for each wound of its "
                               "own, and the gauntlet needs %(durability)s wounds of attackers for each of "
                               "its wounds to destroy it.")
                             % {**wounds, "durability": number(row["durability_per_wound"], 1)})
    wording = {chance.key: chance for chance in system.combat_chances}
    for chance in row.get("combat_chances") or ():
        declared = wording.get(chance["key"])
        if declared is not None:
            sentences.append(_(declared.sentence) % {"unit": unit, "percent": percent(chance["value"])})
    return sentences


def figure_rows(rows: Sequence[Mapping[str, Any]], *, system: GameSystem, per_model: bool
                ) -> list[dict[str, Any]]:
    """The units' rows as the editor shows them: each with its sentences, its bars (0–100, the
    list's best unit is 100), its chances as translated labels and percentages, and its best
    and worst target as a player reads them (`shown_targets`)."""
    keys = ("offence_per_point", "durability_per_point", "offence_per_wound", "durability_per_wound")
    best = {key: max((_capped(row.get(key)) for row in rows), default=0) or 1 for key in keys}
    shown = []
    for row in rows:
        bars = {f"{key}_bar": round(100 * _capped(row.get(key)) / best[key]) for key in keys}
        texts = {f"{key}_text": number(row.get(key), 2 if key.startswith("offence") else 1) for key in keys}
        chances = [{**chance, "label": _(chance["label"]), "percent": percent(chance["value"])}
                   for chance in row.get("combat_chances") or ()]
        shown.append({**row, **shown_targets(row), **bars, **texts, "chances": chances,
                      "sentences": unit_sentences(row, system=system, per_model=per_model)})
    return shown


def _capped(value: float | None) -> float:
    """A figure for a bar: none is 0, and past `LARGEST_SHOWN` it is as long as `LARGEST_SHOWN`."""
    return min(value or 0.0, float(LARGEST_SHOWN))
