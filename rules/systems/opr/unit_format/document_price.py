"""A unit document's price in one pass: the JSON checked and priced without building the unit.

`unit_points_of_dict` (the list builder's and the commands' points) needs a unit's total, not its
`Unit` nor its breakdown. Reading a document into `Unit`/`Model`/`Weapon`/`Rule` objects and
then pricing them walks it twice and makes a dozen objects per weapon; for a unit a process has
not seen (the first request, or every new unit), building and then reading those objects is
most of the time. Here a document of plain JSON is walked once, checked as it goes for
everything the published schema checks (`document_shape`: keys, required fields, bounds,
lengths, enums, a rule's pattern; a document the schema refuses is not taken, so `parse_unit`
gives the schema's own messages), and priced in the same pass: each rule as
written is looked up in tables made at import from the reader's own readings (every name and
alias, and every `Name(X)` with X in the rule's range, read by the reader's functions), each
weapon's multipliers are multiplied as its rules are read, and the totals come from the same
integer tables and the same unit-wide step as `points.opr.price` (`unit_cost._totals`).

The same refusals as the reader's fast path: the moment the document holds anything that path
gives up on (a Massive model's parts, `Tough(X)` or `AP(X)` written as rules, a rule listed
twice, contradicting rules, Assault on a melee weapon, a value of another type...), `fast_price`
answers None and `price_document` prices `parse_unit(document)` instead, which reads it
carefully and raises every error. So the price is exactly `price(parse_unit(document))`'s for
every document (`tests/rules/systems/opr/unit_format/test_document_price.py` checks it on many
random units and on every kind of refusal).

Nothing here is learned from inputs: the tables are the fixed vocabulary, rebuilt when
`points.opr.scaled_tables` is (a test that flips a decision): the rule readings, the hit chance
by Quality and rules (Cautious's term by range added to it), the AP rows, Transport's factor by
movement rules, what an aura or order grants as the tables write it.
"""

from __future__ import annotations

import json
from fractions import Fraction
from math import gcd, lcm
from typing import Any

from points.opr import scaled_tables, tables
from points.opr.ability_cost import transport_factor
from points.opr.exact import Ratio, fraction, ratio
from points.opr.rule_names import AURA_GRANTABLE, ORDER_GRANTABLE, RULES, canonical_name
from points.opr.scaled_tables import (
    _times,
    ap_ratio,
    defence_ratio,
    hit_ratio,
    range_ratio,
    toughness_ratio,
)
from points.opr.unit import Aura, Rule
from points.opr.unit_cost import (
    _BASE_FACTOR,
    _LINES,
    _SHOT_SKILLS,
    _morale_entry,
    _round_half_up,
    price,
)
from points.opr.weapon_cost import WEAPON_RELEVANT_MODEL_RULES, weapon_quality
from rules.systems.opr.unit_format import reader
from rules.systems.opr.unit_format.document_shape import SHAPE
from rules.systems.opr.unit_format.schema import _fast_validator

#: Per weapon rule as written, what pricing needs of it (one tuple, made at import):
#: its canonical name, its multiplier (§5) as (numerator, denominator), and flags: whether it
#: touches the AP rows, the hit chance, the Quality (Reliable), or makes a ranged weapon also
#: melee (Assault).
_FLAG_AP, _FLAG_HIT, _FLAG_QUALITY, _FLAG_ASSAULT = 1, 2, 4, 8
_FLAG_CHANGES_HITS = _FLAG_HIT | _FLAG_QUALITY
#: The longest range the unit format allows (unit.schema.json).
MAX_RANGE = 120


#: (name, multiplier numerator, multiplier denominator, flags, the name as a set)
_WeaponRule = tuple[str, int, int, int, frozenset[str]]
#: Per model rule as written: (kind, the reading, the rule's name, the steps it touches, its ability
#: cost per toughness, its flat ability cost); the steps:
_M_MORALE, _M_DEFENCE, _M_WEAPON, _M_TRANSPORT = 1, 2, 4, 8
_ModelRule = tuple[str, Any, str, int, int, int]
_NO_NAMES: frozenset[str] = frozenset()


def _subsets(names: frozenset[str]) -> list[frozenset[str]]:
    """Every subset of `names`."""
    found: list[frozenset[str]] = [frozenset()]
    for name in sorted(names):
        found += [subset | {name} for subset in found]
    return found


