"""The page actions the API lacked (issue 36.5): the gallery, compare, undo, clearing a unit's
options and the points audit, each calling the same service or selector as its page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from armybuilder.lists.services import army_list_add_unit, army_list_create, army_list_update
from armybuilder.models import ArmyList
from rules.models import GameSystem
from tests.armybuilder.api.conftest import if_match

pytestmark = pytest.mark.django_db


def _public(army_list: ArmyList) -> ArmyList:
    army_list_update(army_list=army_list, is_public=True, expected_version=None)
    army_list.refresh_from_db()
    return army_list


def test_the_gallery_lists_public_lists_filtered_like_the_page(anonymous_client, private_list, owner, opr,
                                                                 faction, units):
    other = army_list_create(owner=owner, system=opr, faction=faction, name="Hidden", points_limit=500)
    _public(private_list)
    answer = anonymous_client.get(reverse("api:gallery"))
    assert answer.status_code == 200
    assert [row["name"] for row in answer.json()["results"]] == ["Patrol"]
    assert answer.json()["results"][0]["total_points"] == private_list.total_points
    filtered = anonymous_client.get(reverse("api:gallery"), {"search": "pat", "system": "opr",
                                                             "faction": faction.pk, "points_min": 1})
    assert [row["id"] for row in filtered.json()["results"]] == [private_list.pk]
    too_dear = anonymous_client.get(reverse("api:gallery"), {"points_max": private_list.total_points - 1})
    assert too_dear.json()["results"] == []
    assert other.pk not in [row["id"] for row in answer.json()["results"]]


@pytest.mark.parametrize("name", ["faction", "points_min", "points_max"])
def test_a_bad_gallery_filter_is_a_400_naming_it(anonymous_client, name):
    answer = anonymous_client.get(reverse("api:gallery"), {name: "many"})
    assert answer.status_code == 400
    assert list(answer.json()["details"]) == [name]


def test_compare_sets_two_readable_lists_side_by_side(owner_client, private_list, owner, opr, faction, units):
    second = army_list_create(owner=owner, system=opr, faction=faction, name="Second", points_limit=500)
    army_list_add_unit(army_list=second, unit=units["captain"], expected_version=None)
    second.refresh_from_db()
    answer = owner_client.get(reverse("api:list-compare"), {"a": private_list.pk, "b": second.pk})
    assert answer.status_code == 200
    body = answer.json()
    assert [side["army_list"]["name"] for side in body["lists"]] == ["Patrol", "Second"]
    assert [[u["name"] for u in side["units"]] for side in body["lists"]] == [
        ["Veterans", "Recruits"], ["Captain"]]
    assert body["lists"][0]["by_category"] == {"infantry": private_list.total_points}
    by_label = {row["label"]: row["cells"] for row in body["rows"]}
    assert by_label["Hero"] == [{"points": 0, "share": 0}, {"points": second.total_points, "share": 100}]
    assert by_label["Infantry"][0] == {"points": private_list.total_points, "share": 100}


def test_compare_refuses_a_list_the_caller_may_not_read(other_client, private_list):
    answer = other_client.get(reverse("api:list-compare"), {"a": private_list.pk, "b": private_list.pk})
    assert answer.status_code == 400
    assert answer.json()["details"] == {"a": ["No such list, or not one you may read."],
                                        "b": ["No such list, or not one you may read."]}
    malformed = other_client.get(reverse("api:list-compare"), {"a": private_list.pk, "b": "x"})
    assert malformed.status_code == 400 and "b" in malformed.json()["details"]


def test_clear_then_undo_brings_the_options_back(owner_client, private_list):
    veterans = private_list.units.order_by("position").first()
    url = reverse("api:list-unit-clear", args=[private_list.pk, veterans.pk])
    assert owner_client.post(url).status_code == 428  # a write needs If-Match
    cleared = owner_client.post(url, **if_match(private_list))
    assert cleared.status_code == 200
    assert cleared.json()["units"][0]["options"] == {}
    undone = owner_client.post(reverse("api:list-undo", args=[private_list.pk]), **if_match(private_list))
    assert undone.status_code == 200
    assert undone.json()["units"][0]["options"] == {"plasma": 1}
    assert undone.json()["total_points"] == cleared.json()["total_points"] + (
        veterans.points - cleared.json()["units"][0]["points"])


def test_undo_brings_a_removed_unit_back_and_says_when_there_is_nothing(owner_client, private_list):
    recruits = private_list.units.order_by("position").last()
    removed = owner_client.delete(reverse("api:list-unit-detail", args=[private_list.pk, recruits.pk]),
                                  **if_match(private_list))
    assert [u["name"] for u in removed.json()["units"]] == ["Veterans"]
    undo = reverse("api:list-undo", args=[private_list.pk])
    back = owner_client.post(undo, **if_match(private_list))
    assert [u["name"] for u in back.json()["units"]] == ["Veterans", "Recruits"]
    nothing = owner_client.post(undo, **if_match(private_list))
    assert nothing.status_code == 400 and list(nothing.json()["details"]) == ["undo"]


def test_only_the_owner_may_undo_or_clear(other_client, private_list):
    _public(private_list)
    unit = private_list.units.first()
    assert other_client.post(reverse("api:list-undo", args=[private_list.pk]),
                             **if_match(private_list)).status_code == 403
    assert other_client.post(reverse("api:list-unit-clear", args=[private_list.pk, unit.pk]),
                             **if_match(private_list)).status_code == 403


def test_the_audit_sets_the_book_price_beside_the_formula(owner_client, private_list, units):
    answer = owner_client.get(reverse("api:list-audit", args=[private_list.pk]))
    assert answer.status_code == 200
    rows = answer.json()["units"]
    assert [(r["name"], r["book"], r["gap"]) for r in rows] == [
        ("Veterans", None, None), ("Recruits", None, None)]
    assert [r["formula"] for r in rows] == [u.points for u in private_list.units.order_by("position")]
    assert answer.json()["total"] == {"book": 0.0, "formula": 0, "gap": 0.0, "audited": 0, "units": 2}
    unit = private_list.units.order_by("position").first()
    one = owner_client.get(reverse("api:list-audit-unit", args=[private_list.pk, unit.pk]))
    assert one.status_code == 200
    assert one.json()["row"]["formula"] == unit.points == one.json()["breakdown"]["points"]
    missing = owner_client.get(reverse("api:list-audit-unit", args=[private_list.pk, 10**9]))
    assert missing.status_code == 404


def test_the_audit_of_a_system_priced_from_its_book_is_a_404_that_says_why(owner_client, owner):
    system, _ = GameSystem.objects.get_or_create(key="wh40k9", defaults={"name": "Warhammer 40,000"})
    army_list = army_list_create(owner=owner, system=system, faction=None, name="Book", points_limit=500)
    answer = owner_client.get(reverse("api:list-audit", args=[army_list.pk]))
    assert answer.status_code == 404
    assert "no formula" in answer.json()["message"]

