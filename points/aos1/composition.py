"""The army rules of the AoS 1st edition rules sheet (`docs/rules/aos1.md` §3).

The sheet has no points and no limits: "you can use any number of models from your
collection"; "about 100 models per side takes an evening". So an AoS list is sized by
models, not points: its settings (`LIST_SETTINGS_SCHEMA`) hold the models the players
agreed on (0: no limit) and the Mortal Realm of the battle (§3, "Realm"). The system is
registered with `points_sized=False`: no points limit is asked, shown or checked; the
army summary (models against the agreed number, warscrolls, wounds) is what sizes a list.
Checks, each switchable per list:

- "model_limit": the army's models within the agreed number;
- "general": at most one model is the general (the rule "General"; the sheet nominates
  him after deployment, a list may record the choice);
- "battalions": a warscroll battalion (a unit with `battalion`: the warscrolls it needs,
  `{"requires": [{"unit": name, "min": n}]}`; its own models are the battalion's commander)
  has its units in the army, each unit counted for one battalion only. Battalions are NOT
  in the sheet (they came with later books): the bundled ones are ours.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from points.catalogue.army import army_models, army_units, rule_on, violation
from points.catalogue.i18n import _

GENERAL_RULE = "General"
#: The seven Mortal Realms the sheet names as battle settings (§3).
REALMS: dict[str, str] = {
    "none": "Not chosen",
    "fire": "Aqshy, the Realm of Fire",
    "metal": "Chamon, the Realm of Metal",
    "life": "Ghyran, the Realm of Life",
    "beasts": "Ghur, the Realm of Beasts",
    "heavens": "Azyr, the Realm of Heavens",
    "shadow": "Ulgu, the Realm of Shadow",
    "death": "Shyish, the Realm of Death",
}
LIST_SETTINGS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "model_limit": {
            "title": "Models agreed",
            "description": "The most models the army may field (0: no limit, as the sheet allows)",
            "type": "integer",
            "minimum": 0,
            "maximum": 1000,
            "default": 100,
        },
        "realm": {
            "title": "Mortal Realm",
            "type": "string",
            "enum": list(REALMS),
            "x-enum-labels": REALMS,
            "default": "none",
        },
    },
}

OPTION_KEYS: dict[str, str] = {
    "model_limit": "The army's models within the number agreed (the list setting)",
    "general": "At most one General",
    "battalions": "Warscroll battalions have the units they need (battalions are ours, not in the sheet)",
}


def army_model_count(army: Mapping[str, Any]) -> int:
    """Models in the army (a battalion's commander counts like any model)."""
    return sum(int(model.get("count", 1)) for _unit, model in army_models(army))


def army_wounds(army: Mapping[str, Any]) -> int:
    """Wounds of every model in the army: with the model count, how players weigh an AoS army."""
    return sum(
        int(model.get("count", 1)) * int(model.get("wounds") or 0) for _unit, model in army_models(army)
    )


def army_summary(army: Mapping[str, Any]) -> list[dict[str, Any]]:
    """AoS lists are sized by models, not points (§3): the count against the agreed limit
    when there is one, and their wounds in all (pages show the unit count beside it)."""
    row: dict[str, Any] = {"key": "models", "label": _("Models"), "value": army_model_count(army)}
    limit = int((army.get("settings") or {}).get("model_limit") or 0)
    if limit:
        row["limit"] = limit
    return [row, {"key": "wounds", "label": _("Wounds"), "value": army_wounds(army)}]


def model_limit_violations(army: Mapping[str, Any]) -> list[dict[str, Any]]:
    limit = int((army.get("settings") or {}).get("model_limit") or 0)
    count = army_model_count(army)
    if not limit or count <= limit:
        return []
    return [
        violation(
            "model_limit",
            _("The army has %(n)d models, over the %(limit)d agreed.") % {"n": count, "limit": limit},
            value=count,
            limit=limit,
        )
    ]


def general_violations(army: Mapping[str, Any]) -> list[dict[str, Any]]:
    generals = sum(
        int(model.get("count", 1))
        for _u, model in army_models(army)
        if any(str(r).split("(")[0].strip() == GENERAL_RULE for r in model.get("rules") or [])
    )
    if generals <= 1:
        return []
    return [
        violation(
            "general",
            _("The army has %(n)d generals; nominate one.") % {"n": generals},
            value=generals,
            limit=1,
        )
    ]


def battalion_violations(army: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each battalion takes the units it requires from those not yet taken by another one."""
    free: Counter[str] = Counter(str(unit["name"]) for unit in army_units(army) if not unit.get("battalion"))
    found = []
    for unit in army_units(army):
        battalion = unit.get("battalion")
        if not isinstance(battalion, Mapping):
            continue
        for need in battalion.get("requires") or []:
            name, wanted = str(need["unit"]), int(need.get("min", 1))
            taken = min(free[name], wanted)
            free[name] -= taken
            if taken < wanted:
                found.append(
                    violation(
                        "battalions",
                        _("%(battalion)s needs %(n)d × %(unit)s; the army has %(have)d to spare.")
                        % {"battalion": unit["name"], "n": wanted, "unit": name, "have": taken},
                        unit=str(unit["name"]),
                        value=taken,
                        limit=wanted,
                    )
                )
    return found


def validate(
    army: Mapping[str, Any], price: Callable[[Mapping[str, Any]], Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Each switched-on check; there is no points limit (the sheet has no points)."""
    found: list[dict[str, Any]] = []
    if rule_on(army, "model_limit"):
        found += model_limit_violations(army)
    if rule_on(army, "general"):
        found += general_violations(army)
    if rule_on(army, "battalions"):
        found += battalion_violations(army)
    return found
