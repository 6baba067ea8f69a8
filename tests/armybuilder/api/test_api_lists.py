"""Lists over the API: the same services as the pages, with ETag / If-Match on every write."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from armybuilder.lists.services import army_list_update
from armybuilder.models import ArmyList
from rules.models import Faction, GameSystem, UnitTemplate
from tests.armybuilder.api.conftest import if_match
from tests.factories.opr_documents import opr_unit


def test_creating_a_list_answers_it_with_its_etag(owner_client: Any, faction: Faction) -> None:
    response = owner_client.post("/api/v1/lists", {
        "name": "  Vanguard ", "system": "opr", "faction": faction.pk, "points_limit": 1000}, format="json")

    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["name"] == "Vanguard"
    assert (body["system"], body["faction"], body["points_limit"]) == ("opr", faction.pk, 1000)
    assert (body["total_points"], body["points_left"], body["units"]) == (0, 1000, [])
    assert response["ETag"] == f'"{body["version"]}"'
    assert ArmyList.objects.get(pk=body["id"]).owner.username == "owner"


def test_creating_a_list_reports_every_bad_field(owner_client: Any, opr: GameSystem) -> None:
    response = owner_client.post("/api/v1/lists", {"name": "", "system": "nope", "points_limit": 0},
                                 format="json")

    assert response.status_code == 400
    assert set(response.json()["details"]) == {"name", "points_limit"}


def test_a_faction_of_someone_elses_homebrew_is_no_such_faction(owner_client: Any, other: Any,
                                                                  opr: GameSystem) -> None:
    secret = Faction.objects.create(system=opr, slug="secret", name="Secret", owner=other)
    response = owner_client.post("/api/v1/lists", {"name": "X", "system": "opr", "faction": secret.pk,
                                                   "points_limit": 500}, format="json")

    assert response.status_code == 400
    assert response.json()["details"] == {"faction": ["No such faction."]}


def test_an_unknown_system_is_a_400_on_system(owner_client: Any, opr: GameSystem) -> None:
    response = owner_client.post("/api/v1/lists", {"name": "X", "system": "chess", "points_limit": 500},
                                 format="json")

    assert response.status_code == 400
    assert response.json()["details"] == {"system": ["No such game system."]}


def test_reading_a_list_gives_cached_points_of_each_unit_and_the_total(owner_client: Any,
                                                                       private_list: ArmyList) -> None:
    response = owner_client.get(f"/api/v1/lists/{private_list.pk}")

    body = response.json()
    assert response.status_code == 200
    assert response["ETag"] == f'"{private_list.version}"'
    assert [u["name"] for u in body["units"]] == ["Veterans", "Recruits"]
    assert [u["points"] for u in body["units"]] == [u.points for u in private_list.units.order_by("position")]
    assert body["total_points"] == sum(u["points"] for u in body["units"]) == private_list.total_points
    assert body["units"][0]["options"] == {"plasma": 1}
    assert body["share_token"] is None


def test_a_read_with_the_current_etag_is_a_304_until_the_list_changes(owner_client: Any,
                                                                       private_list: ArmyList) -> None:
    url = f"/api/v1/lists/{private_list.pk}"
    etag = owner_client.get(url)["ETag"]

    unchanged = owner_client.get(url, HTTP_IF_NONE_MATCH=etag)
    owner_client.patch(url, {"name": "Changed"}, format="json", HTTP_IF_MATCH=etag)
    changed = owner_client.get(url, HTTP_IF_NONE_MATCH=etag)

    assert (unchanged.status_code, unchanged.content, unchanged["ETag"]) == (304, b"", etag)
    assert changed.status_code == 200
    assert changed.json()["name"] == "Changed"


def test_units_read_after_a_change_are_never_an_older_version(owner_client: Any,
                                                              private_list: ArmyList) -> None:
    """The units of a list are cached by version: a change must show at once."""
    url = f"/api/v1/lists/{private_list.pk}"
    before = owner_client.get(url).json()
    veterans = before["units"][0]
    owner_client.patch(f"{url}/units/{veterans['id']}", {"options": {"plasma": 2}}, format="json",
                       **if_match(private_list))

    after = owner_client.get(url).json()
    assert after["units"][0]["options"] == {"plasma": 2}
    assert owner_client.get(f"{url}/units").json()[0]["options"] == {"plasma": 2}


def test_lists_collection_shows_only_mine_and_searches_by_name(owner_client: Any, other_client: Any,
                                                               private_list: ArmyList) -> None:
    other_client.post("/api/v1/lists", {"name": "Other patrol", "system": "opr", "points_limit": 500},
                      format="json")

    mine = owner_client.get("/api/v1/lists").json()
    assert [item["name"] for item in mine["results"]] == ["Patrol"]
    assert mine["results"][0]["unit_count"] == 2
    assert owner_client.get("/api/v1/lists", {"search": "zzz"}).json()["count"] == 0


def test_a_settings_change_needs_the_current_etag(owner_client: Any, private_list: ArmyList) -> None:
    url = f"/api/v1/lists/{private_list.pk}"
    stale = f'"{private_list.version}"'
    assert owner_client.patch(url, {"name": "First"}, format="json", HTTP_IF_MATCH=stale).status_code == 200

    missing = owner_client.patch(url, {"name": "Second"}, format="json")
    again = owner_client.patch(url, {"name": "Second"}, format="json", HTTP_IF_MATCH=stale)
    forced = owner_client.patch(url, {"name": "Third"}, format="json", HTTP_IF_MATCH="*")

    assert (missing.status_code, missing.json()["code"]) == (428, "precondition_required")
    assert (again.status_code, again.json()["code"]) == (412, "precondition_failed")
    assert forced.status_code == 200
    private_list.refresh_from_db()
    assert private_list.name == "Third"
    assert forced["ETag"] == f'"{private_list.version}"'


def test_a_weak_etag_never_matches_if_match(owner_client: Any, private_list: ArmyList) -> None:
    response = owner_client.patch(f"/api/v1/lists/{private_list.pk}", {"name": "Weak"}, format="json",
                                  HTTP_IF_MATCH=f'W/"{private_list.version}"')
    assert response.status_code == 412


def test_put_replaces_the_settings_and_checks_them(owner_client: Any, private_list: ArmyList) -> None:
    url = f"/api/v1/lists/{private_list.pk}"
    incomplete = owner_client.put(url, {"name": "Only a name"}, format="json", **if_match(private_list))
    assert incomplete.status_code == 400
    assert set(incomplete.json()["details"]) == {"points_limit"}

    response = owner_client.put(url, {"name": "Renamed", "points_limit": 300, "is_public": True},
                                format="json", **if_match(private_list))
    body = response.json()
    assert (body["name"], body["points_limit"], body["is_public"]) == ("Renamed", 300, True)
    assert body["points_left"] == 300 - body["total_points"]


def test_a_write_that_loses_a_race_after_the_if_match_check_is_a_409(owner_client: Any,
                                                                     private_list: ArmyList,
                                                                     monkeypatch: Any) -> None:
    """Another device saves between the API's ETag check and the service's row lock."""
    from armybuilder.api import lists

    def racing_update(*, army_list: ArmyList, expected_version: int | None, **changes: Any) -> ArmyList:
        with transaction.atomic():
            army_list_update(army_list=ArmyList.objects.get(pk=army_list.pk), expected_version=None,
                             name="The other device")
        return army_list_update(army_list=army_list, expected_version=expected_version, **changes)

    monkeypatch.setattr(lists, "army_list_update", racing_update)
    response = owner_client.patch(f"/api/v1/lists/{private_list.pk}", {"name": "Mine"}, format="json",
                                  **if_match(private_list))

    assert (response.status_code, response.json()["code"]) == (409, "conflict")


def test_deleting_a_list(owner_client: Any, private_list: ArmyList) -> None:
    url = f"/api/v1/lists/{private_list.pk}"
    assert owner_client.delete(url).status_code == 428
    assert owner_client.delete(url, **if_match(private_list)).status_code == 204
    assert owner_client.get(url).status_code == 404


def test_adding_a_unit_with_options_prices_it_and_answers_the_list(owner_client: Any, private_list: ArmyList,
                                                                   units: dict[str, UnitTemplate]) -> None:
    response = owner_client.post(f"/api/v1/lists/{private_list.pk}/units",
                                 {"unit": units["veterans"].pk, "options": {"more": 2}}, format="json",
                                 **if_match(private_list))

    assert response.status_code == 201, response.json()
    body = response.json()
    added = body["units"][-1]
    assert (added["name"], added["options"], added["position"]) == ("Veterans", {"more": 2}, 2)
    assert added["unit"]["models"][0]["count"] == 7
    assert added["catalogue_unit"] == "test-guard/veterans"
    assert body["total_points"] == sum(u["points"] for u in body["units"])
    assert response["ETag"] == f'"{body["version"]}"'


def test_adding_a_unit_reports_what_is_wrong_with_it(owner_client: Any, private_list: ArmyList,
                                                     units: dict[str, UnitTemplate], other: Any) -> None:
    url = f"/api/v1/lists/{private_list.pk}/units"
    too_many = owner_client.post(url, {"unit": units["veterans"].pk, "options": {"plasma": 3}}, format="json",
                                 **if_match(private_list))
    unknown_option = owner_client.post(url, {"unit": units["veterans"].pk, "options": {"nope": 1}},
                                       format="json", **if_match(private_list))
    foreign = UnitTemplate.objects.create(
        faction=Faction.objects.create(system=private_list.system, slug="theirs", name="Theirs", owner=other),
        slug="spy", name="Spy", data=opr_unit("Spies"), points=50)
    not_mine = owner_client.post(url, {"unit": foreign.pk}, format="json", **if_match(private_list))

    assert too_many.status_code == 400 and list(too_many.json()["details"]) != []
    assert unknown_option.json()["details"] == {"options.nope": ["This unit has no such option."]}
    assert not_mine.json()["details"] == {"unit": ["Not a unit you can add to this list."]}


def test_changing_a_units_options_and_place(owner_client: Any, private_list: ArmyList) -> None:
    veterans = private_list.units.get(position=0)
    url = f"/api/v1/lists/{private_list.pk}/units/{veterans.pk}"
    before = veterans.points

    response = owner_client.patch(url, {"options": {"plasma": 2}, "position": 1}, format="json",
                                  **if_match(private_list))

    assert response.status_code == 200, response.json()
    body = response.json()
    assert [u["name"] for u in body["units"]] == ["Recruits", "Veterans"]
    moved = body["units"][1]
    assert moved["options"] == {"plasma": 2}
    assert moved["points"] > before
    assert body["version"] == private_list.version + 2


def test_a_bad_move_changes_nothing_even_after_a_good_option_change(owner_client: Any,
                                                                    private_list: ArmyList) -> None:
    veterans = private_list.units.get(position=0)
    response = owner_client.patch(f"/api/v1/lists/{private_list.pk}/units/{veterans.pk}",
                                  {"options": {"plasma": 2}, "position": 5}, format="json",
                                  **if_match(private_list))

    assert response.status_code == 400
    assert "position" in response.json()["details"]
    veterans.refresh_from_db()
    assert veterans.chosen_options == {"plasma": 1}


def test_removing_and_duplicating_units(owner_client: Any, private_list: ArmyList) -> None:
    first, second = private_list.units.order_by("position")
    base = f"/api/v1/lists/{private_list.pk}/units"

    duplicated = owner_client.post(f"{base}/{first.pk}/duplicate", **if_match(private_list))
    assert [u["name"] for u in duplicated.json()["units"]] == ["Veterans", "Veterans", "Recruits"]

    removed = owner_client.delete(f"{base}/{second.pk}", **if_match(private_list))
    assert removed.status_code == 200
    assert [u["name"] for u in removed.json()["units"]] == ["Veterans", "Veterans"]
    assert owner_client.get(f"{base}/{second.pk}").status_code == 404


def test_a_unit_of_another_list_is_not_found_here(owner_client: Any, private_list: ArmyList) -> None:
    fork = owner_client.post(f"/api/v1/lists/{private_list.pk}/fork").json()
    unit_of_fork = fork["units"][0]["id"]
    response = owner_client.get(f"/api/v1/lists/{private_list.pk}/units/{unit_of_fork}")
    assert response.status_code == 404


def test_validate_reprices_and_reports_violations(owner_client: Any, private_list: ArmyList) -> None:
    from armybuilder.lists.evaluation import army_list_evaluate

    owner_client.patch(f"/api/v1/lists/{private_list.pk}", {"points_limit": 50}, format="json",
                       **if_match(private_list))
    response = owner_client.get(f"/api/v1/lists/{private_list.pk}/validate")
    private_list.refresh_from_db()

    expected = army_list_evaluate(army_list=private_list)
    body = response.json()
    assert body["total_points"] == expected.total_points
    assert body["is_valid"] == expected.is_valid
    # The stored English original of each message (`message_id`, ...) stays internal.
    assert body["violations"] == [{key: value for key, value in v.items() if not key.startswith("message_")}
                                  for v in expected.violations]
    assert body["violations"] and not body["is_valid"]  # 50 points cannot hold the list
    assert body["unit_points"] == {str(k): v for k, v in expected.unit_points.items()}


def test_sharing_gives_a_link_anyone_can_read_and_sharing_again_keeps_it(owner_client: Any,
                                                                         anonymous_client: Any,
                                                                         private_list: ArmyList) -> None:
    url = f"/api/v1/lists/{private_list.pk}/share"
    first = owner_client.post(url, **if_match(private_list)).json()
    second = owner_client.post(url, **if_match(private_list)).json()

    assert first["token"] == second["token"]
    assert first["url"].endswith(f"/api/v1/shared/{first['token']}")
    shared = anonymous_client.get(f"/api/v1/shared/{first['token']}")
    assert shared.status_code == 200
    assert shared.json()["name"] == "Patrol"
    assert shared.json()["share_token"] is None
    assert owner_client.get(f"/api/v1/lists/{private_list.pk}").json()["share_token"] == first["token"]


def test_forking_copies_units_into_a_new_private_list(other_client: Any, shared_list: ArmyList) -> None:
    response = other_client.post(f"/api/v1/shared/{shared_list.share_token}/fork")

    body = response.json()
    assert response.status_code == 201
    assert body["id"] != shared_list.pk
    assert (body["owner"], body["forked_from"], body["is_shared"]) == ("other", shared_list.pk, False)
    assert [u["name"] for u in body["units"]] == ["Veterans", "Recruits"]
    assert other_client.get(f"/api/v1/lists/{body['id']}").status_code == 200


def test_the_fast_unit_representation_is_what_drf_would_give(private_list: ArmyList) -> None:
    """`ListUnitSerializer.to_representation` skips DRF's field machinery; the output must not differ."""
    from rest_framework import serializers

    from armybuilder.api.serializers import ListUnitSerializer

    for unit in private_list.units.all():
        fast = ListUnitSerializer(unit).data
        generic = serializers.Serializer.to_representation(ListUnitSerializer(), unit)
        assert fast == generic
        assert list(fast) == list(ListUnitSerializer().fields)


