"""The gauntlet: a list measured against the opponents it will meet, unit by unit.

Players ask "is this unit worth its points?" against the armies they actually face, not
one target at a time. A gauntlet is a set of opponents — the system's reference targets,
or whole lists — and every unit of the list is measured against every unit of them, in a
turn of shooting and a turn of fighting, with the game system's own exact `attack` (the
registry), so each matchup is exactly what `manage.py estimate` gives for the same pair.

What is reported, per unit of the list (`worth` is a unit's points; a system whose lists are
not sized by points — AoS 1st — counts models instead, and its units are worth their models):
- offence: the enemy worth it destroys per turn, per point of its own, averaged over the
  gauntlet's units weighted by their worth, in its better mode against each target (a unit
  shoots what it shoots best and charges what it fights best), and per mode;
- its best and worst target (most and least enemy worth destroyed per point of its own);
- durability: how many points of the gauntlet's attacks it takes to destroy it, per point
  of its own: the gauntlet's worth divided by the share of the unit all its units destroy
  in one turn each (their better mode); higher is tougher;
- for a system that counts models and declares `unit_wounds` (AoS 1st), offence and
  durability per wound as well: the same measures with a unit worth its wounds and a matchup
  destroying the expected damage it inflicts (the contract's `expected.damage`, at most the
  defender's wounds);
- the chances of its fights the system declares (`GameSystem.combat_chances`: WHFB wins the
  combat, AoS holds against battleshock), from its own melee attacks on each gauntlet unit or
  from theirs on it, averaged over the gauntlet's units weighted by their worth;
and per opponent list: the worth each side destroys per turn if every unit attacks once,
spreading its attacks over the other side's units by their worth, and who comes out ahead.

Nothing here touches Django: plain data in, plain data out. Each matchup goes through
`cached` (a callable the caller provides), keyed by the content of both units and the whole
situation (`matchup_key`), so a list edited by one option recomputes only that unit's rows
and columns.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.systems.registry import GameSystem

MODES = ("shooting", "melee")
#: Bump when what a cached matchup holds changes.
CACHE_VERSION = "3"

Situation = dict[str, Any]
Matchup = dict[str, Any]
MatchupCache = Callable[[str, Callable[[], Matchup]], Matchup]


@dataclass(frozen=True)
class GauntletUnit:
    """One unit of a list or of an opponent: its name, unit-format data and worth, the digest
    of its data (hashed once: a unit meets every unit of the gauntlet), and whether it is one of
    the system's reference targets. A reference target's name is the English msgid its system
    marks for translation, translated where it is shown (`gauntlet_text.shown_target`); a
    player's unit's name is shown as they wrote it, so the flag travels with every name the
    report gives of an enemy (`best_target_reference`, a pairing's `target_reference`)."""

    name: str
    data: Mapping[str, Any]
    worth: float
    digest: str = field(default="", compare=False)
    reference: bool = False

    def __post_init__(self) -> None:
        if not self.digest:
            object.__setattr__(self, "digest", content_digest(self.data))


@dataclass(frozen=True)
class Opponent:
    """An opponent of the gauntlet: a name and its units."""

    name: str
    units: Sequence[GauntletUnit]


@dataclass
class Gauntlet:
    """Everything measured: per unit, per opponent, and every matchup computed."""

    units: list[dict[str, Any]] = field(default_factory=list)
    opponents: list[dict[str, Any]] = field(default_factory=list)
    matchups: list[Matchup] = field(default_factory=list)
    worth_unit: str = "points"
    #: Every (unit, target) of the list's units, by worth destroyed per own worth, best first.
    pairings: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"worth_unit": self.worth_unit, "units": self.units, "opponents": self.opponents,
                "matchups": self.matchups}

    def best_pairings(self, count: int = 3) -> list[dict[str, Any]]:
        return self.pairings[:count]

    def worst_pairings(self, count: int = 3) -> list[dict[str, Any]]:
        return list(reversed(self.pairings[-count:])) if len(self.pairings) > count else []


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def content_digest(value: Any) -> str:
    """A digest of `value`'s canonical JSON."""
    return hashlib.sha256(canonical(value).encode("utf-8")).hexdigest()


def matchup_key(system_key: str, attacker: GauntletUnit, defender: GauntletUnit,
                situation_digest: str) -> str:
    """The content key of one matchup: the same two units in the same situation, the same key."""
    text = f"{CACHE_VERSION}:{system_key}:{attacker.digest}:{defender.digest}:{situation_digest}"
    return "gauntlet:" + hashlib.sha256(text.encode("ascii")).hexdigest()


def model_count(unit: Mapping[str, Any]) -> int:
    return sum(int(model.get("count") or 0) for model in unit.get("models") or [])


