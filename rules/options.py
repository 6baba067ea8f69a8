"""Upgrade options applied to a unit: the catalogue's "replace a weapon, add a weapon or rule,
add models, take an item", as a pure function over unit-format dicts.

The army-list builder, the catalogue cards (to show "+15 pts") and the loader (to check that
every option of the bundled data makes sense) all go through `apply_options`, so an option
means the same thing everywhere. Nothing here imports Django: options arrive as plain dicts
with the fields of `rules.models.UpgradeOption` (key, group, kind, applies_to, payload,
min_count, max_count, cost, and optionally label).

What an option does, by `kind` (its `payload`):

- ``replace_weapon`` ``{"replace": "Rifle", "with": {weapon} | [{weapon}, ...]}``
- ``add_weapon``     ``{"weapon": {weapon}}``
- ``add_rule``       ``{"rule": "Fearless"}`` (a model rule) or
  ``{"rule": "Rending", "weapon": "Blade"}`` (a rule on that weapon)
- ``add_models``     ``{"count": 1}`` (more models of the `applies_to` profile) or
  ``{"model": {model}}`` (a new profile, e.g. a heavy-weapon team; its `count` is per take)
- ``add_item``       ``{"item": {"name": ..., "kind": ..., ...}}`` (equipment, magic items), or
  ``{"item": {"name": ..., "gives": {"toughness": 3, "rules": [...], "weapons": [...],
  "text_rules": [...]}}}``: an item or mount of a formula-priced book (Army Forge's), which
  the models that take it carry as what it gives (`_give`), so the formula prices it

Decisions (one place each, so they can be changed):

- *Per model or per unit.* Weapon, rule and item options act on ONE model per count taken
  (the models that took it split off into their own profile, named after the upgrade), unless
  the payload says ``"all": true`` (then one take changes every model of the profile).
  Rules default to ``"all": true``: a unit-wide rule is the common case. See `_acts_on_all`.
- *Which models.* `applies_to` names a model profile; empty means every profile for an
  "all" option and the first profile otherwise (`_targets`).
- *Groups.* Options sharing a `group` share its limits: the group's total count must lie
  between the largest `min_count` and the largest `max_count` of its members, and each
  member still respects its own `max_count` (`_check_counts`). A member whose payload has
  ``"group_max"`` states the group's own cap instead (imported BattleScribe groups carry
  their own constraint): an integer caps the total (the smallest one given wins), ``null``
  means no cap on the total, so the members combine freely up to their own maxima
  (`_group_cap`). Options without the key (the bundled catalogues) keep the rule above.
- *Per-model maxima.* A payload ``"max_per_model": k`` ("one torch per model") limits the
  option to k times the models it covers in the finished unit (`_per_model_counts`), so
  the limit follows the unit's size; `max_count` is then only the bound at the largest
  size. `per_model_limit` gives the bound for a unit as it stands.
- *Catalogue costs.* An option with a `cost` (systems priced from the book) is recorded in
  the unit's ``upgrades`` list (`{key, label, count, cost}`), which catalogue pricing adds
  up; an option without one (the OPR formula prices the changed unit itself) is not.
- Options apply in the order given (the catalogue's order), so a later option sees the
  unit as the earlier ones left it.
- *Stacking.* A payload ``"stacks": true`` lets one model take the option several times
  (WHFB runes: up to three of one rune on one weapon; a Tyrant's two Sword Gnoblars): taken
  more often than its profile has models, it changes every model of the profile once per
  round of takes (`_changed_models`) instead of asking for more models than there are; a
  stacking replacement whose weapon is already replaced adds the new weapon again (a War
  Walker swapping both of its heavy weapons).
- *Per-model costs.* An option whose payload says ``"per_model": true`` costs its `cost` for
  every model it covers (WHFB "great weapons, +2 pts per model"): the models of the
  `applies_to` profile and of the profiles split from it, or every model of the unit when
  `applies_to` is empty. They are counted once all chosen options are applied, so the price
  follows the unit's size whatever the order (`_per_model_counts`); the `upgrades` record
  says `count` = times taken × models, `cost` = per model.
- *Prices by count.* A payload ``"costs": [c1, c2, …]`` gives the option's whole price when
  taken 1, 2, … times (`cost` is c1): a unit whose data prices its largest size below the
  per-step price (AoS 1st: 10 Bestigors 140, 20 for 280, 30 for 360). Taken k times it is
  recorded as usual (k × c1) plus, when c_k differs from that, an adjustment record (key
  ``<key>.size-price``, count 1, cost c_k − k × c1), so the unit's total is c_k and every
  record still reads count × cost (`_count_price`).
"""

