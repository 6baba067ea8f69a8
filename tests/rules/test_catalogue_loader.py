"""`manage.py load_catalogue`: idempotent, all-or-nothing, and strict about its files."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
import yaml
from django.core.management import CommandError, call_command

from rules.catalogue_files import bundled_catalogue_dirs
from rules.models import (
    Equipment,
    Faction,
    GameSystem,
    SpecialRule,
    UnitTemplate,
    UpgradeOption,
    WeaponProfile,
)
from rules.systems.registry import all_systems, get_system

MODELS = (GameSystem, SpecialRule, Equipment, Faction, WeaponProfile, UnitTemplate, UpgradeOption)

pytestmark = pytest.mark.django_db


def copy_bundled_catalogue(target: Path) -> None:
    """Every system's bundled catalogue as one folder of `<system key>/` sub-folders."""
    for key, folder in bundled_catalogue_dirs().items():
        shutil.copytree(folder, target / key)


def row_counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def load(data_dir: Path | None = None) -> str:
    out = io.StringIO()
    call_command("load_catalogue", *(["--data-dir", str(data_dir)] if data_dir else []), stdout=out)
    return out.getvalue()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A writable copy of the bundled catalogue."""
    target = tmp_path / "catalogue"
    copy_bundled_catalogue(target)
    return target


def edit_yaml(path: Path, change) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def test_loading_twice_creates_nothing_the_second_time():
    first = load()
    counts = row_counts()
    second = load()
    assert row_counts() == counts
    units = UnitTemplate.objects.filter(faction__owner=None).count()
    assert "created" in first and f"Units: 0 created, 0 updated, {units} unchanged" in second
    assert "(0 rows changed)" in second


def test_the_bundled_catalogue_has_every_system_and_the_promised_data():
    load()
    assert list(GameSystem.objects.values_list("key", flat=True)) == [s.key for s in all_systems()]
    opr = Faction.objects.filter(system__key="opr", owner=None)
    assert opr.count() == 2
    for faction in opr:
        roles = set(faction.units.values_list("role", flat=True))
        assert faction.units.count() >= 10
        assert {"infantry", "hero", "transport", "aircraft"} <= roles
        assert roles & {"monster", "vehicle"}
        assert any(
            "Caster" in rule
            for unit in faction.units.all()
            for model in unit.data["models"]
            for rule in model.get("rules", [])
        ), "each OPR faction has a caster"
        kinds = set(UpgradeOption.objects.filter(unit__faction=faction).values_list("kind", flat=True))
        assert {"replace_weapon", "add_weapon", "add_rule", "add_models"} <= kinds
        assert UpgradeOption.objects.filter(unit__faction=faction).exclude(group="").exists()
    assert {
        "assault-intercessor-squad",
        "outrider-squad",
    } < {u.slug for u in UnitTemplate.objects.filter(faction__system__key="wh40k9")}
    assert SpecialRule.objects.filter(
        system__key="opr", source_name="Nieustraszony", name="Fearless"
    ).exists()
    assert SpecialRule.objects.filter(not_in_source=True).values("system").distinct().count() == 4
    assert Equipment.objects.get(system__key="whfb6", slug="sword-of-striking").points == 30


def test_a_changed_file_updates_rows_in_place(data_dir: Path):
    load(data_dir)
    counts = row_counts()
    faction_file = data_dir / "opr" / "factions" / "ashen-concord.yaml"
    edit_yaml(faction_file, lambda d: d["units"][0].update(name="Concord Line Wardens"))
    out = load(data_dir)
    assert row_counts() == counts
    assert "Units: 0 created, 1 updated" in out
    assert UnitTemplate.objects.get(slug="concord-wardens").name == "Concord Line Wardens"


def test_a_malformed_file_is_rejected_naming_file_and_field_and_nothing_changes(data_dir: Path):
    load(data_dir)
    counts = row_counts()
    # A valid change in one file and a broken field in another: neither may reach the database.
    edit_yaml(
        data_dir / "opr" / "factions" / "ashen-concord.yaml",
        lambda d: d["units"][0].update(name="Renamed Wardens"),
    )
    edit_yaml(
        data_dir / "opr" / "factions" / "thornwake-brood.yaml",
        lambda d: d["units"][2]["models"][0].update(quality=9),
    )
    with pytest.raises(CommandError) as caught:
        load(data_dir)
    message = str(caught.value)
    assert "nothing was changed" in message
    assert "opr/factions/thornwake-brood.yaml" in message
    assert "units[2].models[0].quality" in message
    assert row_counts() == counts
    assert UnitTemplate.objects.get(slug="concord-wardens").name == "Concord Wardens"


def test_broken_yaml_and_unknown_references_are_reported_together(data_dir: Path):
    (data_dir / "whfb6" / "equipment.yaml").write_text("equipment: [oops", encoding="utf-8")
    edit_yaml(
        data_dir / "opr" / "factions" / "ashen-concord.yaml",
        lambda d: d["units"][1]["options"][0]["payload"].update(replace="Laser"),
    )
    edit_yaml(
        data_dir / "opr" / "factions" / "thornwake-brood.yaml",
        lambda d: d["units"][0]["models"][0]["rules"].append("Flyng"),
    )
    with pytest.raises(CommandError) as caught:
        load(data_dir)
    message = str(caught.value)
    assert "whfb6/equipment.yaml" in message and "not valid YAML" in message
    assert "units[1].options[0]" in message and "Laser" in message
    assert "units[0].models[0].rules[1]" in message and "Flyng" in message
    assert row_counts() == dict.fromkeys(row_counts(), 0)


def test_points_are_never_typed_into_opr_data(data_dir: Path):
    edit_yaml(
        data_dir / "opr" / "factions" / "ashen-concord.yaml",
        lambda d: d["units"][0]["models"][0].update(points=12),
    )
    with pytest.raises(CommandError, match=r"units\[0\]\.models\[0\]\.points: points are computed"):
        load(data_dir)


def test_removed_options_are_deleted_and_every_cached_price_is_the_engines(data_dir: Path):
    load(data_dir)
    edit_yaml(data_dir / "opr" / "factions" / "ashen-concord.yaml", lambda d: d["units"][0]["options"].pop())
    out = load(data_dir)
    assert "1 deleted" in out
    assert not UpgradeOption.objects.filter(unit__slug="concord-wardens", key="dig-in").exists()
    for unit in UnitTemplate.objects.select_related("faction__system"):
        assert unit.points == get_system(unit.faction.system.key).price(unit.data)["points"]
