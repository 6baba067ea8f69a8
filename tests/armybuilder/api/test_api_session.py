"""A whole app session driven only through HTTP, as a mobile client would (issue 6):
get a token → browse the catalogue → create a list → add units → validate → export PDF → delete.
"""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from tests.factories.army_lists import PASSWORD


def test_a_mobile_client_builds_prints_and_deletes_a_list(owner: Any, units: Any,
                                                          inline_pdf_renders: None) -> None:
    app = APIClient()

    token = app.post("/api/v1/auth/token", {"username": "owner", "password": PASSWORD}, format="json")
    assert token.status_code == 200
    app.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")

    systems = app.get("/api/v1/systems").json()
    assert "opr" in [s["key"] for s in systems]
    factions = app.get("/api/v1/factions", {"system": "opr"}).json()["results"]
    faction = next(f for f in factions if f["slug"] == "test-guard")
    catalogue = app.get("/api/v1/units", {"faction": faction["id"]}).json()["results"]
    veterans = next(u for u in catalogue if u["slug"] == "veterans")
    detail = app.get(f"/api/v1/units/{veterans['id']}").json()
    plasma = next(o for o in detail["options"] if o["key"] == "plasma")

    created = app.post("/api/v1/lists", {"name": "Strike Force", "system": "opr", "faction": faction["id"],
                                         "points_limit": 1000}, format="json")
    assert created.status_code == 201
    list_url = f"/api/v1/lists/{created.json()['id']}"
    etag = created["ETag"]

    for unit in catalogue:
        options = {"plasma": 1} if unit["id"] == veterans["id"] else {}
        added = app.post(f"{list_url}/units", {"unit": unit["id"], "options": options}, format="json",
                         HTTP_IF_MATCH=etag)
        assert added.status_code == 201, added.json()
        etag = added["ETag"]
    army = app.get(list_url).json()
    assert [u["name"] for u in army["units"]] == [u["name"] for u in catalogue]
    assert army["units"][0]["points"] == veterans["points"] + plasma["points"]
    assert army["total_points"] == sum(u["points"] for u in army["units"])

    report = app.get(f"{list_url}/validate").json()
    assert report["total_points"] == army["total_points"]
    assert report["points_left"] == 1000 - army["total_points"]
    assert isinstance(report["violations"], list)

    pdf = app.get(f"{list_url}/export/pdf", HTTP_ACCEPT="application/pdf")
    assert pdf.status_code == 200
    assert pdf["Content-Type"] == "application/pdf"
    assert b"".join(pdf.streaming_content if pdf.streaming else [pdf.content]).startswith(b"%PDF")

    assert app.delete(list_url, HTTP_IF_MATCH=etag).status_code == 204
    assert app.get(list_url).status_code == 404
    assert app.get("/api/v1/lists").json()["count"] == 0
