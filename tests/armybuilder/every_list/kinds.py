"""The kinds of list the matrix runs every operation on (`KINDS`), each built the way a player
gets one: in the editor from a bundled faction of each game system (options and extra models
taken), from a faction imported out of a small BattleScribe file of each real shape (`files/`),
imported from Army Forge JSON, from a BattleScribe roster and from text, a guest's list, and a
locked snapshot.

A kind is a function of the `World` (the catalogue and the imported factions, made once per
module) returning a `Built`: the list, who owns it, and a unit the editor may add to it.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.core.management import call_command

from armybuilder.accounts.guests import GUEST_PREFIX
from armybuilder.lists import locks, selectors, services
from armybuilder.lists.backends import engine_units as roster_units
from armybuilder.lists.errors import ArmyListError
from armybuilder.lists.importers import Source
from armybuilder.lists.imports import import_source
from armybuilder.models import ArmyList, ListUnit
from rules.battlescribe.xml_reader import SourceFile
from rules.battlescribe_import import import_files
from rules.models import Faction, UnitTemplate
from tests.factories.army_lists import make_user

FILES = Path(__file__).parent / "files"
ARMY_FORGE_LIST = Path(__file__).parents[1] / "lists" / "imports" / "army_forge_list.json"
#: The bundled game systems, each with a faction of its own catalogue (`load_catalogue`).
BUNDLED_SYSTEMS = ("opr", "whfb6", "wh40k9", "aos1", "ru_whfb")
#: A faction of each real BattleScribe shape: (system, files, [(unit, {option label: count})]).
BATTLESCRIBE_SHAPES: dict[str, tuple[str, tuple[str, ...], list[tuple[str, dict[str, int]]]]] = {
    # 40k 9th (BSData/wh40k-9e): Game Type, Detachment Command Cost, Battle Size and Dynasty
    # Choice are configuration selections the force requires; a detachment force.
    "bs_40k_configuration": (
        "wh40k9",
        ("nine.gst", "nine_dynasty.cat"),
        [
            ("Overlord", {"Hyperphase Glaive": 1, "Warlord": 1}),
            ("Warriors", {"Warrior": 15}),
            ("Crypt Stalkers", {"Crypt Stalker": 2}),
        ],
    ),
    # AoS (BSData v1.50.9): an Allegiance of type unit with no models, one per force.
    "bs_aos_allegiance": (
        "aos1",
        ("sigmar.gst", "sigmar_storm.cat"),
        [
            ("Storm Lord", {"Runeblade": 1}),
            ("Storm Guard", {"Storm Guardsman": 10}),
        ],
    ),
    # WHFB 6th (Ergofarg): slots that scale with the points limit, profiles by infoLink.
    "bs_whfb6_scaled_slots": (
        "whfb6",
        ("sixth.gst", "sixth_empire.cat"),
        [
            ("Captain", {"Great Weapon": 1}),
            ("Spearmen", {"Spearmen": 15, "Musician": 1, "Standard Bearer": 1}),
            ("Knights", {"Knights": 6}),
        ],
    ),
    # WHFB 8th (BSData/whfb 8thBRB): a 1.15 army book (`<entries>`, points attributes) under the
    # 1.15 game system, read as BattleScribe 2 converts both (`engine.legacy_catalogue`).
    "bs_whfb8_legacy_book": (
        "ru_whfb",
        ("oldforce.gst", "oldforce_legacy.cat"),
        [
            ("Hold Warriors", {"Hold Warrior": 15, "Gromril Armour": 1}),
            ("Hold Lord", {}),
        ],
    ),
}
#: The BattleScribe files of the importer's own tests, which the matrix reads too.
RULES_FILES = Path(__file__).parents[2] / "rules" / "battlescribe_files"


def shape_file(name: str) -> SourceFile:
    """A file of a BattleScribe shape: the matrix's own (`files/`), else the importer tests'."""
    path = FILES / name if (FILES / name).exists() else RULES_FILES / name
    return SourceFile(name, path.read_bytes())


@dataclass
class World:
    """What every kind is built from, made once per module: the bundled catalogue, a player,
    and the factions imported from the BattleScribe shapes (`BATTLESCRIBE_SHAPES`)."""

    owner: User
    imported: dict[str, Faction] = field(default_factory=dict)

    @classmethod
    def make(cls) -> World:
        call_command("load_catalogue", verbosity=0)
        world = cls(owner=make_user("matrix-player"))
        for key, (system_key, names, units) in BATTLESCRIBE_SHAPES.items():
            files = [shape_file(name) for name in names]
            factions = import_files(system_key=system_key, files=files, owner=world.owner).factions
            # the catalogue's faction (the game system's root entries make a faction of their own)
            world.imported[key] = next(f for f in factions if f.units.filter(name=units[0][0]).exists())
        return world


@dataclass
class Built:
    """A list of one kind: the list, its owner and a catalogue unit the editor may add."""

    army_list: ArmyList
    owner: User
    addable: UnitTemplate | None
    locked: bool = False


def _first_fit(army_list: ArmyList, candidates: list[tuple[UnitTemplate, dict[str, int]]]) -> ListUnit:
    """Add the first candidate (unit, options) the list takes; the catalogue decides which fit."""
    problems = []
    for template, options in candidates:
        army_list.refresh_from_db()
        try:
            return services.army_list_add_unit(
                army_list=army_list, unit=template, options=options, expected_version=army_list.version
            )
        except ArmyListError as exc:
            problems.append((template.slug, options, exc.errors))
    raise AssertionError(f"no candidate fits: {problems}")


def bundled(system_key: str) -> Callable[[World], Built]:
    """A list of the system's first bundled faction holding a unit with an extra model taken and
    a unit with another priced option taken."""

    def build(world: World) -> Built:
        for faction in Faction.objects.filter(system__key=system_key, owner__isnull=True).order_by("slug"):
            templates = list(faction.units.prefetch_related("options").order_by("slug"))
            extra = [
                (t, {o.key: o.min_count + 1})
                for t in templates
                for o in t.options.all()
                if o.kind == "add_models" and o.max_count > o.min_count
            ]
            priced = [
                (t, {o.key: o.min_count + 1})
                for t in templates
                for o in t.options.all()
                if o.kind != "add_models" and o.max_count > o.min_count
            ]
            if extra and priced:
                break
        else:
            raise AssertionError(f"no bundled faction of {system_key} has options of both sorts")
        army_list = services.army_list_create(
            owner=world.owner,
            system=faction.system,
            faction=faction,
            name=f"Bundled {system_key}",
            points_limit=4000,
        )
        first = _first_fit(army_list, extra)
        second = _first_fit(army_list, priced)
        assert first.chosen_options and second.chosen_options
        return Built(army_list=army_list, owner=world.owner, addable=templates[0])

    return build


def _option_key(unit: ListUnit, label: str) -> str:
    return next(o["key"] for o in unit.available_options if o["label"] == label)


def battlescribe(key: str) -> Callable[[World], Built]:
    """A list of the faction imported from the shape `key`, built in the editor by the engine,
    the options of `BATTLESCRIBE_SHAPES` taken."""

    def build(world: World) -> Built:
        faction = world.imported[key]
        _system, _files, wanted = BATTLESCRIBE_SHAPES[key]
        army_list = services.army_list_create(
            owner=world.owner,
            system=faction.system,
            faction=faction,
            name=f"Imported {key}",
            points_limit=2000,
        )
        templates = {t.name: t for t in UnitTemplate.objects.filter(faction=faction)}
        for name, options in wanted:
            army_list.refresh_from_db()
            unit = services.army_list_add_unit(
                army_list=army_list, unit=templates[name], options={}, expected_version=army_list.version
            )
            army_list.refresh_from_db()
            unit.army_list = army_list
            counts = {**unit.chosen_options, **{_option_key(unit, label): n for label, n in options.items()}}
            services.army_list_unit_set_options(
                list_unit=unit, options=counts, expected_version=army_list.version
            )
        army_list.refresh_from_db()
        return Built(army_list=army_list, owner=world.owner, addable=templates[wanted[0][0]])

    return build


def _imported(world: World, source: Source, **asked: Any) -> Built:
    outcome = import_source(user=world.owner, source=source, **asked)
    assert outcome.saved and outcome.army_list is not None
    army_list = ArmyList.objects.get(pk=outcome.army_list.pk)
    addable = selectors.army_list_unit_choices(army_list=army_list).first()
    return Built(army_list=army_list, owner=world.owner, addable=addable)


def from_army_forge(world: World) -> Built:
    """Army Forge's list JSON (the fixture of the importer's tests)."""
    return _imported(world, Source(name="army_forge_list.json", data=ARMY_FORGE_LIST.read_bytes()))


def from_roster(world: World) -> Built:
    """A BattleScribe roster of the 40k shape, its configuration selections included, read by the
    general importer (the path real 9th-edition rosters take)."""
    made = battlescribe("bs_40k_configuration")(world)
    units = list(made.army_list.units.order_by("position"))
    assert roster_units.configuration(units), "the roster must carry configuration selections"
    xml = roster_units.roster_file(made.army_list, units)
    return _imported(world, Source(name="patrol.ros", data=xml))


def from_text(world: World) -> Built:
    """A pasted list in text, read against the OPR catalogue."""
    text = "Concord Wardens [10] Q4+ D5+ | 120pts | Fearless\nWarden Captain [1] | 60pts\n"
    return _imported(world, Source.of_text(text), format="text", system_key="opr")


def guest(world: World) -> Built:
    """A visitor's list: owned by a session's guest account (`armybuilder.accounts.guests`)."""
    visitor = User(username=GUEST_PREFIX + secrets.token_hex(8))
    visitor.set_unusable_password()
    visitor.save()
    made = bundled("opr")(World(owner=visitor))
    return Built(army_list=made.army_list, owner=visitor, addable=made.addable)


def locked(world: World) -> Built:
    """A locked snapshot (Lock and share) of a list of the 40k BattleScribe shape: read-only."""
    made = battlescribe("bs_40k_configuration")(world)
    snapshot = locks.army_list_lock(army_list=made.army_list, expected_version=made.army_list.version)
    return Built(army_list=snapshot, owner=world.owner, addable=made.addable, locked=True)


#: Every kind of list, by name: a new kind of list is a new entry here, and the matrix runs
#: every operation on it.
KINDS: dict[str, Callable[[World], Built]] = {
    **{f"bundled_{key}": bundled(key) for key in BUNDLED_SYSTEMS},
    **{key: battlescribe(key) for key in BATTLESCRIBE_SHAPES},
    "army_forge_import": from_army_forge,
    "roster_import": from_roster,
    "text_import": from_text,
    "guest": guest,
    "locked_snapshot": locked,
}
