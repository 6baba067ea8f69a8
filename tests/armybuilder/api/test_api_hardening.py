"""Issue 17 regressions in the API: OPTIONS, query parameters checked, body before If-Match,
server errors in JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from armybuilder.models import ArmyList
from tests.armybuilder.api.conftest import if_match


def test_options_on_a_list_describes_it_without_a_server_error(owner_client: APIClient,
                                                              private_list: ArmyList) -> None:
    response = owner_client.options(f"/api/v1/lists/{private_list.pk}")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["name"] == "Army List"
    assert "GET" in response["Allow"]


@pytest.mark.parametrize("path", ["/api/v1/lists", "/api/v1/lists/{id}/units", "/api/v1/estimates",
                                  "/api/v1/systems"])
def test_options_on_every_kind_of_endpoint_is_a_200(owner_client: APIClient, private_list: ArmyList,
                                                    path: str) -> None:
    response = owner_client.options(path.format(id=private_list.pk))
    assert response.status_code == 200, response.content


def test_an_unexpected_error_under_the_api_is_json_even_without_debug(owner_client: APIClient, db: None,
                                                                      settings: Any) -> None:
    from armybuilder import urls
    from armybuilder.api.exceptions import server_error as handler500

    assert urls.handler500 == "armybuilder.api.exceptions.server_error"

    settings.DEBUG = False
    request = owner_client.get("/api/v1/systems").wsgi_request
    response = handler500(request)

    assert response.status_code == 500
    assert response["Content-Type"].startswith("application/json")
    assert json.loads(response.content) == {
        "code": "server_error", "message": "A server error occurred.", "details": {}}


@pytest.mark.parametrize(("path", "query", "param"), [
    ("/api/v1/units", "page_size=null", "page_size"),
    ("/api/v1/units", "page_size=0", "page_size"),
    ("/api/v1/units", "page_size=201", "page_size"),
    ("/api/v1/units", "page=-1", "page"),
    ("/api/v1/units", "faction=abc", "faction"),
    ("/api/v1/lists/{id}/export/pdf", "paper=.exe", "paper"),
    ("/api/v1/lists/{id}/export/text", "format=", "format"),
    ("/api/v1/lists", "search=" + "x" * 101, "search"),
])
def test_a_query_parameter_the_schema_forbids_is_a_400_naming_it(
        owner_client: APIClient, private_list: ArmyList, path: str, query: str, param: str) -> None:
    response = owner_client.get(path.format(id=private_list.pk) + "?" + query)

    assert response.status_code == 400, response.content
    body = response.json()
    assert (body["code"], list(body["details"])) == ("invalid", [param])


def test_query_parameters_the_schema_allows_still_work(owner_client: APIClient,
                                                       private_list: ArmyList) -> None:
    assert owner_client.get("/api/v1/units?page_size=200&page=1").status_code == 200
    assert owner_client.get(f"/api/v1/lists/{private_list.pk}/export/text?format=txt").status_code == 200
    assert owner_client.get("/api/v1/lists?search=Pat").json()["count"] == 1


def test_a_malformed_body_is_a_400_before_if_match_is_looked_at(owner_client: APIClient,
                                                                private_list: ArmyList) -> None:
    stale = {"HTTP_IF_MATCH": '"999"'}
    garbage_list = owner_client.patch(f"/api/v1/lists/{private_list.pk}", {"points_limit": "lots"},
                                      format="json", **stale)
    garbage_unit = owner_client.post(f"/api/v1/lists/{private_list.pk}/units", {"unit": "x"}, format="json",
                                     **stale)
    good_but_stale = owner_client.patch(f"/api/v1/lists/{private_list.pk}", {"points_limit": 750},
                                        format="json", **stale)
    good = owner_client.patch(f"/api/v1/lists/{private_list.pk}", {"points_limit": 750}, format="json",
                              **if_match(private_list))

    assert (garbage_list.status_code, garbage_unit.status_code) == (400, 400)
    assert good_but_stale.status_code == 412
    assert good.status_code == 200