class _Vocabulary:
    """The readings of every rule as the tables write it, by level, made from `reader`'s own
    readings (`reader._FIXED_READINGS` for plain names and aliases, `reader._plain_valued_rule`
    for `Name(X)`, every X of the rule's range) and the integer tables of one `scaled_tables.TABLES`."""

    def __init__(self) -> None:
        self.tables = scaled_tables.TABLES
        readings: dict[str, dict[str, tuple[str, Any]]] = {
            level: dict(known) for level, known in reader._FIXED_READINGS.items()}
        for spec in RULES:
            if spec.value_range is None:
                continue
            low, high = spec.value_range
            for written in (spec.name, *spec.aliases):
                for value in range(low, high + 1):
                    text = f"{written}({value})"
                    read = reader._plain_valued_rule(text, spec.level)
                    if read is not None:
                        readings[spec.level][text] = read
        # only texts the schema's rule takes: a text the one pass finds here needs no other check
        readings = {level: {text: read for text, read in known.items() if SHAPE.rule_text_valid(text)}
                    for level, known in readings.items()}
        t = self.tables
        self.morale_plain = {quality: ratio for (quality, names), ratio in t.morale.items() if not names}
        #: model rule as written -> `_ModelRule` (from ("rule", Rule) or ("order", Aura), as the reader
        #: reads it; `Tough(X)` is kept so that the one pass can refuse it)
        self.model = {text: self.model_rule(read) for text, read in readings["model"].items()}
        #: weapon rule as written -> its `_WeaponRule` (only plain rules: AP(X) is left to the reader)
        self.weapon = {text: self.weapon_rule(read[1]) for text, read in readings["weapon"].items()
                       if read[0] == "rule"}
        # §5 hit chance and AP by the rules that change them (every subset: a few hundred values),
        # read by a set intersection instead of a walk over the terms; Cautious depends on the range
        # and is left to `hit_ratio`
        self.hit_names = t.hit_rules - {"Cautious"}
        low, high = tables.QUALITY_RANGE
        self.hits = {(quality, subset, ranged): hit_ratio(quality, subset, _NO_NAMES, ranged, 0)
                     for subset in _subsets(self.hit_names) for quality in range(min(low, 2), high + 1)
                     for ranged in (False, True)}
        self.ap_names = t.ap_rules
        self.aps = {(ap, subset): ap_ratio(ap, subset)[0]
                    for subset in _subsets(self.ap_names) for ap in t.ap_base}
        # §5 range modifiers of every range the format allows (0: melee) over one denominator, so
        # that a weapon line needs no reduction (`range_ratio` gives each reduced)
        ratios = {r: range_ratio(r) for r in range(MAX_RANGE + 1)}
        self.range_denominator = lcm(*(d for _, d in ratios.values()))
        self.range_scaled = {r: n * (self.range_denominator // d) for r, (n, d) in ratios.items()}
        # Cautious's term of the hit chance (`hit_ratio`'s, over its denominator) by the line's range
        # (0: a melee line), added to the other rules' (`hits`); Transport(X)'s factor over the
        # ability denominator by the model's movement rules (`ability_cost.transport_factor`'s)
        self.hit_denominator = t.hit_denominator
        self.cautious_terms = {r: t.cautious.scaled(r) * t.cautious_factor if r else t.cautious_melee
                               for r in range(MAX_RANGE + 1)}
        self.transport_names = frozenset(rule for rule, _factor in tables.TRANSPORT_FACTORS)
        self.transport = {subset: _times(transport_factor(subset)[0], t.ability_denominator)
                          for subset in _subsets(self.transport_names)}
        # what an aura or an order grants, as the tables write it -> its canonical name (as
        # `reader._Reader._grantable` reads it); other spellings go to the reader
        spellings = [written for spec in RULES for written in (spec.name, *spec.aliases)]
        self.grants = {kind: {written: canonical_name(written) for written in spellings
                              if canonical_name(written) in grantable}
                       for kind, grantable in (("aura", AURA_GRANTABLE), ("order", ORDER_GRANTABLE))}
        # everything the walk reads, in the order it unpacks them: one unpacking per unit instead
        # of some fifty attribute reads
        shape = SHAPE
        self.walk_constants = (
            self.model, self.weapon, t.morale, t.morale_rules, t.toughness_ratios,
            self.range_scaled, self.range_denominator, self.range_scaled[0], self.hits, self.hit_names,
            self.aps, self.ap_names, t.aura, t.long_aura, t.order, tables.AURA_LONG_RANGE,
            t.defence_base, t.defence_denominator, t.ap_base, t.ap_denominator, t.hit_rules,
            tables.HIT_CHANCE_FACES, *t.attack_factor, t.model_multipliers, self.morale_plain,
            t.ability_denominator, *shape.name, *shape.count, *shape.quality,
            *shape.defence, *shape.toughness, shape.rules_max, shape.weapons_max,
            *shape.range, *shape.attacks, *shape.ap)

    def model_rule(self, read: tuple[str, Any]) -> _ModelRule:
        """A model rule's reading with what pricing needs of it: which of the model's steps it
        touches (`_M_*`), and its ability cost (§6) per point of toughness and flat (X included),
        over `ability_denominator` (`scaled_tables.ability_ratio`'s terms; Transport is priced
        by that function, which needs the model's other rules)."""
        kind, value = read
        if kind != "rule":
            return kind, value, "", 0, 0, 0
        t = self.tables
        name = value.name
        mask = ((_M_MORALE if name in t.morale_rules else 0)
                | (_M_DEFENCE if name in t.defence_row_rules else 0)
                | (_M_WEAPON if name in WEAPON_RELEVANT_MODEL_RULES else 0)
                | (_M_TRANSPORT if name == "Transport" else 0))
        per_toughness = flat = 0
        if name in tables.ABILITY_TABLE:
            per_toughness = t.per_toughness.get(name) or 0
        elif name == "Transport":
            pass
        elif name in t.by_x:
            if value.value is not None:
                flat = t.by_x[name] * value.value
        else:
            flat = t.flat.get(name) or 0
        return kind, value, name, mask, per_toughness, flat

    def weapon_rule(self, rule: Rule) -> _WeaponRule:
        """`scaled_tables.weapon_factor`'s term of one rule, and the rule's flags."""
        t = self.tables
        name, value = rule.name, rule.value
        n = d = 1
        if value is not None and name in t.x_lines:
            line = t.x_lines[name]
            n, d = line.scaled(value), line.denominator
        else:
            found = t.weapon_multipliers.get(name)
            if found is not None:
                n, d = found
        flags = ((_FLAG_AP if name in t.ap_rules else 0) | (_FLAG_HIT if name in t.hit_rules else 0)
                 | (_FLAG_QUALITY if name == "Reliable" else 0)
                 | (_FLAG_ASSAULT if name == tables.ASSAULT_RULE else 0))
        return name, n, d, flags, frozenset((name,))


_VOCABULARY = _Vocabulary()


def _vocabulary() -> _Vocabulary:
    """The tables for the current `scaled_tables.TABLES` (made again after `scaled_tables.build`)."""
    global _VOCABULARY
    if _VOCABULARY.tables is not scaled_tables.TABLES:
        _VOCABULARY = _Vocabulary()
    return _VOCABULARY


def _model_reading(text: Any, vocabulary: _Vocabulary) -> _ModelRule | None:
    """A model rule written otherwise than the tables write it: read by the reader (as
    `_weapon_reading`); None if it has an error or the schema refuses it."""
    if not SHAPE.rule_text_valid(text):
        return None
    read = reader._learn_rule(text, "model")
    return None if read is None else vocabulary.model_rule(read)


def _weapon_reading(text: Any, vocabulary: _Vocabulary) -> _WeaponRule | None:
    """A weapon rule written otherwise than the tables write it ("LOCK-ON", "Blast( 3 )"): read by
    the reader (its learned readings, forgotten with its caches); None if it is not a plain rule
    or the schema refuses it."""
    if not SHAPE.rule_text_valid(text):
        return None
    read = reader._learn_rule(text, "weapon")
    if read is None or read[0] != "rule":
        return None
    return vocabulary.weapon_rule(read[1])


def fast_price(document: Any) -> tuple[int, Fraction] | None:
    """(points, exact total) of a valid unit document of plain JSON, as `price(parse_unit(document))`
    gives them; None for anything the reader's fast path would not take (then `price_document`)."""
    try:
        return _fast_price(document)
    except KeyError:  # a required field missing though the schema said valid: the reader's way
        return None


#: `get`'s answer for a field left out (a field written `null` is None, which the schema refuses)
_ABSENT: tuple[()] = ()


def _schema_valid(document: Any) -> bool:
    """jsonschema-rs's verdict, as `reader._fast_valid` asks it: False when it cannot say."""
    try:
        return bool(_fast_validator("unit").is_valid(document))
    except (RecursionError, TypeError, ValueError, OverflowError):
        return False


def _granted(items: list[Any], canonical: dict[str, str], default_range: int) -> list[Aura] | None:
    """The auras or orders of schema-valid `items` (`document_shape` checked their keys and
    enums), as `reader._Reader._auras` reads them; None if one grants something written otherwise
    than the tables write it (then the reader reads them all, errors included)."""
    found = []
    for item in items:
        grants = canonical.get(item["grants"])
        if grants is None:
            return None
        found.append(Aura(grants, item.get("to", "friends"), item.get("effect", "grant"),
                          item.get("range", default_range)))
    return found


def _fast_price(document: Any) -> tuple[int, Fraction] | None:
    # The schema's checks are made in the walk (`document_shape`): anything the schema refuses is
    # not taken, and `parse_unit` reports it with the schema's messages
    shape = SHAPE
    if type(document) is not dict or not document.keys() <= shape.unit_keys:
        return None
    if not shape.complete and not _schema_valid(document):
        return None  # a schema the walk was not written for: jsonschema-rs says, as before
    name, models = document["name"], document["models"]
    models_low, models_high = shape.models
    if not shape.name_valid(name) or type(models) is not list or not models_low <= len(models) <= models_high:
        return None
    if "format" in document:
        value = document["format"]
        if type(value) is not int or (int, value) not in shape.format:
            return None
    if "system" in document:
        value = document["system"]
        if type(value) is not str or (str, value) not in shape.system:
            return None
    if "extra" in document:
        extra = document["extra"]
        if type(extra) is not dict:
            return None
        if extra:
            try:  # the reader keeps a copy of plain JSON: a document it cannot copy goes its way
                json.dumps(extra)
            except (RecursionError, TypeError, ValueError):
                return None
    vocabulary = _vocabulary()
    (model_readings, weapon_readings, morale_table, morale_rules, toughness_ratios,
     range_scaled, range_denominator, melee_scaled, hits, hit_names, aps, ap_names,
     aura_costs, long_aura_costs, order_costs, long_range, defence_base, defence_denominator,
     ap_base, ap_denominator, hit_rules, faces, attack_n, attack_d, model_multipliers,
     morale_plain, ability_denominator, name_low, name_high, count_low, count_high,
     quality_low, quality_high, defence_low, defence_high, toughness_low, toughness_high,
     rules_max, weapons_max, range_low, range_high, attacks_low, attacks_high,
     ap_low, ap_high) = vocabulary.walk_constants
    fixed_n, fixed_d, melee_n, melee_d, ranged_n, ranged_d = 0, 1, 0, 1, 0, 1
    for data in models:
        if type(data) is not dict:
            return None
        get = data.get
        # a required field missing: KeyError, not taken (`fast_price`)
        model_name, count, quality, defence = data["name"], data["count"], data["quality"], data["defence"]
        toughness, written = get("toughness", _ABSENT), get("rules", _ABSENT)
        weapons = get("weapons", _ABSENT)
        # no key but the schema's (`Shape.model_keys`, counted: cheaper than a set comparison; a
        # schema with other keys is not `complete`, and jsonschema-rs has checked the document)
        if len(data) != (4 + (toughness is not _ABSENT) + (written is not _ABSENT) + (weapons is not _ABSENT)
                         + ("auras" in data) + ("orders" in data) + ("parts" in data)):
            return None
        if toughness is _ABSENT:
            toughness = 1
        if (type(model_name) is not str or type(count) is not int or type(quality) is not int
                or type(defence) is not int or type(toughness) is not int
                or not name_low <= len(model_name) <= name_high or not count_low <= count <= count_high
                or not quality_low <= quality <= quality_high or not defence_low <= defence <= defence_high
                or not toughness_low <= toughness <= toughness_high):
            return None
        orders: list[Any] = []
        mask = per_toughness = flat = 0
        if not written:
            if written is not _ABSENT and type(written) is not list:
                return None
            rules: list[Rule] = []
            names = _NO_NAMES
        else:
            if type(written) is not list or len(written) > rules_max:
                return None
            rules = []
            found_names = []
            for text in written:
                try:
                    read = model_readings.get(text)
                except TypeError:  # a rule that is not text (the schema would have said so)
                    return None
                if read is None:  # written otherwise than the tables write it: the reader reads it
                    read = _model_reading(text, vocabulary)
                    if read is None:
                        return None
                kind, value, rule_name, rule_mask, rule_per_toughness, rule_flat = read
                if kind == "rule":
                    rules.append(value)
                    found_names.append(rule_name)
                    mask |= rule_mask
                    per_toughness += rule_per_toughness
                    flat += rule_flat
                elif kind == "order":
                    orders.append(value)
                else:
                    return None  # Tough(X): the reader checks it against `toughness`
            names = frozenset(found_names)
            if len(names) != len(rules):
                return None  # a rule listed twice: an error
            if len(names) > 1:
                for pair in reader._MUTUALLY_EXCLUSIVE:
                    if pair <= names:
                        return None  # contradicting rules: an error
            if "Massive" in names:
                return None  # a Massive model's parts: the reader reads them
        if "parts" in data:
            return None  # parts (of a Massive model, or an error): the reader reads them
        auras: list[Any] = []
        if "auras" in data or "orders" in data:
            auras_data, orders_data = get("auras", []), get("orders", [])
            if not (shape.grants_valid(auras_data, "auras") and shape.grants_valid(orders_data, "orders")):
                return None
            auras = _granted(auras_data, vocabulary.grants["aura"], tables.AURA_RANGES[0])
            granted_orders = _granted(orders_data, vocabulary.grants["order"], tables.ORDER_RANGE)
            if auras is None or granted_orders is None:  # written otherwise: the reader reads them
                careful = reader._Reader()
                auras = careful._auras(auras_data, "aura", "auras")
                granted_orders = careful._auras(orders_data, "order", "orders")
                if careful.errors:
                    return None
            orders += granted_orders
        if type(weapons) is not list:
            if weapons is not _ABSENT:
                return None
        elif len(weapons) > weapons_max:
            return None
        # §2–4: the base cost, Σ (base + abilities) × count
        if mask & _M_MORALE:
            found_morale = morale_table.get((quality, names & morale_rules))
        else:
            found_morale = morale_plain.get(quality)
        if found_morale is None:
            found_morale = _morale_entry(quality, names)[1:]
        morale_n, morale_d = found_morale
        if mask & _M_DEFENCE:
            defence_n, defence_d = defence_ratio(defence, names)
        else:
            defence_n, defence_d = defence_base[defence], defence_denominator
        found_toughness = toughness_ratios.get(toughness)
        toughness_n, toughness_d = found_toughness if found_toughness is not None \
            else toughness_ratio(toughness)
        n = _BASE_FACTOR * morale_n * defence_n * toughness_n * count
        d = morale_d * defence_d * toughness_d
        # §6 from the rules' own terms (`ability_ratio`'s, summed as they were read)
        ability_n, ability_d = per_toughness * toughness + flat, ability_denominator
        if mask & _M_TRANSPORT:  # Transport(X)'s factor depends on the model's other rules
            factor = vocabulary.transport[names & vocabulary.transport_names]
            for rule in rules:
                if rule.name == "Transport" and rule.value is not None:
                    ability_n += factor * rule.value
        for aura in auras:
            ability_n += (long_aura_costs if aura.range >= long_range else aura_costs)[aura.grants]
        for order in orders:
            ability_n += order_costs[order.grants]
        if ability_n:
            n = n * ability_d + ability_n * count * d
            d *= ability_d
        if d == fixed_d:
            fixed_n += n
        else:
            common = lcm(fixed_d, d)
            fixed_n, fixed_d = fixed_n * (common // fixed_d) + n * (common // d), common
        if not weapons:
            continue
        # §5: the weapons of all `count` models, by category (an Assault weapon: also as melee)
        model_n = model_d = 1
        if mask & _M_WEAPON:
            model_rules = names & WEAPON_RELEVANT_MODEL_RULES
            shot_skill = not _SHOT_SKILLS.isdisjoint(model_rules)
            model_hit = not hit_rules.isdisjoint(model_rules)
            model_hit_names = model_rules & hit_names
            cautious = "Cautious" in model_rules
            for rule_name, multiplier_n, multiplier_d in model_multipliers:
                if rule_name in model_rules:
                    model_n *= multiplier_n
                    model_d *= multiplier_d
        else:
            model_rules, shot_skill, model_hit = _NO_NAMES, False, False
            model_hit_names, cautious = _NO_NAMES, False
        # lines priced with the model's own Quality (no rule of the model or the weapon changes the
        # hit chance): summed per model without the count and the hit chance they all share
        plain_melee_n, plain_melee_d, plain_ranged_n, plain_ranged_d = 0, 1, 0, 1
        model_factor_n, model_factor_d = attack_n * model_n, attack_d * model_d
        for weapon in weapons:
            if type(weapon) is not dict:
                return None
            wget = weapon.get
            weapon_name, weapon_range, attacks = weapon["name"], weapon["range"], weapon["attacks"]
            ap, written = wget("ap", _ABSENT), wget("rules", _ABSENT)
            # no key but the schema's (`Shape.weapon_keys`, counted)
            if len(weapon) != 3 + (ap is not _ABSENT) + (written is not _ABSENT):
                return None
            if ap is _ABSENT:
                ap = 0
            if (type(weapon_name) is not str or type(weapon_range) is not int or type(attacks) is not int
                    or type(ap) is not int or not name_low <= len(weapon_name) <= name_high
                    or not range_low <= weapon_range <= range_high
                    or not attacks_low <= attacks <= attacks_high or not ap_low <= ap <= ap_high):
                return None
            factor_n, factor_d, flags = model_factor_n, model_factor_d, 0
            weapon_names = _NO_NAMES
            if written:
                if type(written) is not list or len(written) > rules_max:
                    return None
                if len(written) == 1:  # the common case: the rule's own set of names, made at import
                    text = written[0]
                    try:
                        read = weapon_readings.get(text)
                    except TypeError:  # a rule that is not text (the schema would have said so)
                        return None
                    if read is None:  # written otherwise than the tables write it: the reader reads it
                        read = _weapon_reading(text, vocabulary)
                        if read is None:
                            return None
                    rule_name, rule_n, rule_d, flags, weapon_names = read
                    factor_n *= rule_n
                    factor_d *= rule_d
                else:
                    found_rules = []
                    for text in written:
                        try:
                            read = weapon_readings.get(text)
                        except TypeError:
                            return None
                        if read is None:
                            read = _weapon_reading(text, vocabulary)
                            if read is None:
                                return None
                        rule_name, rule_n, rule_d, rule_flags, _names = read
                        found_rules.append(rule_name)
                        factor_n *= rule_n
                        factor_d *= rule_d
                        flags |= rule_flags
                    weapon_names = frozenset(found_rules)
                    if len(weapon_names) != len(found_rules):
                        return None  # listed twice: an error
                if flags & _FLAG_ASSAULT and weapon_range == 0:
                    return None  # an error: Assault on a melee weapon
            elif written is not _ABSENT and type(written) is not list:
                return None
            if not attacks:
                continue  # costs nothing
            # one line per category the weapon is priced in (a ranged Assault weapon: also melee),
            # over the denominators of its multipliers and hit chance (× the AP and range tables'
            # own, the same for all)
            if flags & _FLAG_AP:
                found_ap = aps.get((ap, weapon_names & ap_names))
                ap_n = found_ap if found_ap is not None else ap_ratio(ap, weapon_names)[0]
            else:
                ap_n = ap_base[ap]
            weapon_n = factor_n * attacks * ap_n
            if not (model_hit or shot_skill or flags & _FLAG_CHANGES_HITS):
                if weapon_range:
                    n = weapon_n * range_scaled[weapon_range]
                    if factor_d == plain_ranged_d:
                        plain_ranged_n += n
                    else:
                        common = lcm(plain_ranged_d, factor_d)
                        plain_ranged_n = (plain_ranged_n * (common // plain_ranged_d)
                                          + n * (common // factor_d))
                        plain_ranged_d = common
                    if not flags & _FLAG_ASSAULT:
                        continue
                n = weapon_n * melee_scaled
                if factor_d == plain_melee_d:
                    plain_melee_n += n
                else:
                    common = lcm(plain_melee_d, factor_d)
                    plain_melee_n = plain_melee_n * (common // plain_melee_d) + n * (common // factor_d)
                    plain_melee_d = common
                continue
            weapon_n *= count
            reliable = flags & _FLAG_QUALITY
            weapon_hit = model_hit or flags & _FLAG_HIT
            line_hit_names = (model_hit_names | (weapon_names & hit_names)) if flags & _FLAG_HIT \
                else model_hit_names
            for melee in _LINES[weapon_range == 0][bool(flags & _FLAG_ASSAULT)]:
                range_n = melee_scaled if melee else range_scaled[weapon_range]
                line_quality = quality
                if reliable or (shot_skill and not melee):
                    line_quality = weapon_quality(quality, weapon_names, model_rules,
                                                  "melee" if melee else "ranged")[0]
                if weapon_hit:
                    found_hit = hits.get((line_quality, line_hit_names, not melee))
                    if found_hit is None:
                        hit_n, hit_d = hit_ratio(line_quality, weapon_names, model_rules, not melee,
                                                 weapon_range)
                    elif cautious:  # the other rules' terms and Cautious's, over one denominator
                        hit_n, hit_d = found_hit
                        hit_denominator = vocabulary.hit_denominator
                        hit_n = (hit_n * (hit_denominator // hit_d)
                                 + vocabulary.cautious_terms[0 if melee else weapon_range])
                        hit_d = hit_denominator
                    else:
                        hit_n, hit_d = found_hit
                    n = weapon_n * range_n * hit_n
                    d = factor_d * hit_d
                else:
                    n = weapon_n * range_n * (faces - line_quality)
                    d = factor_d
                if melee:
                    if d == melee_d:
                        melee_n += n
                    else:
                        common = lcm(melee_d, d)
                        melee_n, melee_d = melee_n * (common // melee_d) + n * (common // d), common
                elif d == ranged_d:
                    ranged_n += n
                else:
                    common = lcm(ranged_d, d)
                    ranged_n, ranged_d = ranged_n * (common // ranged_d) + n * (common // d), common
        # the plain lines × the count and the model's hit chance (7 − Q), added to the unit's
        shared = count * (faces - quality)
        if plain_melee_n:
            n = plain_melee_n * shared
            if plain_melee_d == melee_d:
                melee_n += n
            else:
                common = lcm(melee_d, plain_melee_d)
                melee_n, melee_d = melee_n * (common // melee_d) + n * (common // plain_melee_d), common
        if plain_ranged_n:
            n = plain_ranged_n * shared
            if plain_ranged_d == ranged_d:
                ranged_n += n
            else:
                common = lcm(ranged_d, plain_ranged_d)
                ranged_n, ranged_d = ranged_n * (common // ranged_d) + n * (common // plain_ranged_d), common
    # the tables' denominators, left out of every line above
    melee_d *= ap_denominator * range_denominator
    ranged_d *= ap_denominator * range_denominator
    common = gcd(melee_n, melee_d)
    melee = melee_n // common, melee_d // common
    common = gcd(ranged_n, ranged_d)
    ranged = ranged_n // common, ranged_d // common
    common = gcd(fixed_n, fixed_d)
    return _points_and_exact(melee, ranged, (fixed_n // common, fixed_d // common))


_HALF = ratio(tables.CHEAPER_CATEGORY_FACTOR)


def _points_and_exact(melee: Ratio, ranged: Ratio, fixed: Ratio) -> tuple[int, Fraction]:
    """`unit_cost._totals`' rounded and exact totals alone (its melee and ranged Fractions, for the
    breakdown, are not made): the cheaper category halved (§5), the sum, half-up rounding (§1)."""
    melee_n, melee_d = melee
    ranged_n, ranged_d = ranged
    if melee_n * ranged_d > ranged_n * melee_d:  # a warrior: the ranged weapons are halved
        kept_n, kept_d, halved_n, halved_d = melee_n, melee_d, ranged_n, ranged_d
    else:
        kept_n, kept_d, halved_n, halved_d = ranged_n, ranged_d, melee_n, melee_d
    fixed_n, fixed_d = fixed
    half_n, half_d = _HALF
    halved_n *= half_n
    halved_d *= half_d
    denominator = lcm(fixed_d, kept_d, halved_d)
    numerator = (fixed_n * (denominator // fixed_d) + kept_n * (denominator // kept_d)
                 + halved_n * (denominator // halved_d))
    common = gcd(numerator, denominator)
    exact = numerator // common, denominator // common
    return _round_half_up(exact), fraction(exact)


def price_document(document: Any) -> tuple[int, Fraction]:
    """(points, exact total) of a unit document: `fast_price`, else `price(parse_unit(document))`
    (which raises `UnitFormatError` with every problem of an invalid one)."""
    found = fast_price(document)
    if found is not None:
        return found
    breakdown = price(reader.parse_unit(document))
    return breakdown.points, breakdown.exact