from __future__ import annotations

import copy
import marshal
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from points.catalogue.i18n import _
from rules.systems.registry import GameSystem, get_system, unit_points

#: The option kinds (the values of `UpgradeOption.Kind`).
REPLACE_WEAPON = "replace_weapon"
ADD_WEAPON = "add_weapon"
ADD_RULE = "add_rule"
ADD_MODELS = "add_models"
ADD_ITEM = "add_item"
KINDS = (REPLACE_WEAPON, ADD_WEAPON, ADD_RULE, ADD_MODELS, ADD_ITEM)
#: An option as `apply_options` reads it: the catalogue's option fields, in this order.
OPTION_FIELDS = ("key", "group", "label", "kind", "applies_to", "payload", "min_count", "max_count", "cost")

#: The unit-level list where options with a catalogue cost are recorded.
UPGRADES_FIELD = "upgrades"


class OptionError(ValueError):
    """Chosen options that cannot be applied; `errors` lists every problem as (path, message).

    Paths name the option (`options.<key>`) or its group (`groups.<group>`), so a form or the
    API can put each message beside the control that caused it.
    """

    def __init__(self, errors: Sequence[tuple[str, str]]):
        self.errors = [(str(path), str(message)) for path, message in errors]
        super().__init__("; ".join(f"{path}: {message}" for path, message in self.errors))


