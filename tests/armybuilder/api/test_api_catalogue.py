"""The catalogue over the API: public, paginated, filtered, with each unit's options and rules."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from rules.models import Faction, GameSystem, SpecialRule, UnitTemplate
from rules.options import option_point_deltas
from tests.factories.army_lists import token_client
from tests.factories.opr_documents import opr_unit


def test_systems_are_listed_by_key_with_their_structure_rules(anonymous_client: APIClient,
                                                               opr: GameSystem) -> None:
    from rules.systems.registry import get_system

    listed = anonymous_client.get("/api/v1/systems").json()
    one = anonymous_client.get("/api/v1/systems/opr").json()

    assert "opr" in [s["key"] for s in listed]
    assert one["structure_options"] == {k: str(v) for k, v in get_system("opr").structure_options.items()}
    assert anonymous_client.get("/api/v1/systems/chess").status_code == 404


def test_factions_filter_by_system_and_name(anonymous_client: APIClient, faction: Faction) -> None:
    other_system = GameSystem.objects.create(key="other", name="Other")
    Faction.objects.create(system=other_system, slug="elves", name="Elves")

    by_system = anonymous_client.get("/api/v1/factions", {"system": "opr"}).json()
    by_name = anonymous_client.get("/api/v1/factions", {"search": "ELV"}).json()

    assert [f["slug"] for f in by_system["results"]] == ["test-guard"]
    assert [f["slug"] for f in by_name["results"]] == ["elves"]
    assert by_system["results"][0] == {"id": faction.pk, "slug": "test-guard", "name": "Test Guard",
                                       "system": "opr", "version": "", "description": "",
                                       "is_homebrew": False}


def test_homebrew_is_visible_to_its_owner_only_until_shared(faction: Faction, owner: Any, other: Any) -> None:
    homebrew = Faction.objects.create(system=faction.system, slug="mine", name="Mine", owner=owner)
    UnitTemplate.objects.create(faction=homebrew, slug="hero", name="My Hero", data=opr_unit("My Hero"),
                                points=10)

    def units_seen_by(client: APIClient) -> list[str]:
        return [u["name"] for u in client.get("/api/v1/units", {"search": "hero"}).json()["results"]]

    assert units_seen_by(token_client(owner)) == ["My Hero"]
    assert units_seen_by(token_client(other)) == []
    assert units_seen_by(APIClient()) == []
    assert token_client(other).get(f"/api/v1/factions/{homebrew.pk}").status_code == 404
    homebrew.is_shared = True
    homebrew.save()
    assert units_seen_by(APIClient()) == ["My Hero"]


def test_units_filter_by_faction_role_and_name_and_paginate(anonymous_client: APIClient,
                                                            units: dict[str, UnitTemplate]) -> None:
    faction_id = units["veterans"].faction_id
    heroes = anonymous_client.get("/api/v1/units", {"faction": faction_id, "role": "hero"}).json()
    first_page = anonymous_client.get("/api/v1/units", {"faction": faction_id, "page_size": 2}).json()
    second_page = anonymous_client.get(first_page["next"]).json()

    assert [u["slug"] for u in heroes["results"]] == ["captain"]
    assert first_page["count"] == 3
    assert [u["slug"] for u in first_page["results"] + second_page["results"]] == ["veterans", "recruits",
                                                                                    "captain"]
    summary = first_page["results"][0]
    assert summary["points"] == units["veterans"].points
    assert summary["reference"] == "test-guard/veterans"
    assert summary["models"] == units["veterans"].data["models"]


def test_bad_filters_and_pages_are_400_and_404(anonymous_client: APIClient, units: Any) -> None:
    bad_faction = anonymous_client.get("/api/v1/units", {"faction": "abc"})
    past_the_end = anonymous_client.get("/api/v1/units", {"page": 99})

    assert bad_faction.status_code == 400
    assert list(bad_faction.json()["details"]) == ["faction"]
    assert past_the_end.status_code == 404


def test_a_unit_shows_its_options_with_their_points_and_its_rules(anonymous_client: APIClient,
                                                                  units: dict[str, UnitTemplate]) -> None:
    veterans = units["veterans"]
    fearless = SpecialRule.objects.create(system=veterans.faction.system, key="fearless", name="Fearless",
                                          text="Passes morale on 4+.")

    body = anonymous_client.get(f"/api/v1/units/{veterans.pk}").json()

    menu = [{"key": o.key, "group": o.group, "kind": o.kind, "applies_to": o.applies_to, "payload": o.payload,
             "min_count": o.min_count, "max_count": o.max_count, "cost": o.cost}
            for o in veterans.options.order_by("position")]
    deltas = option_point_deltas("opr", veterans.data, menu)
    assert [(o["key"], o["points"]) for o in body["options"]] == [("plasma", deltas["plasma"]),
                                                                  ("more", deltas["more"])]
    assert deltas["more"] > 0
    assert [r["id"] for r in body["rules"]] == [fearless.pk]
    assert body["unit"] == veterans.data
    assert body["points"] == veterans.points


def test_special_rules_filter_by_system_and_name(anonymous_client: APIClient, opr: GameSystem) -> None:
    SpecialRule.objects.create(system=opr, key="blast", name="Blast", has_value=True, aliases=["Wybuch"])
    SpecialRule.objects.create(system=opr, key="fear", name="Fear", has_value=True)

    body = anonymous_client.get("/api/v1/special-rules", {"system": "opr", "search": "bla"}).json()

    found = [(r["key"], r["aliases"], r["has_value"]) for r in body["results"]]
    assert found == [("blast", ["Wybuch"], True)]


def test_a_page_of_units_is_served_from_the_cache_until_a_unit_or_faction_changes(
        anonymous_client: APIClient, owner: Any, units: Any) -> None:
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    cache.clear()
    first = anonymous_client.get("/api/v1/units", {"page_size": 2}).json()
    with CaptureQueriesContext(connection) as queries:
        again = anonymous_client.get("/api/v1/units", {"page_size": 2}).json()
    assert again == first and len(queries) == 1  # the stamp only

    veterans = units["veterans"]
    veterans.name = "Old Guard"
    veterans.save()
    renamed = anonymous_client.get("/api/v1/units", {"page_size": 2}).json()
    assert "Old Guard" in [u["name"] for u in renamed["results"]]

    veterans.faction.slug = "renamed-faction"
    veterans.faction.save()
    moved = anonymous_client.get("/api/v1/units", {"page_size": 2}).json()
    assert {u["faction_slug"] for u in moved["results"]} == {"renamed-faction"}

    veterans.delete()
    fewer = anonymous_client.get("/api/v1/units", {"page_size": 2}).json()
    assert fewer["count"] == first["count"] - 1

    homebrew = Faction.objects.create(system=veterans.faction.system, slug="mine", name="Mine", owner=owner)
    UnitTemplate.objects.create(faction=homebrew, slug="a", name="Aardvark", data=opr_unit("Aardvark"),
                                points=1)
    assert token_client(owner).get("/api/v1/units", {"search": "aard"}).json()["count"] == 1
    assert anonymous_client.get("/api/v1/units", {"search": "aard"}).json()["count"] == 0