def test_the_fast_list_representation_is_what_drf_would_give(private_list: ArmyList, owner: Any) -> None:
    """`ArmyListSerializer.to_representation` skips DRF's field machinery; the output must not
    differ from the generic one (summary's rule included: no points limit shown unsized)."""
    from rest_framework import serializers

    from armybuilder.api.lists import units_data
    from armybuilder.api.serializers import ArmyListSerializer
    from armybuilder.lists.services import army_list_update

    army_list_update(army_list=private_list, expected_version=private_list.version, points_limit=10)
    private_list.refresh_from_db()
    assert private_list.violations  # over its limit: the violations are rendered too
    units = list(private_list.units.order_by("position"))
    context = {"units": units_data(private_list, units), "list_units": units}
    fast = ArmyListSerializer(private_list, context=context).data
    generic = serializers.Serializer.to_representation(ArmyListSerializer(context=context), private_list)
    assert fast == generic
    assert list(fast) == list(ArmyListSerializer().fields)


def test_listing_your_lists_costs_the_same_queries_at_any_count_and_reads_no_documents(
        owner_client: Any, owner: Any, faction: Faction) -> None:
    """A page of lists reads each list's summary only: not its undo snapshot, gauntlet,
    violations or settings (documents that can be large), and no query per list."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from armybuilder.lists.services import army_list_create

    def listing() -> tuple[int, list[str], int]:
        with CaptureQueriesContext(connection) as queries:
            response = owner_client.get("/api/v1/lists")
        assert response.status_code == 200
        return len(queries), [q["sql"] for q in queries.captured_queries], len(response.json()["results"])

    for i in range(2):
        army_list_create(owner=owner, system=faction.system, faction=faction, name=f"L{i}", points_limit=500)
    few, _sql, shown = listing()
    assert shown == 2
    for i in range(2, 9):
        army_list_create(owner=owner, system=faction.system, faction=faction, name=f"L{i}", points_limit=500)
    many, sql, shown = listing()
    assert shown == 9 and many == few
    [select] = [s for s in sql if 'FROM "armybuilder_armylist"' in s and "COUNT(" not in s]
    for column in ("undo", "gauntlet", "violations", "settings"):
        assert f'"armybuilder_armylist"."{column}"' not in select
