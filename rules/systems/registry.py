"""The one seam for game systems (`DESIGN.md`, "One seam for game systems").

Views, the API, exports and jobs ask this registry for a system and call its methods;
they never branch on a system's name. A system is one package under `rules/systems/`
that builds a `GameSystem` and calls `register()` when it is imported; adding a system
is adding such a package (and its data): the registry discovers the packages under
`rules/systems/` itself (`pkgutil`), and each system declares its place in lists (`order`).
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import partial
from typing import Any

from rules.battlescribe.mapping import DEFAULT as NO_BATTLESCRIBE_MAPPING
from rules.battlescribe.mapping import BattleScribeMapping
from rules.systems.generic_cost import generic_cost
from rules.systems.play import NO_PLAY, PlayRules

#: The package whose sub-packages are the systems (each imported once, lazily).
SYSTEMS_PACKAGE = "rules.systems"


@dataclass(frozen=True)
class CombatChance:
    """A chance of a fight that the gauntlet reports for each unit of a list, averaged over the
    gauntlet's units (WHFB: it wins the combat; AoS: it holds against battleshock).

    `key` names an `outcomes` entry of kind probability in `attack`'s melee result. `side` says
    whose attacks that result is of: `"attacking"`, the unit's own attacks on a gauntlet unit
    (WHFB's combat result, which counts both sides' blows); `"attacked"`, a gauntlet unit's
    attacks on it (AoS battleshock, 40k Morale). `label` is a short English heading for the
    chance ("Holds") and `sentence` explains it to a player with `%(unit)s` and `%(percent)s`
    ("46%"); both are marked with `gettext_noop` and translated on display.
    """

    key: str
    side: str
    label: str
    sentence: str


def no_attack(attacker: Mapping[str, Any], defender: Mapping[str, Any], situation: Any) -> Mapping[str, Any]:
    """`attack` of a system without estimates (`GameSystem.can_attack` is False): never called."""
    raise NotImplementedError("this game system has no damage estimates")


def as_given(value: Any) -> Any:
    """`prepare_unit` / `prepare_situation` of a system whose `attack` takes the dicts as they are."""
    return value


def no_situation_errors(situation: Mapping[str, Any]) -> dict[str, list[str]]:
    """`situation_errors` of a system whose situation has no checks across its fields."""
    return {}


def no_caches() -> None:
    """`clear_caches` of an engine that keeps nothing between matchups."""


def no_figures(*_args: Any) -> list[Mapping[str, Any]]:
    """`army_summary` / `unit_summary` of a system that reports no figures besides points."""
    return []


def no_profile_gains(model: dict[str, Any], gives: Mapping[str, Any]) -> None:
    """An item's profile gains for a system whose items give none (only rules and weapons)."""


def no_unit_wounds(unit: Mapping[str, Any]) -> None:
    """`unit_wounds` of a system whose gauntlet is measured per model or point, not per wound."""
    return None


