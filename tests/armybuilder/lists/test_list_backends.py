"""One list interface (issue 39): no product module asks which kind a list is, and the roster
engine's state is kept between clicks — equal to the roster rebuilt from the database, dropped
when another change moved the list on, and bounded.

Engine lists here are of the hand-written test catalogue `slots_court.cat` (as in
`test_roster_units_court.py`)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from armybuilder.lists import services
from armybuilder.lists.backends import backend_for, engine_units, roster_cache
from armybuilder.lists.backends.engine import EngineBackend
from armybuilder.models import ArmyList, ListUnit
from rules.battlescribe.list_roster import tree_of
from rules.battlescribe_import import import_files
from rules.models import UnitTemplate
from tests.factories.army_lists import make_list, make_user
from tests.rules.battlescribe.files import sources

ROOT = Path(__file__).resolve().parents[3]
COURT = ("slots.gst", "slots_court.cat")
#: The calls that asked which kind a list is, before the backends (and the module they lived in).
OLD_BRANCHES = {"is_roster_list", "is_engine_list", "roster_decides_settings"}


def test_no_product_module_asks_which_kind_a_list_is():
    """Only `armybuilder.lists.backends` picks a list's backend: no other module of the product
    calls a kind test or imports the old `roster_units` module (the 7 branch points of issue 39)."""
    found = []
    for path in sorted((ROOT / "armybuilder").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith("armybuilder/lists/backends/") or "/migrations/" in relative:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            name = None
            if isinstance(node, ast.Attribute):
                name = node.attr
            elif isinstance(node, ast.Name):
                name = node.id
            elif isinstance(node, ast.ImportFrom):
                names = {alias.name for alias in node.names}
                if node.module == "armybuilder.lists.roster_units" or (
                    node.module == "armybuilder.lists" and "roster_units" in names
                ):
                    found.append(f"{relative}:{node.lineno} imports roster_units")
                name = next(iter(names & OLD_BRANCHES), None)
            if name in OLD_BRANCHES:
                found.append(f"{relative}:{node.lineno} {name}")
    assert found == []


@pytest.fixture
def court(db):
    call_command("load_catalogue", verbosity=0)
    owner = make_user()
    result = import_files(system_key="wh40k9", files=sources(*COURT), owner=owner)
    roster_cache.clear()
    yield owner, result.factions[0]
    roster_cache.clear()


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run a service and the callbacks of its commit (the roster is kept when a change commits)."""

    def run(call, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return call(**kwargs)

    return run


def fresh(army_list: ArmyList) -> ArmyList:
    army_list.refresh_from_db()
    return army_list


def add(committed, army_list, slug):
    template = UnitTemplate.objects.get(faction=army_list.faction, slug=slug)
    return committed(
        services.army_list_add_unit,
        army_list=fresh(army_list), unit=template, options={}, expected_version=army_list.version,
    )


def take(committed, army_list, list_unit, label, count=1):
    list_unit.refresh_from_db()
    list_unit.army_list = fresh(army_list)
    key = next(o["key"] for o in list_unit.available_options if o["label"] == label)
    return committed(
        services.army_list_unit_set_options,
        list_unit=list_unit,
        options={**list_unit.chosen_options, key: count},
        expected_version=army_list.version,
    )


def assert_kept_equals_rebuilt(army_list: ArmyList) -> None:
    """The kept roster and rows of the list are those the database rebuilds: the same trees,
    menus, points, data and violations."""
    army_list = fresh(army_list)
    kept = roster_cache.peek(army_list.pk)
    assert kept is not None and kept.version == army_list.version
    stored = list(ListUnit.objects.filter(army_list=army_list).order_by("position"))
    rebuilt = engine_units.roster_of(army_list, stored)
    assert [tree_of(sel) for sel in kept.roster.units] == [tree_of(sel) for sel in rebuilt.units]
    assert [unit.pk for unit in kept.units] == [unit.pk for unit in stored]
    for mine, theirs in zip(kept.units, stored, strict=True):
        for name in (*engine_units.REFRESHED_FIELDS, "position"):
            assert getattr(mine, name) == getattr(theirs, name), (mine.name, name)
    fields = [f.attname for f in ListUnit._meta.concrete_fields]
    check = [ListUnit(**{name: getattr(u, name) for name in fields}) for u in stored]
    assert engine_units.refresh_units(army_list, rebuilt, check) == []  # the rows are what the engine says
    assert kept.roster.violations() == rebuilt.violations()
    assert kept.roster.roster.costs() == rebuilt.roster.costs()


def test_a_kept_roster_equals_the_one_rebuilt_from_the_database_after_clicks(court, committed):
    owner, faction = court
    army_list = make_list(owner=owner, faction=faction, points_limit=1000)
    lord = add(committed, army_list, "bs-se-court-lord")
    assert_kept_equals_rebuilt(army_list)
    roster = roster_cache.peek(army_list.pk).roster
    squad = add(committed, army_list, "bs-se-court-squad")
    take(committed, army_list, lord, "Warlord")
    take(committed, army_list, squad, "Guard", 7)
    seer = add(committed, army_list, "bs-se-court-seer")
    take(committed, army_list, seer, "Chosen Leader")
    take(committed, army_list, squad, "Guard", 3)
    assert roster_cache.peek(army_list.pk).roster is roster  # every click worked on the one roster
    assert_kept_equals_rebuilt(army_list)
    squad.refresh_from_db()
    squad.army_list = fresh(army_list)
    committed(services.army_list_unit_remove, list_unit=squad, expected_version=army_list.version)
    assert roster_cache.peek(army_list.pk).roster is roster
    assert_kept_equals_rebuilt(army_list)
    # the saved totals and violations are those of a fresh evaluation
    from armybuilder.lists.evaluation import army_list_evaluate

    army_list = fresh(army_list)
    evaluation = army_list_evaluate(army_list=army_list)
    assert (army_list.total_points, army_list.violations) == (evaluation.total_points, evaluation.violations)


def test_a_click_writes_only_the_rows_it_changed(court, committed):
    owner, faction = court
    army_list = make_list(owner=owner, faction=faction, points_limit=1000)
    add(committed, army_list, "bs-se-court-lord")
    squad = add(committed, army_list, "bs-se-court-squad")
    others = [u.pk for u in ListUnit.objects.filter(army_list=army_list).exclude(pk=squad.pk)]
    with CaptureQueriesContext(connection) as captured:
        take(committed, army_list, squad, "Guard", 6)
    written = [q["sql"] for q in captured if q["sql"].startswith('UPDATE "armybuilder_listunit"')]
    assert written, [q["sql"][:120] for q in captured]
    # The rows each UPDATE names (`"id" = 5` of a plain one, `"id" IN (5, 6)` of a bulk one).
    named = {int(pk) for sql in written for pk in re.findall(r'"id" = (\d+)', sql)}
    lists = [ids for sql in written for ids in re.findall(r'"id" IN \(([\d, ]+)\)', sql)]
    named |= {int(pk) for ids in lists for pk in ids.split(",")}
    assert named == {squad.pk}
    assert not named & set(others)


def test_a_change_made_elsewhere_drops_the_kept_roster(court, committed):
    owner, faction = court
    army_list = make_list(owner=owner, faction=faction, points_limit=1000)
    add(committed, army_list, "bs-se-court-lord")
    squad = add(committed, army_list, "bs-se-court-squad")
    stale = roster_cache.peek(army_list.pk)
    assert stale is not None and stale.version == fresh(army_list).version
    # another process removes the squad: a new version the kept roster does not know
    ListUnit.objects.filter(pk=squad.pk).delete()
    ArmyList.objects.filter(pk=army_list.pk).update(version=F("version") + 1)
    seer = add(committed, army_list, "bs-se-court-seer")
    kept = roster_cache.peek(army_list.pk)
    assert kept is not None and kept.roster is not stale.roster  # rebuilt from the database
    assert [u.pk for u in kept.units] == list(
        ListUnit.objects.filter(army_list=army_list).order_by("position").values_list("pk", flat=True)
    )
    assert squad.pk not in [u.pk for u in kept.units] and seer.pk in [u.pk for u in kept.units]
    assert_kept_equals_rebuilt(army_list)


def test_a_rolled_back_change_leaves_no_roster_behind(court, committed):
    owner, faction = court
    army_list = make_list(owner=owner, faction=faction, points_limit=1000)
    lord = add(committed, army_list, "bs-se-court-lord")
    assert roster_cache.peek(army_list.pk) is not None
    lord.refresh_from_db()
    lord.army_list = fresh(army_list)
    with pytest.raises(services.ArmyListError):
        committed(
            services.army_list_unit_set_options,
            list_unit=lord, options={"no-such-option": 1}, expected_version=army_list.version,
        )
    assert roster_cache.peek(army_list.pk) is None  # taken by the failed change, never put back


def test_the_kept_rosters_are_bounded(court):
    owner, faction = court
    army_list = make_list(owner=owner, faction=faction)
    backend = backend_for(army_list, [])
    assert isinstance(backend, EngineBackend)
    roster = backend.roster([])
    for list_id in range(1, roster_cache.KEPT_ROSTERS + 6):
        roster_cache.keep(list_id, 1, roster, [])
    assert roster_cache.kept_count() == roster_cache.KEPT_ROSTERS
    assert roster_cache.take(1, 1) is None  # the least recently kept went first
    assert roster_cache.take(roster_cache.KEPT_ROSTERS + 5, 1) is not None
    assert roster_cache.take(roster_cache.KEPT_ROSTERS + 4, 2) is None  # another version: dropped
    assert roster_cache.peek(roster_cache.KEPT_ROSTERS + 4) is None


def test_an_editor_click_on_a_kept_roster_asks_neither_the_source_nor_the_upgrade_options(
    transactional_db, court, client
):
    """A list whose roster is kept at its version is the engine's (`roster_cache.holds`): its
    backend is known without asking for the faction's source, and an add to it reads no
    upgrade menu (the engine reads its catalogue), so a click on a kept roster asks the
    database neither (each was a query of every click, issue 39); the answers are the
    engine's all the same. (Transactions commit here, as a server's do: a change keeps its
    roster when it commits, before the answer is rendered.)"""
    owner, faction = court
    army_list = make_list(owner=owner, faction=faction, points_limit=1000)
    client.force_login(owner)
    templates = dict(UnitTemplate.objects.filter(faction=faction).values_list("slug", "pk"))
    add_url = reverse("lists:unit_add", args=[army_list.pk])

    def post(url: str, data: dict) -> tuple[list[str], str]:
        version = fresh(army_list).version
        with CaptureQueriesContext(connection) as captured:
            response = client.post(url, data, HTTP_HX_REQUEST="true", HTTP_X_LIST_VERSION=str(version))
        assert response.status_code == 200, response.content[:300]
        return [q["sql"] for q in captured], response.content.decode()

    post(add_url, {"unit": templates["bs-se-court-lord"]})  # builds the roster, kept once it commits
    assert roster_cache.peek(army_list.pk) is not None
    asked, body = post(add_url, {"unit": templates["bs-se-court-squad"]})
    squad = ListUnit.objects.get(army_list=army_list, template_id=templates["bs-se-court-squad"])
    assert f'id="unit-{squad.pk}"' in body
    guard = next(o for o in squad.available_options if o["label"] == "Guard")
    more, body = post(
        reverse("lists:unit_options", args=[army_list.pk, squad.pk]),
        {f"option-{guard['key']}": str(int(squad.chosen_options.get(guard["key"], 0)) + 1)},
    )
    asked += more
    # (The reads name the source table in their `has_roster_source` subquery: only a read of the
    # source's own columns is a question about it.)
    assert not [sql for sql in asked if '"rules_battlescribesource"."digest"' in sql]
    assert not [sql for sql in asked if "rules_upgradeoption" in sql]
    assert roster_cache.peek(army_list.pk) is not None
    assert_kept_equals_rebuilt(army_list)


def test_a_row_gets_its_own_deep_copy_of_the_engines_answer():
    """`plain_copy` (what a row is given of a cached answer) is a deep copy: changing the row's
    value leaves the answer as it was; a value marshal does not take is deep-copied all the same."""

    class Label(str):
        pass

    answer = {"models": [{"name": "Lord", "count": 1, "points": 2.5}], "keys": ("a", "b"), "none": None}
    copied = engine_units.plain_copy(answer)
    assert copied == answer
    copied["models"][0]["count"] = 3
    assert answer["models"][0]["count"] == 1
    odd = {"label": Label("Guard"), "options": [{"key": "x"}]}
    copied = engine_units.plain_copy(odd)
    assert copied == odd and type(copied["label"]) is Label
    copied["options"][0]["key"] = "y"
    assert odd["options"][0]["key"] == "x"