def _copy_data(value: Any) -> Any:
    """A copy of JSON-shaped data (dicts, lists, scalars): what `copy.deepcopy` gives for it,
    several times faster (it keeps no memo; unit dicts hold no shared or cyclic parts)."""
    if isinstance(value, dict):
        return {k: _copy_data(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_data(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_copy_data(v) for v in value)
    return value


def apply_options(unit: dict, options: Sequence[Mapping], chosen: Mapping[str, int]) -> dict:
    """A new unit dict with `chosen` ({option key: how many times}) applied; `unit` is untouched.

    Options missing from `chosen` count 0. Raises `OptionError` naming the option and the
    limit for a count outside its min/max, a full group, an unknown key, or an option whose
    target (model profile, weapon) does not exist on the unit.
    """
    by_key = {str(option["key"]): option for option in options}
    errors = _check_counts(options, chosen, by_key)
    if errors:
        raise OptionError(errors)
    try:  # JSON-shaped unit data: marshal copies it in C, several times faster
        result = marshal.loads(marshal.dumps(unit))
    except ValueError:  # something marshal does not take (a Fraction...): the Python copy
        result = _copy_data(unit)
    if not isinstance(result, dict):
        result = dict(result)
    per_model: list[tuple[dict, Mapping, int]] = []
    for option in options:
        count = int(chosen.get(str(option["key"]), 0))
        if count <= 0:
            continue
        try:
            _APPLY[str(option["kind"])](result, option, count)
        except _TargetMissing as missing:
            errors.append((_path(option), str(missing)))
            continue
        if option.get("cost") is not None:
            record = {
                "key": str(option["key"]),
                "label": str(option.get("label") or option["key"]),
                "count": count,
                "cost": int(option["cost"]),
            }
            result.setdefault(UPGRADES_FIELD, []).append(record)
            if (option.get("payload") or {}).get("per_model"):
                per_model.append((record, option, count))
            adjustment = _count_price(option, count)
            if adjustment is not None:
                result[UPGRADES_FIELD].append(adjustment)
    for option in options:
        count = int(chosen.get(str(option["key"]), 0))
        limit = per_model_limit(result, option)
        if count > 0 and limit is not None and count > limit:
            errors.append(
                (
                    _path(option),
                    _("“%(option)s” can be taken at most %(max)d times (chosen: %(n)d).")
                    % {"option": option.get("label") or option["key"], "max": limit, "n": count},
                )
            )
    if errors:
        raise OptionError(errors)
    for record, option, count in per_model:
        record["count"] = count * _per_model_counts(result, option)
    return result


def _count_price(option: Mapping, count: int) -> dict[str, Any] | None:
    """The adjustment record of an option priced by count (module decisions, "Prices by count")
    taken `count` times, or None when its price is `count` x its cost."""
    costs = (option.get("payload") or {}).get("costs")
    if not costs or count > len(costs):
        return None
    difference = int(costs[count - 1]) - count * int(option["cost"])
    if not difference:
        return None
    return {
        "key": f"{option['key']}.size-price",
        "label": f"{option.get('label') or option['key']} ×{count}",
        "count": 1,
        "cost": difference,
    }


def count_steps(option: Mapping) -> list[int]:
    """The whole prices of an option priced by count (module decisions, "Prices by count")
    taken 1, 2, … times; [] for an option priced count × cost."""
    costs = (option.get("payload") or {}).get("costs")
    if not isinstance(costs, list) or not costs:
        return []
    try:
        return [int(c) for c in costs]
    except (TypeError, ValueError):
        return []


def price_taken(option: Mapping, count: int) -> int:
    """What an option priced by count adds when taken `count` times: c_count from its table,
    count × its cost past the table (as `_count_price` records it)."""
    steps = count_steps(option)
    if count <= 0:
        return 0
    if count <= len(steps):
        return steps[count - 1]
    each = option.get("cost")
    return count * int(each if each is not None else (steps[0] if steps else 0))


def next_price(option: Mapping, count: int) -> int | None:
    """The points one more of an option priced by count adds when it is taken `count` times
    now (the table's next step less the current one), or None for an option priced
    count × cost (its price per take does not move)."""
    if not count_steps(option):
        return None
    return price_taken(option, count + 1) - price_taken(option, count)


def per_model_limit(unit: Mapping, option: Mapping) -> int | None:
    """The most times `option` can be taken on `unit` as it stands when its maximum is per
    model (payload ``max_per_model``, see the module's decisions), else None."""
    each = (option.get("payload") or {}).get("max_per_model")
    if each is None:
        return None
    return int(each) * _per_model_counts(unit, option)


def _per_model_counts(unit: Mapping, option: Mapping) -> int:
    """How many models a per-model option covers in the finished `unit` (module decisions)."""
    name = str(option.get("applies_to") or "")
    return sum(
        int(model.get("count", 1))
        for model in unit.get("models") or []
        if not name or model.get("name") == name or str(model.get("name", "")).startswith(f"{name} (")
    )


def option_point_deltas(
    system: str | GameSystem, unit: Mapping[str, Any], options: Sequence[Mapping]
) -> dict[str, int]:
    """`{option key: points the unit gains by taking that option once}`, priced by the system.

    The baseline is the unit with every option at its minimum; an option that cannot be
    taken once more from there (its group is already full) is left out rather than guessed.
    """
    game_system = get_system(system) if isinstance(system, str) else system
    baseline_choice = {str(o["key"]): int(o.get("min_count") or 0) for o in options if o.get("min_count")}
    try:
        baseline = unit_points(game_system, apply_options(dict(unit), options, baseline_choice))
    except OptionError:
        return {}
    deltas: dict[str, int] = {}
    for option in options:
        key = str(option["key"])
        choice = {**baseline_choice, key: baseline_choice.get(key, 0) + 1}
        try:
            deltas[key] = unit_points(game_system, apply_options(dict(unit), options, choice)) - baseline
        except OptionError:
            continue
    return deltas


# --------------------------------------------------------------------------- limits


def _path(option: Mapping) -> str:
    return f"options.{option['key']}"


def _check_counts(
    options: Sequence[Mapping], chosen: Mapping[str, int], by_key: Mapping[str, Mapping]
) -> list[tuple[str, str]]:
    """Every count, kind and group limit problem of `chosen`, in catalogue order."""
    errors: list[tuple[str, str]] = []
    for key, count in chosen.items():
        if key not in by_key:
            errors.append((f"options.{key}", _("This unit has no option “%(key)s”.") % {"key": key}))
        elif isinstance(count, bool) or not isinstance(count, int):
            errors.append((f"options.{key}", _("The count must be a whole number.")))
    if errors:
        return errors
    groups: dict[str, list[Mapping]] = defaultdict(list)
    for option in options:
        label = option.get("label") or option["key"]
        if option.get("kind") not in KINDS:
            errors.append(
                (
                    _path(option),
                    _("“%(option)s” has an unknown kind “%(kind)s”.")
                    % {"option": label, "kind": option.get("kind")},
                )
            )
            continue
        count = int(chosen.get(str(option["key"]), 0))
        low, high = int(option.get("min_count") or 0), int(option.get("max_count") or 0)
        if option.get("group"):
            groups[str(option["group"])].append(option)
            if count > high:
                errors.append(
                    (
                        _path(option),
                        _("“%(option)s” can be taken at most %(max)d times (chosen: %(n)d).")
                        % {"option": label, "max": high, "n": count},
                    )
                )
            elif count < 0:
                errors.append(
                    (
                        _path(option),
                        _("“%(option)s” cannot be taken a negative number of times.") % {"option": label},
                    )
                )
        elif not low <= count <= high:
            errors.append(
                (
                    _path(option),
                    _("“%(option)s” must be taken between %(min)d and %(max)d times (chosen: %(n)d).")
                    % {"option": label, "min": low, "max": high, "n": count},
                )
            )
    for group, members in groups.items():
        total = sum(int(chosen.get(str(m["key"]), 0)) for m in members)
        low = max(int(m.get("min_count") or 0) for m in members)
        high = _group_cap(members)
        if high is not None and total > high:
            errors.append(
                (
                    f"groups.{group}",
                    _("At most %(max)d of “%(group)s” can be taken (chosen: %(n)d).")
                    % {"max": high, "group": group, "n": total},
                )
            )
        elif total < low:
            errors.append(
                (
                    f"groups.{group}",
                    _("At least %(min)d of “%(group)s” must be taken (chosen: %(n)d).")
                    % {"min": low, "group": group, "n": total},
                )
            )
    return errors


def _group_cap(members: Sequence[Mapping]) -> int | None:
    """The most a group's members may be taken in all; None when the group sets no cap."""
    stated = [
        (m.get("payload") or {}).get("group_max") for m in members if "group_max" in (m.get("payload") or {})
    ]
    if not stated:
        return max(int(m.get("max_count") or 0) for m in members)
    caps = [int(cap) for cap in stated if cap is not None]
    return min(caps) if caps else None


# --------------------------------------------------------------------------- targets


class _TargetMissing(Exception):
    """The option names a model profile or weapon the unit does not have."""


def _acts_on_all(option: Mapping) -> bool:
    """Decision: rules act on every model of the profile by default; weapons and items per model."""
    payload = option.get("payload") or {}
    return bool(payload.get("all", option.get("kind") == ADD_RULE))


def _targets(unit: dict, option: Mapping, *, every_profile: bool) -> list[int]:
    """Indices of the model profiles the option changes (see the module's decisions)."""
    models = unit.get("models") or []
    name = option.get("applies_to") or ""
    if name:
        found = [i for i, model in enumerate(models) if model.get("name") == name]
        if not found:
            raise _TargetMissing(
                _("“%(option)s” applies to “%(model)s”, which this unit does not have.")
                % {"option": option.get("label") or option["key"], "model": name}
            )
        return found[:1] if not every_profile else found
    if not models:
        raise _TargetMissing(_("This unit has no models."))
    return list(range(len(models))) if every_profile else [0]


def _split(unit: dict, index: int, count: int, suffix: str, option: Mapping) -> dict:
    """The model profile `count` models of profile `index` now use, split off when needed."""
    models = unit["models"]
    model = models[index]
    available = int(model.get("count", 1))
    if count > available:
        raise _TargetMissing(
            _("“%(option)s” is taken %(n)d times but “%(model)s” has only %(available)d models.")
            % {
                "option": option.get("label") or option["key"],
                "n": count,
                "model": model.get("name"),
                "available": available,
            }
        )
    if count == available:
        return model
    model["count"] = available - count
    upgraded = copy.deepcopy(model)
    upgraded["count"] = count
    upgraded["name"] = f"{model.get('name')} ({suffix})"
    position = index + 1  # after the profile and the models split from it before
    while position < len(models) and str(models[position].get("name", "")).startswith(
        f"{model.get('name')} ("
    ):
        position += 1
    models.insert(position, upgraded)
    return upgraded


def _changed_models(unit: dict, option: Mapping, count: int, suffix: str) -> list[dict]:
    """The model dicts an option changes: whole profiles for "all" options, else `count` models.

    A stacking option (payload ``"stacks": true``) taken more often than the profile has models
    changes every model of it, once per full round of takes (the list holds the profile
    as often as the models hold the item: a Dwarf Lord's three Runes of Cleaving)."""
    if _acts_on_all(option):
        return [unit["models"][i] for i in _targets(unit, option, every_profile=True)]
    [index] = _targets(unit, option, every_profile=False)
    available = int(unit["models"][index].get("count", 1))
    if (option.get("payload") or {}).get("stacks") and count > available > 0:
        model = _split(unit, index, available, suffix, option)
        return [model] * -(-count // available)
    return [_split(unit, index, count, suffix, option)]


# --------------------------------------------------------------------------- kinds


def _weapon_named(model: Mapping, name: str) -> int | None:
    for i, weapon in enumerate(model.get("weapons") or []):
        if weapon.get("name") == name:
            return i
    return None


def _replace_weapon(unit: dict, option: Mapping, count: int) -> None:
    payload = option.get("payload") or {}
    old = payload.get("replace")
    new = payload.get("with")
    new_weapons = [new] if isinstance(new, Mapping) else list(new or [])
    label = option.get("label") or option["key"]
    targets = [unit["models"][i] for i in _targets(unit, option, every_profile=_acts_on_all(option))]
    if _acts_on_all(option) and not option.get("applies_to"):
        # A unit-wide swap ("every model's bolt rifle"): the profiles that carry the weapon.
        targets = [m for m in targets if _weapon_named(m, old) is not None] or targets[:1]
    for model in targets:
        if _weapon_named(model, old) is None:
            raise _TargetMissing(
                _("“%(option)s” replaces “%(weapon)s”, which “%(model)s” does not carry.")
                % {"option": label, "weapon": old, "model": model.get("name")}
            )
    suffix = ", ".join(str(w.get("name")) for w in new_weapons) or str(label)
    changed = targets if _acts_on_all(option) else _changed_models(unit, option, count, suffix)
    for model in changed:
        weapons = model.setdefault("weapons", [])
        at = _weapon_named(model, old)
        if at is None:  # a stacking option's later round: the model carries one more
            weapons.extend(copy.deepcopy(new_weapons))
            continue
        weapons[at : at + 1] = copy.deepcopy(new_weapons)
    _keep_text(unit, payload)


def _add_weapon(unit: dict, option: Mapping, count: int) -> None:
    weapon = (option.get("payload") or {}).get("weapon") or {}
    for model in _changed_models(unit, option, count, str(weapon.get("name") or option["key"])):
        model.setdefault("weapons", []).append(copy.deepcopy(weapon))
    _keep_text(unit, option.get("payload") or {})


def _keep_text(unit: dict, payload: Mapping) -> None:
    """The rules an option brings that no price reads (`text_rules`: an Army Forge weapon's
    Bane), kept as text on the unit (`extra.text_rules`), each once."""
    if payload.get("text_rules"):
        kept = unit.setdefault("extra", {}).setdefault("text_rules", [])
        kept.extend(r for r in payload["text_rules"] if r not in kept)


def _add_rule(unit: dict, option: Mapping, count: int) -> None:
    payload = option.get("payload") or {}
    rule = str(payload.get("rule"))
    weapon_name = payload.get("weapon")
    label = option.get("label") or option["key"]
    if weapon_name:
        for model in [unit["models"][i] for i in _targets(unit, option, every_profile=_acts_on_all(option))]:
            if _weapon_named(model, weapon_name) is None:
                raise _TargetMissing(
                    _("“%(option)s” changes “%(weapon)s”, which “%(model)s” does not carry.")
                    % {"option": label, "weapon": weapon_name, "model": model.get("name")}
                )
    for model in _changed_models(unit, option, count, rule):
        if weapon_name:
            weapon = model["weapons"][_weapon_named(model, weapon_name)]
            rules = weapon.setdefault("rules", [])
        else:
            rules = model.setdefault("rules", [])
        if rule not in rules:
            rules.append(rule)


def _add_models(unit: dict, option: Mapping, count: int) -> None:
    payload = option.get("payload") or {}
    if payload.get("model"):
        model = copy.deepcopy(dict(payload["model"]))
        model["count"] = int(model.get("count", 1)) * count
        unit.setdefault("models", []).append(model)
        return
    [index] = _targets(unit, option, every_profile=False)
    target = unit["models"][index]
    target["count"] = int(target.get("count", 1)) + int(payload.get("count", 1)) * count


def _add_item(unit: dict, option: Mapping, count: int) -> None:
    """The item on the models that took it; an option with a cost names itself on the item
    (`priced_by`), so pricing counts the upgrade's cost, not the item's `points` as well. An
    item that says what it `gives` is carried as that (`_give`)."""
    item = dict((option.get("payload") or {}).get("item") or {})
    if option.get("cost") is not None:
        item["priced_by"] = str(option["key"])
    for model in _changed_models(unit, option, count, str(item.get("name") or option["key"])):
        if isinstance(item.get("gives"), Mapping):
            _give(unit, model, item["gives"])
        else:
            model.setdefault("items", []).append(copy.deepcopy(item))


def _rule_value(written: str) -> int:
    _, _, rest = written.partition("(")
    digits = rest.rstrip(") ").strip()
    return int(digits) if digits.lstrip("-").isdigit() else 0


def _give(unit: dict, model: dict, gives: Mapping) -> None:
    """An item or mount as Army Forge means it: its profile gains as the unit's system applies
    them (`GameSystem.item_gains`), its rules joined to the model's (a rule met again keeps the
    higher value), its weapons carried, and the rules no price reads kept as text on the unit
    (`extra.text_rules`)."""
    get_system(str(unit.get("system") or "")).item_gains(model, gives)
    rules = model.setdefault("rules", []) if gives.get("rules") else model.get("rules", [])
    for written in gives.get("rules") or []:
        name = str(written).split("(", 1)[0].strip()
        same = next((i for i, r in enumerate(rules) if str(r).split("(", 1)[0].strip() == name), None)
        if same is None:
            rules.append(str(written))
        elif _rule_value(str(written)) > _rule_value(str(rules[same])):
            rules[same] = str(written)
    if gives.get("weapons"):
        model.setdefault("weapons", []).extend(copy.deepcopy(list(gives["weapons"])))
    _keep_text(unit, gives)


_APPLY: dict[str, Callable[[dict, Mapping, int], None]] = {
    REPLACE_WEAPON: _replace_weapon,
    ADD_WEAPON: _add_weapon,
    ADD_RULE: _add_rule,
    ADD_MODELS: _add_models,
    ADD_ITEM: _add_item,
}