@dataclass(frozen=True)
class GameSystem:
    """Everything the product needs to know to support one game system.

    - `profile_schema`: JSON Schema of one model's profile fields in the unit format;
    - `price(unit_dict)` -> a JSON-ready breakdown with at least `points` (int) and `exact`;
    - `validate(army_dict)` -> a list of violation dicts (`rule`, `unit`, `message`);
    - `attack(attacker, defender, situation)` -> an exact outcome (`can_attack` says whether
      the system has one); its
      `outcomes` entries of kind probability or number also go into list-vs-list matrix cells,
      unless the entry says `"matrix": false` (a figure that explains one matchup, such as the
      Ld a break test used, but would crowd a heat map);
    - `reference_targets`: typical enemy units to estimate against;
    - `situation_schema`: JSON Schema of the situation `attack` takes (the estimates
      contract, `docs/estimates.md`): an object without additional properties, each
      property with a `title` (English label, translated on display), a `default`, an
      optional `description`, and of type boolean, integer/number with `minimum`/`maximum`,
      or string with `enum` (optional `x-enum-labels`). Every system that can attack has at
      least `mode` (`shooting`/`melee`). The product layer builds forms, API bodies, command
      options and situation sentences from it and never names a field itself. Optional
      `x-command-aliases` on a property keeps short command-line flags of a system
      (`[{"flag": "--moved", "value": true, "also": {...}}]`, without `value` the flag takes one);
      `x-text` (words in the situation sentence, `%(value)s` for the value), `x-text-joined`
      (glued to the previous words) and `x-text-when` ({field: value or [values]}) describe it in words.
    - `situation_errors(situation)`: cross-field checks once the schema has passed (a charge
      that is not a melee attack), as `{field: [messages]}`; messages are English, marked
      with `gettext_noop` and translated on display.
    """

    key: str
    name: str
    source_language: str
    profile_schema: Mapping[str, Any]
    price: Callable[[Mapping[str, Any]], Mapping[str, Any]]
    validate: Callable[[Mapping[str, Any]], list[Mapping[str, Any]]]
    attack: Callable[..., Mapping[str, Any]] = no_attack
    #: `matrix_attack(attacker, defender, situation)` -> at least what a list job keeps of
    #: `attack` (`armybuilder.estimates.compute.matrix_cell`: `expected.kills`, `p_destroyed`,
    #: `expected_points_destroyed`, `points_efficiency` and the one-figure `outcomes`), the very
    #: same numbers, for less work (no distributions the matrix would throw away). None: the
    #: job calls `attack` (`cell_attack`).
    matrix_attack: Callable[..., Mapping[str, Any]] | None = None
    #: `matrix_row(attacker, defenders, situation)` -> `cell_attack(attacker, d, situation)` for
    #: each of `defenders`, in order, the same numbers (within 1e-12), done for the row at once
    #: where the system can share the work between the matchups (a list job's row:
    #: `armybuilder.estimates.compute.row_cells`). Not given: `row_attack` calls `cell_attack`
    #: per matchup, and a one-worker job reports its progress after each matchup.
    matrix_row: Callable[..., Sequence[Mapping[str, Any]]] | None = None
    #: `prepare_unit(unit_dict)` -> what `attack` takes in the dict's place (OPR: the parsed
    #: unit), done once per distinct unit of a list-vs-list job rather than in every matchup;
    #: `attack` must give exactly the same result on either. Default: the dict as it is.
    prepare_unit: Callable[[Mapping[str, Any]], Any] = as_given
    #: `prepare_situation(situation_dict)` -> the same for the job's one situation.
    prepare_situation: Callable[[Mapping[str, Any]], Any] = as_given
    description: str = ""
    #: The optional army-structure rules a list can switch on or off: key -> label.
    structure_options: Mapping[str, str] = field(default_factory=dict)
    #: Keys accepted on import that switch several rules at once (key -> member keys);
    #: they are expanded on the way in and never shown as switches of their own.
    structure_option_groups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: Standard targets for "what does my unit do to a typical X?" (name -> unit dict).
    reference_targets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: JSON Schema of the situation of an attack (see above); empty for a system without `attack`.
    situation_schema: Mapping[str, Any] = field(default_factory=dict)
    #: Cross-field checks of a complete situation: field name -> messages.
    situation_errors: Callable[[dict[str, Any]], dict[str, list[str]]] = no_situation_errors
    #: `check_unit(unit)`: raises `points.shared_format.UnitFormatError` for a unit `price` refuses,
    #: without pricing it, for a check that has no use for the price (an estimate request,
    #: `armybuilder.estimates.inputs.unit_check`); None: `price` is the check (call `check`).
    check_unit: Callable[[Mapping[str, Any]], None] | None = None
    #: Predicted (seconds, bytes) of one `attack(attacker, defender, situation)`, checked before
    #: a job is queued (`armybuilder.estimates.bounds`). Default: the generic conservative bound
    #: (`rules/systems/generic_cost.py`).
    estimate_cost: Callable[..., tuple[float, int]] = generic_cost
    #: Predicted (seconds, bytes) of one `cell_attack` (a list job's matrix cell, which may do
    #: far less than `attack`), what a list job's matchups are priced by (`bounds`: the
    #: per-matchup limit and the job's total). None: `estimate_cost` (`cell_cost`), a true upper
    #: bound, since `matrix_attack` does no more than `attack`.
    estimate_cell_cost: Callable[..., tuple[float, int]] | None = None
    #: Empties the caches the engine keeps between matchups (a cold run pays its whole cost: the
    #: machine-speed measurement of `armybuilder.estimates.machine_speed`, the cost-model benches).
    #: Default: nothing to empty (the engine keeps nothing that outlives a matchup).
    clear_caches: Callable[[], None] = no_caches
    #: JSON Schema object of the system's own per-list parameters (40k battle size, AoS
    #: allegiance, ...): every property has a `title` and a `default`, and is a boolean, a
    #: bounded integer or a string `enum` (optional `x-enum-labels`). The list form, the API
    #: and the exports carry the values (`ArmyList.settings`); `validate` reads them from the
    #: army's `settings`. Empty: the system has none.
    list_settings_schema: Mapping[str, Any] = field(default_factory=dict)
    #: Army-wide figures besides points that players read off a list (40k's Power Level):
    #: `army_summary(army_dict)` -> `[{"key", "label", "value", "limit"?, "over"?, "detail"?}]`,
    #: cheap (no pricing); `over` marks a figure past its bounds, `detail` a line for the
    #: list's rules panel and the roster rather than the editor's totals bar (40k detachments).
    #: Default: no figures (`summarises_army` is then False, and nothing is asked).
    army_summary: Callable[[Mapping[str, Any]], list[Mapping[str, Any]]] = no_figures
    #: Whether a list of this system is sized by a points limit. False (AoS 1st: "no points,
    #: any number of models"): pages, forms, exports and the API neither ask for nor show a
    #: points limit or points left, and `army_summary` says what sizes the list instead.
    points_sized: bool = True
    #: The points limit a new list's form starts with: a game size whose army-composition rules
    #: let a newcomer field what the faction's first units are (WHFB 6th: no Lord below 2,000).
    default_points_limit: int = 1000
    #: Figures of one unit that players read beside its points (WHFB: each character's magic
    #: items used / allowed): `unit_summary(army_dict, unit_dict)` -> `[{"key", "label",
    #: "value", "limit"?, "model"?}]`, cheap (no pricing); the army is given because a limit
    #: may depend on the list's switches. Shown on the unit card, the roster and the API.
    unit_summary: Callable[[Mapping[str, Any], Mapping[str, Any]], list[Mapping[str, Any]]] = no_figures
    #: Kinds a group of units can be (40k 9th: Patrol, Battalion, Brigade detachments), key ->
    #: label; `group_kind_title` names the choice ("Detachment"). A list records each group's
    #: kind (`ArmyList.group_kinds`); the army dict then carries `groups` ({name: kind}) and
    #: each unit entry its `group`, for `validate` and `army_summary`. Empty: the system has
    #: no such groups and a list's groups are the player's own (OPR, WHFB, AoS, RU).
    group_kinds: Mapping[str, str] = field(default_factory=dict)
    group_kind_title: str = ""
    #: The rounded points of a unit dict alone, the same number as `price(unit)["points"]` but
    #: without building the JSON breakdown (the list editor prices a unit once per
    #: option to show what each adds); None: read from `price` (call `unit_points`). Same errors
    #: as `price`.
    points: Callable[[Mapping[str, Any]], int] | None = None
    #: Readers and writers of other tools' unit shapes for this system, by format key
    #: ("army_forge": a module with `read_unit(entry, path)`, `merge_combined(host, joined)`
    #: and `write_unit(unit, points=, selection_id=)`). The importers and exports ask for a
    #: format here and never name a system.
    foreign_units: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """A behaviour given as None (`replace(system, attack=None)`) is the default one, so no
        caller ever tests a field for None."""
        for spec in fields(self):
            if getattr(self, spec.name) is None and spec.default in _BEHAVIOUR_DEFAULTS:
                object.__setattr__(self, spec.name, spec.default)

    @property
    def cell_attack(self) -> Callable[..., Mapping[str, Any]]:
        """What a list job calls per matchup for its matrix cell: `matrix_attack`, else `attack`."""
        return self.matrix_attack or self.attack

    @property
    def row_attack(self) -> Callable[..., Sequence[Mapping[str, Any]]]:
        """What a list job calls for one attacker against a row of defenders: `matrix_row`,
        else `cell_attack` for each defender in turn (the same cells, one by one)."""
        return self.matrix_row or partial(_cells_one_by_one, self.cell_attack)

    @property
    def computes_rows(self) -> bool:
        """Whether the system shares work between the matchups of a row (`matrix_row`): a
        one-worker job then reports its progress per row rather than per matchup."""
        return self.matrix_row is not None

    @property
    def cell_cost(self) -> Callable[..., tuple[float, int]]:
        """What prices a list job's cell: `estimate_cell_cost`, else `estimate_cost`."""
        return self.estimate_cell_cost or self.estimate_cost

    @property
    def can_attack(self) -> bool:
        """Whether the system estimates damage (it declares an `attack`)."""
        return self.attack is not no_attack

    @property
    def summarises_army(self) -> bool:
        """Whether the system reports army-wide figures besides points (`army_summary`)."""
        return self.army_summary is not no_figures

    @property
    def playable(self) -> bool:
        """Whether a game of this system can be played in play mode (it declares `play`)."""
        return self.play is not NO_PLAY

    @property
    def maps_battlescribe(self) -> bool:
        """Whether the system declares how BattleScribe data maps onto it (`battlescribe`)."""
        return self.battlescribe is not NO_BATTLESCRIBE_MAPPING

    @property
    def counts_wounds(self) -> bool:
        """Whether the gauntlet also measures this system per wound (`unit_wounds`)."""
        return self.unit_wounds is not no_unit_wounds

    def check(self, unit: Mapping[str, Any]) -> None:
        """Raise `UnitFormatError` for a unit `price` would refuse (`check_unit`, else `price`)."""
        (self.check_unit or self.price)(unit)

    def unit_points(self, unit: Mapping[str, Any]) -> int:
        """The rounded points of `unit` (`points` where declared, else `price`)."""
        if self.points is not None:
            return int(self.points(unit))
        return int(self.price(unit)["points"])

    @property
    def formula_priced(self) -> bool:
        """Points come from a published formula (no `points` field in a profile), so a book
        price from another source can be set beside the formula's (the points audit)."""
        return "points" not in (self.profile_schema.get("properties") or {})
    #: How BattleScribe data maps onto this system's unit format (a
    #: `rules.battlescribe.mapping.BattleScribeMapping`, declared in the system's package as
    #: `battlescribe.MAPPING`): its profile and cost types, characteristic spellings, slot and
    #: item fields. Default: the mapping of no BattleScribe data (`mapping.DEFAULT`: no cost or
    #: profile types of its own, no editions), imported by best match against `profile_schema`.
    battlescribe: BattleScribeMapping = NO_BATTLESCRIBE_MAPPING
    #: Place in every list of systems (home page, catalogue, forms): lower first, then by key.
    order: int = 100
    #: Figures besides points that `price` reports and the product shows beside them (40k:
    #: `{"power": "Power"}`): breakdown key -> English label, translated on display.
    price_figures: Mapping[str, str] = field(default_factory=dict)
    #: The key of `price_figures` a BattleScribe roster export writes as its second cost type
    #: (40k's Power), named as the system's mapping names it (`BattleScribeMapping.
    #: cost_type_name`); "": the export writes points only.
    roster_cost_figure: str = ""
    #: Template that explains `price`'s breakdown term by term in the designer (OPR's formula);
    #: it gets `breakdown` (the `price` dict). "": the generic "count × points each" lines.
    breakdown_template: str = ""
    #: The chances of a fight the gauntlet reports per unit (`CombatChance`), in the order shown;
    #: empty: the gauntlet shows none for this system.
    combat_chances: tuple[CombatChance, ...] = ()
    #: `unit_wounds(unit_dict)` -> the damage that slays every model of a unit (the sum of its
    #: models' wounds). A system without points that declares it has its gauntlet measured per
    #: wound as well as per model (AoS 1st), from the estimates contract's expected `damage`.
    #: Default: none (`counts_wounds` is False).
    unit_wounds: Callable[[Mapping[str, Any]], int | None] = no_unit_wounds
    #: Template of a page that explains the system's points formula in a player's words, one
    #: section per factor, each with an `id` (the designer and the breakdown link to them).
    #: "": the system has no formula page (priced from its catalogue).
    formula_template: str = ""
    #: Profile and weapon field → the `id` of the formula page's section that prices it
    #: (`{"quality": "morale"}`): the designer links each such input to its explanation.
    formula_anchors: Mapping[str, str] = field(default_factory=dict)
    #: What play at the table tracks of this system (`rules.systems.play.PlayRules`: its per-unit
    #: states, its phases and the attack modes each allows, the profile field holding a model's
    #: wounds). Default: `NO_PLAY` (no states, no phases): the system cannot be played in play
    #: mode (`armybuilder/games/`), `playable` is False.
    play: PlayRules = NO_PLAY
    #: `item_gains(model, gives)`: what an item or mount gives a model's profile, applied in place
    #: (`rules.options`' `add_item` with `gives`; OPR: its Tough(X) adds to the model's own).
    #: Rules and weapons an item gives are the same for every system and are not this hook's.
    #: Default: the profile is unchanged.
    item_gains: Callable[[dict[str, Any], Mapping[str, Any]], None] = no_profile_gains