def unit_worth(system: GameSystem, unit: Mapping[str, Any]) -> float:
    """What a unit is worth: its points, or its models for a system without points."""
    if system.points_sized:
        return float(system.price(unit)["points"])
    return float(model_count(unit))


def reference_units(system: GameSystem) -> list[GauntletUnit]:
    """The system's reference targets as the gauntlet meets them, each marked as one (its name
    is translated where it is shown)."""
    return [GauntletUnit(name=str(data.get("name") or key), data=data, worth=unit_worth(system, data),
                         reference=True)
            for key, data in system.reference_targets.items()]


def no_cache(key: str, compute: Callable[[], Matchup]) -> Matchup:
    return compute()


def matchup_figures(system: GameSystem, attacker: Mapping[str, Any], defender: Mapping[str, Any],
                    situation: Situation) -> Matchup:
    """The figures of one matchup the gauntlet keeps, from the system's exact `attack`."""
    assert system.can_attack
    result = system.attack(attacker, defender, situation)
    # The system's own one-figure chances (WHFB: wins the combat, breaks), whatever they are.
    chances = [{"key": str(extra["key"]), "label": str(extra.get("label") or extra["key"]),
                "value": float(extra["value"])}
               for extra in result.get("outcomes") or ()
               if extra.get("kind") == "probability" and extra.get("matrix", True) is not False]
    return {"expected_kills": float(result["expected"]["kills"]),
            "expected_damage": float(result["expected"].get("damage") or 0.0),
            "expected_points_destroyed": float(result.get("expected_points_destroyed") or 0.0),
            "p_destroyed": float(result.get("p_destroyed") or 0.0), "chances": chances}


class _Prepared:
    """Units and situations as the system's `attack` takes them (`GameSystem.prepare_unit`,
    `prepare_situation`), each read once per gauntlet and only when a matchup is computed
    (a matchup found in the cache reads nothing)."""

    def __init__(self, system: GameSystem) -> None:
        self.system = system
        self.units: dict[str, Any] = {}
        self.situations: dict[str, Any] = {}

    def unit(self, unit: GauntletUnit) -> Any:
        if unit.digest not in self.units:
            self.units[unit.digest] = self.system.prepare_unit(unit.data)
        return self.units[unit.digest]

    def situation(self, situation: Situation, digest: str) -> Any:
        if digest not in self.situations:
            self.situations[digest] = self.system.prepare_situation(situation)
        return self.situations[digest]


def _matchup(system: GameSystem, attacker: GauntletUnit, defender: GauntletUnit, situation: Situation,
             cached: MatchupCache, situation_digest: str, prepared: _Prepared | None = None,
             left_out: set[str] | None = None) -> Matchup:
    ready = prepared or _Prepared(system)
    key = matchup_key(system.key, attacker, defender, situation_digest)
    figures = cached(key, lambda: matchup_figures(system, ready.unit(attacker), ready.unit(defender),
                                                  ready.situation(situation, situation_digest)))
    if left_out is not None and figures.get("left_out"):
        left_out.add(key)
    return {"attacker": attacker.name, "defender": defender.name, "situation": dict(situation), **figures}


def by_points(system: GameSystem, units: Sequence[GauntletUnit]) -> bool:
    """Whether the gauntlet counts points: the system prices its lists and every unit on both
    sides has points. Otherwise it counts models (AoS 1st; reference targets without points),
    so that no unit's measure is a division by nothing."""
    return system.points_sized and all(unit.worth > 0 for unit in units)


def destroyed(matchup: Matchup, defender: GauntletUnit, *, points: bool) -> float:
    """Worth of `defender` destroyed in `matchup`: points, or models."""
    if points:
        return matchup["expected_points_destroyed"]
    return min(matchup["expected_kills"], float(model_count(defender.data)))


@dataclass(frozen=True)
class UnitMeasure:
    """What one unit of a list measures against the whole gauntlet: its report row, and per
    enemy unit (in the gauntlet's order) the worth it destroys and the worth of it destroyed
    in a turn, each in the better mode. A unit's figures need only its own matchups, so a
    caller may keep this per unit content (`gauntlet_panel`) and `combine` the list's report
    from it without reading a matchup again; `left_out` are the keys of its matchups past the
    estimate limits."""

    row: dict[str, Any]
    dealt: tuple[float, ...]
    taken: tuple[float, ...]
    left_out: frozenset[str] = frozenset()


def measure(system: GameSystem, units: Sequence[GauntletUnit], opponents: Sequence[Opponent],
            situations: Mapping[str, Situation], *, cached: MatchupCache = no_cache,
            count_points: bool | None = None) -> Gauntlet:
    """Measure `units` against every unit of `opponents` in each mode of `situations`
    (mode → the full situation object `attack` takes). `count_points` overrides `by_points`
    (a caller measuring some units of a list decides it for the whole list)."""
    enemies = [enemy for opponent in opponents for enemy in opponent.units]
    points = by_points(system, [*units, *enemies]) if count_points is None else count_points
    matchups: list[Matchup] = []
    measures = [measure_unit(system, unit, enemies, situations, cached=cached, points=points, into=matchups)
                for unit in units]
    report = combine(units, opponents, measures, points=points)
    report.matchups = matchups
    return report


