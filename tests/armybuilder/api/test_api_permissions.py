"""Who may call which list endpoint: owner, another user, anonymous, holders of the share link.

Every list endpoint × every kind of caller, against a private list that is shared by link.
A list the caller may not read answers 404 exactly as a missing one does (issue 6: never
leak that a private list exists); without credentials the answer is 401 first. A share
token opens `/shared/{token}/...` only, never `/lists/{id}/...`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from armybuilder.models import ArmyList
from tests.factories.army_lists import token_client

OWNER, OTHER, ANONYMOUS = "owner", "other", "anonymous"
HOLDER, ANONYMOUS_HOLDER = "holder", "anonymous holder"
ROLES = (OWNER, OTHER, ANONYMOUS, HOLDER, ANONYMOUS_HOLDER)
#: Roles that know the share token; the others try a token of the right shape that opens nothing.
KNOWS_TOKEN = {OWNER, HOLDER, ANONYMOUS_HOLDER}
WRONG_TOKEN = "x" * 43


@dataclass(frozen=True)
class Endpoint:
    method: str
    path: str
    body: Any = None
    #: status for owner, other, anonymous, holder (signed in), anonymous holder
    expected: tuple[int, int, int, int, int] = (200, 404, 401, 404, 401)


NEW_LIST = {"name": "Another", "system": "opr", "points_limit": 750}
LIST_FILE = {"format": 1, "system": "opr", "name": "Imported", "points_limit": 500, "units": [
    {"unit": {"format": 1, "system": "opr", "name": "Scouts", "models": [
        {"name": "Scout", "count": 3, "quality": 4, "defence": 5, "toughness": 1, "rules": [],
         "weapons": [{"name": "Rifle", "range": 24, "attacks": 1, "ap": 0, "rules": []}]}]}, "count": 1}]}
CREATED_FOR_ALL = (201, 201, 401, 201, 401)
LISTED_FOR_ALL = (200, 200, 401, 200, 401)
QUEUED_FOR_ALL = (202, 202, 401, 202, 401)
SHARED_READ = (200, 404, 404, 200, 200)

ENDPOINTS = [
    Endpoint("get", "/api/v1/lists", expected=LISTED_FOR_ALL),
    Endpoint("post", "/api/v1/lists", NEW_LIST, expected=CREATED_FOR_ALL),
    Endpoint("post", "/api/v1/lists/import", LIST_FILE, expected=QUEUED_FOR_ALL),
    Endpoint("get", "/api/v1/lists/{list}"),
    Endpoint("put", "/api/v1/lists/{list}", {"name": "Renamed", "points_limit": 600}),
    Endpoint("patch", "/api/v1/lists/{list}", {"points_limit": 650}),
    Endpoint("delete", "/api/v1/lists/{list}", expected=(204, 404, 401, 404, 401)),
    Endpoint("get", "/api/v1/lists/{list}/validate"),
    Endpoint("post", "/api/v1/lists/{list}/fork", expected=(201, 404, 401, 404, 401)),
    Endpoint("post", "/api/v1/lists/{list}/share"),
    Endpoint("delete", "/api/v1/lists/{list}/share", expected=(204, 404, 401, 404, 401)),
    Endpoint("get", "/api/v1/lists/{list}/units"),
    Endpoint("post", "/api/v1/lists/{list}/units", {"unit": "{template}"},
             expected=(201, 404, 401, 404, 401)),
    Endpoint("get", "/api/v1/lists/{list}/units/{unit}"),
    Endpoint("patch", "/api/v1/lists/{list}/units/{unit}", {"options": {"plasma": 2}}),
    Endpoint("delete", "/api/v1/lists/{list}/units/{unit}"),
    Endpoint("post", "/api/v1/lists/{list}/units/{unit}/duplicate", expected=(201, 404, 401, 404, 401)),
    Endpoint("get", "/api/v1/lists/{list}/export/pdf"),
    Endpoint("get", "/api/v1/lists/{list}/export/text"),
    Endpoint("get", "/api/v1/lists/{list}/export/json"),
    Endpoint("get", "/api/v1/shared/{token}", expected=SHARED_READ),
    Endpoint("post", "/api/v1/shared/{token}/fork", expected=(201, 404, 401, 201, 401)),
    Endpoint("get", "/api/v1/shared/{token}/export/pdf", expected=SHARED_READ),
    Endpoint("get", "/api/v1/shared/{token}/export/text", expected=SHARED_READ),
    Endpoint("get", "/api/v1/shared/{token}/export/json", expected=SHARED_READ),
    Endpoint("get", "/api/v1/lists/{list}/export/army-forge"),
    Endpoint("get", "/api/v1/shared/{token}/export/army-forge", expected=SHARED_READ),
    Endpoint("get", "/api/v1/shared/{token}/export/rosz", expected=SHARED_READ),
]


def client_for(role: str, *, owner: Any, other: Any, holder: Any) -> APIClient:
    if role == OWNER:
        return token_client(owner)
    if role == OTHER:
        return token_client(other)
    if role == HOLDER:
        return token_client(holder)
    return APIClient()


def fill(value: Any, names: dict[str, Any]) -> Any:
    if isinstance(value, str):
        return value.format(**names) if "{" in value else value
    if isinstance(value, dict):
        return {key: fill(item, names) for key, item in value.items()}
    return value


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda e: f"{e.method.upper()} {e.path}")
def test_list_endpoint_answers_each_kind_of_caller(endpoint: Endpoint, role: str, shared_list: ArmyList,
                                                   owner: Any, other: Any, make_user: Any,
                                                   units: Any, inline_pdf_renders: None) -> None:
    holder = make_user("holder")
    client = client_for(role, owner=owner, other=other, holder=holder)
    names = {"list": shared_list.pk, "unit": shared_list.units.order_by("position").first().pk,
             "template": units["veterans"].pk,
             "token": shared_list.share_token if role in KNOWS_TOKEN else WRONG_TOKEN}
    body = fill(endpoint.body, names)
    if "template" in str(endpoint.body):
        body["unit"] = int(body["unit"])
    response = getattr(client, endpoint.method)(
        endpoint.path.format(**names), body, format="json", HTTP_IF_MATCH=f'"{shared_list.version}"')

    expected = endpoint.expected[ROLES.index(role)]
    assert response.status_code == expected, (response.status_code, getattr(response, "data", None))
    if expected >= 400:
        assert response["Content-Type"].startswith("application/json")
        assert set(response.json()) == {"code", "message", "details"}
    if endpoint.path == "/api/v1/lists" and endpoint.method == "get" and expected == 200:
        listed = {item["id"] for item in response.json()["results"]}
        assert (shared_list.pk in listed) == (role == OWNER)


def test_a_public_list_is_readable_by_others_but_only_its_owner_changes_it(
        private_list: ArmyList, other: Any) -> None:
    private_list.is_public = True
    private_list.save(update_fields=["is_public"])
    client = token_client(other)
    url = f"/api/v1/lists/{private_list.pk}"
    if_match = {"HTTP_IF_MATCH": f'"{private_list.version}"'}

    assert client.get(url).status_code == 200
    assert client.get(f"{url}/export/text").status_code == 200
    assert client.post(f"{url}/fork").status_code == 201
    denied = [
        client.patch(url, {"name": "Mine now"}, format="json", **if_match),
        client.delete(url, **if_match),
        client.post(f"{url}/share", **if_match),
        client.post(f"{url}/units", {"unit": 1}, format="json", **if_match),
    ]
    assert [r.status_code for r in denied] == [403, 403, 403, 403]
    assert {r.json()["code"] for r in denied} == {"permission_denied"}
    assert client.get(url).json()["share_token"] is None


def test_a_revoked_share_link_opens_nothing(shared_list: ArmyList, owner: Any) -> None:
    token = shared_list.share_token
    owner_client = token_client(owner)
    response = owner_client.delete(f"/api/v1/lists/{shared_list.pk}/share",
                                   HTTP_IF_MATCH=f'"{shared_list.version}"')
    assert response.status_code == 204

    answer = APIClient().get(f"/api/v1/shared/{token}")
    assert answer.status_code == 404
    assert answer.json()["code"] == "not_found"