def _cells_one_by_one(cell_attack: Callable[..., Mapping[str, Any]], attacker: Any,
                      defenders: Sequence[Any], situation: Any) -> list[Mapping[str, Any]]:
    """`GameSystem.row_attack` of a system without `matrix_row`: each matchup on its own."""
    return [cell_attack(attacker, defender, situation) for defender in defenders]


#: The default behaviours a field falls back to when given as None.
_BEHAVIOUR_DEFAULTS = (no_attack, as_given, no_situation_errors, no_caches, no_figures, no_unit_wounds,
                       generic_cost, no_profile_gains, NO_BATTLESCRIBE_MAPPING, NO_PLAY)


def unit_points(system: GameSystem, unit: Mapping[str, Any]) -> int:
    """The rounded points of `unit` as `system` prices it (`GameSystem.unit_points`)."""
    return system.unit_points(unit)


_REGISTRY: dict[str, GameSystem] = {}
_imported: set[str] = set()


def register(system: GameSystem) -> GameSystem:
    """Add a system; registering the same key twice is a programming error."""
    if system.key in _REGISTRY and _REGISTRY[system.key] is not system:
        raise ValueError(f"game system {system.key!r} registered twice")
    _REGISTRY[system.key] = system
    return system


def unregister(key: str) -> None:
    """Remove a system again: for tests that register a toy system to prove the seam."""
    _REGISTRY.pop(key, None)
    _imported.discard(f"{SYSTEMS_PACKAGE}.{key}")