def as_counted(unit: GauntletUnit, *, points: bool) -> GauntletUnit:
    """The unit as the gauntlet counts it: worth its points, or its models."""
    return unit if points else replace(unit, worth=float(model_count(unit.data)))


def measure_unit(system: GameSystem, unit: GauntletUnit, enemies: Sequence[GauntletUnit],
                 situations: Mapping[str, Situation], *, cached: MatchupCache, points: bool,
                 into: list[Matchup] | None = None) -> UnitMeasure:
    """One unit of the list against every enemy unit in each mode (`measure`'s row of it);
    the matchups it reads are appended to `into` when given."""
    unit = as_counted(unit, points=points)
    enemies = [as_counted(enemy, points=points) for enemy in enemies]
    per_wound = not points and system.counts_wounds
    digests = {mode: content_digest(situation) for mode, situation in situations.items()}
    prepared = _Prepared(system)
    count_wounds = system.unit_wounds if per_wound else None
    own_wounds = float(count_wounds(unit.data)) if count_wounds else 0.0
    enemy_wounds = [float(count_wounds(e.data)) for e in enemies] if count_wounds else []
    # (enemy index, mode) -> worth destroyed, both directions (and wounds).
    dealt: dict[tuple[int, str], float] = {}
    taken: dict[tuple[int, str], float] = {}
    dealt_wounds: dict[tuple[int, str], float] = {}
    taken_wounds: dict[tuple[int, str], float] = {}
    # enemy index -> the melee matchups' chances: its own attacks, and theirs on it.
    attacking: dict[int, list[dict[str, Any]]] = {}
    attacked: dict[int, list[dict[str, Any]]] = {}
    left_out: set[str] = set()
    for j, enemy in enumerate(enemies):
        for mode, situation in situations.items():
            forward = _matchup(system, unit, enemy, situation, cached, digests[mode], prepared, left_out)
            backward = _matchup(system, enemy, unit, situation, cached, digests[mode], prepared, left_out)
            if into is not None:
                into += [forward, backward]
            dealt[j, mode] = destroyed(forward, enemy, points=points)
            taken[j, mode] = destroyed(backward, unit, points=points)
            if per_wound:
                dealt_wounds[j, mode] = min(forward.get("expected_damage", 0.0), enemy_wounds[j])
                taken_wounds[j, mode] = min(backward.get("expected_damage", 0.0), own_wounds)
            if situation.get("mode") == "melee":
                attacking[j] = forward.get("chances") or []
                attacked[j] = backward.get("chances") or []

    own = unit.worth or 1.0
    best_dealt = tuple(max(dealt[j, mode] for mode in situations) for j in range(len(enemies)))
    best_taken = tuple(max(taken[j, mode] for mode in situations) for j in range(len(enemies)))
    per_target = [value / own for value in best_dealt]
    by_mode = {mode: _weighted([dealt[j, mode] / own for j in range(len(enemies))], enemies)
               for mode in situations}
    best = max(range(len(enemies)), key=lambda j: per_target[j], default=None)
    worst = min(range(len(enemies)), key=lambda j: per_target[j], default=None)
    enemy_worths = [e.worth for e in enemies]
    row: dict[str, Any] = {
        "name": unit.name,
        "points": unit.worth,
        "offence_per_point": _weighted(per_target, enemies),
        "offence_by_mode": by_mode,
        "durability_per_point": _durability(unit.worth, enemy_worths, best_taken),
        "best_target": enemies[best].name if best is not None else None,
        "best_target_reference": best is not None and enemies[best].reference,
        "worst_target": enemies[worst].name if worst is not None else None,
        "worst_target_reference": worst is not None and enemies[worst].reference,
        "melee_chances": _mean_chances([attacking.get(j, []) for j in range(len(enemies))], enemies),
        "combat_chances": _declared_chances(system, attacking, attacked, enemies),
    }
    if per_wound:
        per_own = [max(dealt_wounds[j, mode] for mode in situations) / (own_wounds or 1.0)
                   for j in range(len(enemies))]
        row["wounds"] = own_wounds
        row["offence_per_wound"] = _mean(per_own, enemy_wounds)
        row["durability_per_wound"] = _durability(
            own_wounds, enemy_wounds, [max(taken_wounds[j, mode] for mode in situations)
                                       for j in range(len(enemies))])
    return UnitMeasure(row=row, dealt=best_dealt, taken=best_taken, left_out=frozenset(left_out))


