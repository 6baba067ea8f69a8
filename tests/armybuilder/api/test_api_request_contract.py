"""The request contract is enforced in the request (issue 38, item 8).

- An import body the schema (and the worker) forbids is a 400 naming its field before any job
  is queued; before, the API answered 202 and the job failed later (58 schemathesis cases).
- An address too long is the API's JSON 414, not gunicorn's HTML page.
- `page` has bounds: past them a 400 naming it.
- A malformed body is a 400 whatever its If-Match says (the gauntlet settings answered 412 first).
"""

from __future__ import annotations

from typing import Any

import pytest
import redis

from armybuilder.request_line import MAX_REQUEST_LINE

IMPORT = "/api/v1/lists/import"


def queued_imports() -> list[bytes]:
    """The list-import jobs in Redis (the job cache keeps one key per job)."""
    from django.conf import settings

    return sorted(redis.Redis.from_url(settings.REDIS_URL).keys("*list-import:*"))


@pytest.mark.parametrize(("body", "details"), [
    ({"system": "opr", "name": "Ridge", "points_limit": 100, "units": [], "colour": "red"},
     {"colour": ["Unknown field."]}),
    ({"system": "no-such-system", "name": "Ridge", "points_limit": 100, "units": []},
     {"system": ["Unknown game system."]}),
    ({"system": "opr", "name": "  ", "points_limit": 0, "units": []},
     {"name": ["Give the list a name."], "points_limit": ["The points limit must be between 1 and 100000."]}),
    ({"system": "opr", "name": "Ridge", "points_limit": 100,
      "units": [{"count": 0, "catalogue_unit": "a/b"}]},
     {"units[0].count": ["Must be a whole number from 1 to 100."]}),
    ({"system": "opr", "name": "Ridge", "points_limit": 100,
      "units": [{"catalogue_unit": "a/b", "options": "x"}, 7, {}]},
     {"units[0].options": ["Must be a list of option keys."],
      "units[1]": ["Each unit entry must be an object."],
      "units[2]": ["Give “unit” (written out in full) or “catalogue_unit”."]}),
])
def test_an_import_body_the_schema_forbids_is_refused_before_any_job(owner_client: Any, opr: Any, body: dict,
                                                                   details: dict):
    before = queued_imports()
    response = owner_client.post(IMPORT, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["details"] == details
    assert queued_imports() == before


def test_an_address_too_long_is_the_apis_json_414(owner_client: Any, db: None):
    long_query = "q=" + "a" * (MAX_REQUEST_LINE - len("/api/v1/systems?q="))
    assert owner_client.get("/api/v1/systems?" + long_query).status_code == 200  # exactly the limit
    response = owner_client.get("/api/v1/systems?" + long_query + "a")
    assert response.status_code == 414
    message = f"The address is {MAX_REQUEST_LINE + 1} characters long; the limit is {MAX_REQUEST_LINE}."
    assert response.json() == {"code": "uri_too_long", "details": {}, "message": message}


def test_a_page_beyond_its_bounds_is_a_400_naming_it(owner_client: Any, private_list: Any):
    assert owner_client.get("/api/v1/lists?page=1000000").status_code == 404  # within bounds, past the end
    response = owner_client.get("/api/v1/lists?page=1000001")
    assert response.status_code == 400
    assert response.json()["details"] == {"page": ["Must be a whole number between 1 and 1000000."]}


def test_a_malformed_gauntlet_body_is_a_400_whatever_its_if_match(owner_client: Any, private_list: Any):
    response = owner_client.put(f"/api/v1/lists/{private_list.pk}/gauntlet", {"lists": "all of them"},
                                format="json", HTTP_IF_MATCH='"999"')
    assert response.status_code == 400, response.content
    assert sorted(response.json()["details"]) == ["lists", "reference"]
    stale = owner_client.put(f"/api/v1/lists/{private_list.pk}/gauntlet", {"reference": True, "lists": []},
                             format="json", HTTP_IF_MATCH='"999"')
    assert stale.status_code == 412