def system_packages() -> list[str]:
    """Every package under `rules/systems/` (a system registers itself when imported; shared
    packages such as `fantasy_combat` register nothing)."""
    package = importlib.import_module(SYSTEMS_PACKAGE)
    return sorted(
        f"{SYSTEMS_PACKAGE}.{info.name}" for info in pkgutil.iter_modules(package.__path__) if info.ispkg
    )


def _load() -> None:
    """Import every system package not imported yet. The folder is listed on each call (one
    `scandir`), so a package added while the process runs is found too."""
    for package in system_packages():
        if package not in _imported:
            importlib.import_module(package)
            _imported.add(package)


def _load_one(key: str) -> None:
    """Import only the package named for `key` (`rules.systems.<key>`), if there is one: pricing
    one OPR unit need not import every other system (commands start fast)."""
    if key in _REGISTRY or not key.isidentifier():
        return
    name = f"{SYSTEMS_PACKAGE}.{key}"
    if importlib.util.find_spec(name) is not None:
        importlib.import_module(name)


def get_system(key: str) -> GameSystem:
    """The registered system for `key`; KeyError names the known keys otherwise."""
    system = _REGISTRY.get(key)
    if system is not None:  # registered already: nothing to import (every estimate asks several times)
        return system
    _load_one(key)
    if key in _REGISTRY:
        return _REGISTRY[key]
    _load()
    try:
        return _REGISTRY[key]
    except KeyError:
        raise KeyError(f"unknown game system {key!r}; known: {', '.join(sorted(_REGISTRY))}") from None


def all_systems() -> list[GameSystem]:
    """Every registered system, in the order the systems declare (`GameSystem.order`)."""
    _load()
    return sorted(_REGISTRY.values(), key=lambda s: (s.order, s.key))
