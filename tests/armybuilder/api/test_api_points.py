"""`POST /api/v1/points/price`: the registry's breakdown, or every bad field at once."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from rules.systems.registry import get_system
from tests.factories.opr_documents import opr_unit


def test_price_answers_the_systems_full_breakdown(anonymous_client: APIClient, db: None) -> None:
    unit = opr_unit("Veterans", rules=["Fearless", "Fear(1)"])

    response = anonymous_client.post("/api/v1/points/price", unit, format="json")

    assert response.status_code == 200
    assert response.json() == get_system("opr").price(unit)
    assert isinstance(response.json()["points"], int)


def test_price_accepts_rule_aliases_of_the_spec(anonymous_client: APIClient, db: None) -> None:
    """docs/rules/opr-points.md accepts the Polish names of rules as aliases of the English ones."""
    english = anonymous_client.post("/api/v1/points/price", opr_unit("A", rules=["Fearless"]), format="json")
    polish = anonymous_client.post("/api/v1/points/price", opr_unit("A", rules=["Nieustraszony"]),
                                   format="json")

    assert polish.status_code == 200, polish.json()
    assert polish.json()["points"] == english.json()["points"]


def test_every_bad_field_is_reported_with_its_path(anonymous_client: APIClient, db: None) -> None:
    unit = opr_unit("Bad")
    unit["models"][0].update(quality=1, defence=7, count=-1)
    unit["models"][0]["rules"] = ["Not A Rule"]

    body = anonymous_client.post("/api/v1/points/price", unit, format="json").json()

    assert {"models[0].quality", "models[0].defence", "models[0].count", "models[0].rules[0]"} <= set(
        body["details"])


def test_the_system_must_be_named_and_known(anonymous_client: APIClient, db: None) -> None:
    unnamed: dict[str, Any] = opr_unit("X")
    del unnamed["system"]
    unknown = {**opr_unit("X"), "system": "chess"}

    missing = anonymous_client.post("/api/v1/points/price", unnamed, format="json").json()
    wrong = anonymous_client.post("/api/v1/points/price", unknown, format="json").json()

    assert list(missing["details"]) == ["system"]
    assert list(wrong["details"]) == ["system"]