def combine(units: Sequence[GauntletUnit], opponents: Sequence[Opponent], measures: Sequence[UnitMeasure],
            *, points: bool) -> Gauntlet:
    """The list's report from its units' measures (`measure_unit`, one per unit of `units`, in
    order): their rows, every (unit, target) pairing, and the trade against each opponent."""
    units = [as_counted(unit, points=points) for unit in units]
    enemies = [as_counted(enemy, points=points) for opponent in opponents for enemy in opponent.units]
    report = Gauntlet(worth_unit="points" if points else "models")
    for unit, measured in zip(units, measures, strict=True):
        own = unit.worth or 1.0
        report.units.append(measured.row)
        report.pairings += [{"unit": unit.name, "target": enemy.name, "target_reference": enemy.reference,
                             "per_point": value / own}
                            for enemy, value in zip(enemies, measured.dealt, strict=True)]
    report.pairings.sort(key=lambda row: row["per_point"], reverse=True)
    own_weights = sum(unit.worth for unit in units) or 1.0
    start = 0
    for opponent in opponents:
        indices = range(start, start + len(opponent.units))
        start += len(opponent.units)
        weights = sum(enemies[j].worth for j in indices) or 1.0
        destroyed_per_turn = sum(enemies[j].worth / weights * measured.dealt[j]
                                 for measured in measures for j in indices)
        lost_per_turn = sum(unit.worth / own_weights * measured.taken[j]
                            for unit, measured in zip(units, measures, strict=True) for j in indices)
        report.opponents.append({
            "name": opponent.name,
            "points": sum(enemies[j].worth for j in indices),
            "points_destroyed_per_turn": destroyed_per_turn,
            "points_lost_per_turn": lost_per_turn,
            "ahead_by": destroyed_per_turn - lost_per_turn,
        })
    return report


def _durability(own: float, enemy_worths: Sequence[float], taken: Sequence[float]) -> float | None:
    """The gauntlet's worth of attacks needed to destroy a unit worth `own`, per its own worth:
    the gauntlet's worth over the share of the unit its units destroy in one turn each (`taken`,
    their better mode); None when they destroy none of it."""
    own = own or 1.0
    share_lost = sum(value / own for value in taken)
    return sum(enemy_worths) / share_lost / own if share_lost > 0 else None


def _mean(values: Sequence[float], weights: Sequence[float]) -> float:
    """The mean of `values` weighted by `weights` (0 when they weigh nothing)."""
    total = sum(weights)
    if not values or total <= 0:
        return 0.0
    return sum(value * weight for value, weight in zip(values, weights, strict=True)) / total


def _declared_chances(system: GameSystem, attacking: Mapping[int, list[dict[str, Any]]],
                      attacked: Mapping[int, list[dict[str, Any]]],
                      enemies: Sequence[GauntletUnit]) -> list[dict[str, Any]]:
    """The chances the system declares for a unit's fights (`GameSystem.combat_chances`), each
    averaged over the gauntlet's units that report it, weighted by their worth."""
    rows = []
    for chance in system.combat_chances:
        source = attacking if chance.side == "attacking" else attacked
        values, weights = [], []
        for j, enemy in enumerate(enemies):
            found = [c["value"] for c in source.get(j, []) if c["key"] == chance.key]
            if found:
                values.append(found[0])
                weights.append(enemy.worth)
        if values:
            rows.append({"key": chance.key, "label": chance.label, "side": chance.side,
                         "value": _mean(values, weights) if sum(weights) > 0 else sum(values) / len(values)})
    return rows


def _weighted(values: Sequence[float], enemies: Sequence[GauntletUnit]) -> float:
    """The mean of `values` (one per enemy unit) weighted by each enemy's worth."""
    total = sum(enemy.worth for enemy in enemies)
    if not values or total <= 0:
        return 0.0
    return sum(value * enemy.worth for value, enemy in zip(values, enemies, strict=True)) / total


def _mean_chances(per_enemy: Sequence[Sequence[Mapping[str, Any]]], enemies: Sequence[GauntletUnit]
                  ) -> list[dict[str, Any]]:
    """The system's one-figure chances of a unit's fights (WHFB: it wins the combat, it breaks),
    each averaged over the gauntlet's units weighted by their worth, in the order they come."""
    totals: dict[str, dict[str, Any]] = {}
    for chances, enemy in zip(per_enemy, enemies, strict=True):
        for chance in chances:
            row = totals.setdefault(chance["key"], {"key": chance["key"], "label": chance["label"],
                                                    "value": 0.0, "weight": 0.0})
            row["value"] += chance["value"] * enemy.worth
            row["weight"] += enemy.worth
    return [{"key": row["key"], "label": row["label"], "value": row["value"] / row["weight"]}
            for row in totals.values() if row["weight"] > 0]

