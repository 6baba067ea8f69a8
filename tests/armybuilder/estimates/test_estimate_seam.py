"""The seam: a game system the product layer has never heard of plugs into every estimate
entry point — the form, the API (and its situation-schema endpoint), the jobs with their
list-vs-list matrix, and the `estimate` command — by registering, with no change outside
its own package (`tests/armybuilder/estimates/toy_system`)."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from armybuilder.estimates.compute import list_vs_list
from armybuilder.estimates.forms import EstimateForm
from armybuilder.estimates.models import Estimate
from armybuilder.estimates.tasks import run_estimate
from rules.models import GameSystem as GameSystemRow
from rules.models import UnitTemplate
from rules.systems.registry import GameSystem, get_system, register, unregister
from tests.armybuilder.estimates.toy_system import KEY, attack, make_system, toy_unit
from tests.factories.army_lists import make_faction

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def toy_system() -> Iterator[GameSystem]:
    system = register(make_system())
    yield system
    unregister(KEY)


def test_the_form_is_built_from_the_toy_schema_and_checks_its_rules(toy_system):
    choices = [("ref:balloon-bunch", "Balloon bunch")]
    form = EstimateForm(None, target_choices=choices, system=toy_system)
    assert [f.name for f in form.situation_fields()] == ["mode", "wind"]
    assert form.fields["wind"].label == "Wind strength"
    assert form.fields["wind"].min_value == 0 and form.fields["wind"].max_value == 3
    assert 'type="number"' in str(form["wind"]) and 'type="radio"' in str(form["mode"])

    good = EstimateForm({"target": "ref:balloon-bunch", "mode": "shooting", "wind": "2"},
                        target_choices=choices, system=toy_system)
    assert good.is_valid(), good.errors
    assert good.cleaned_data["situation"] == {"mode": "shooting", "wind": 2}

    crossed = EstimateForm({"target": "ref:balloon-bunch", "mode": "melee", "wind": "1"},
                           target_choices=choices, system=toy_system)
    assert not crossed.is_valid()
    assert crossed.errors["wind"] == ["Wind only matters when shooting."]


@pytest.mark.django_db
def test_the_estimate_page_of_a_toy_unit_card_runs_and_shows_the_toy_outcomes(client, toy_system):
    row = GameSystemRow.objects.create(key=KEY, name="Toy darts")
    faction = make_faction(slug="toy-throwers", system=row)
    data = toy_unit("Throwers", count=3, darts=2)
    unit = UnitTemplate.objects.create(faction=faction, slug="throwers", name="Throwers", data=data, points=9)
    page = client.get(reverse("estimates:new"), {"unit": unit.pk})
    html = page.content.decode()
    assert page.status_code == 200 and 'name="wind"' in html and "Wind strength" in html
    assert 'name="charging"' not in html

    response = client.post(f"{reverse('estimates:new')}?unit={unit.pk}",
                           {"target": "ref:balloon-bunch", "mode": "shooting", "wind": "3"})
    assert response.status_code == 302, response.content.decode()[:2000]
    estimate = Estimate.objects.get(pk=re.search(r"([0-9a-f-]{36})/$", response["Location"])[1])
    assert estimate.system == KEY and estimate.inputs["situation"] == {"mode": "shooting", "wind": 3}
    assert run_estimate(str(estimate.pk)) == "done"
    html = client.get(response["Location"]).content.decode()
    assert "Shooting, wind strength: 3" in html
    assert "At least one balloon pops" in html and "98.4%" in html  # 1 − (1/2)^6
    assert 'data-outcome="hits_spread"' in html and "Darts thrown" in html


@pytest.mark.django_db
def test_the_api_validates_the_toy_situation_and_documents_its_schema(client, toy_system):
    schema = client.get(f"/api/v1/systems/{KEY}/situation-schema")
    assert schema.status_code == 200
    assert schema.json()["schema"]["properties"]["wind"]["maximum"] == 3
    assert client.get("/api/v1/systems/no-such-system/situation-schema").status_code == 404

    body = {"kind": "unit_vs_unit", "attacker": toy_unit("A"), "defender": toy_unit("B", darts=0),
            "situation": {"wind": 4, "gust": True}}
    refused = client.post("/api/v1/estimates", body, content_type="application/json")
    assert refused.status_code == 400
    assert set(refused.json()["details"]) == {"situation.wind", "situation.gust"}

    body["situation"] = {"mode": "melee", "wind": 1}
    crossed = client.post("/api/v1/estimates", body, content_type="application/json")
    assert crossed.status_code == 400 and set(crossed.json()["details"]) == {"situation.wind"}

    body["situation"] = {"wind": 1}
    created = client.post("/api/v1/estimates", body, content_type="application/json")
    assert created.status_code == 202, created.json()
    run_estimate(created.json()["id"])
    result = client.get(created["Location"]).json()["result"]
    expected = attack(toy_unit("A"), toy_unit("B", darts=0), {"mode": "shooting", "wind": 1})
    assert result["expected"] == pytest.approx(expected["expected"], abs=1e-12)
    assert result["outcomes"][0]["value"] == pytest.approx(1 - (1 / 6) ** 8, abs=1e-12)


def test_list_matrix_cells_carry_the_toy_outcomes_by_key(toy_system):
    side = {"name": "Side", "units": [{"name": "A", "unit": toy_unit("A")}]}
    result = list_vs_list(KEY, {"list_a": side, "list_b": side, "situation": {"mode": "shooting", "wind": 0}})
    cell = result["a_vs_b"][0][0]
    assert cell["p_any_pop"] == pytest.approx(1.0) and cell["darts_thrown"] == 8.0
    assert "hits_spread" not in cell  # a distribution is no one-figure cell
    assert result["fields"][-2:] == ["p_any_pop", "darts_thrown"]
    assert result["outcomes"]["p_any_pop"] == {"label": "At least one balloon pops", "kind": "probability"}


def _command(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    files = []
    for name, unit in (("a.json", toy_unit("A")), ("b.json", toy_unit("B", darts=0))):
        (tmp_path / name).write_text(json.dumps(unit), encoding="utf-8")
        files.append(str(tmp_path / name))
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("estimate", *files, *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = int(exc.code)
    return code, out.getvalue(), err.getvalue()


def test_the_command_takes_the_toy_situation(tmp_path, toy_system):
    code, out, err = _command(tmp_path, "--system", KEY, "--situation", "wind=2")
    assert code == 0, err
    assert json.loads(out)["situation"] == {"mode": "shooting", "wind": 2}
    code, out, err = _command(tmp_path, "--gale")  # the toy's own alias; --system from the files
    assert code == 0, err
    assert json.loads(out)["situation"]["wind"] == 3
    code, out, err = _command(tmp_path, "--situation", "wind=9", "--situation", "mode=melee", "--melee")
    assert code == 2
    paths = {e["path"] for e in json.loads(err)["errors"]}
    assert paths == {"situation", "situation.wind"}  # --melee is OPR's, not the toy's


def test_nothing_in_the_product_layer_names_a_system_or_a_situation_field():
    """THE SEAM (DESIGN.md, "One seam for game systems"): the product layer reads every system-specific
    word from the registry."""
    product = [ROOT / "armybuilder" / "estimates", ROOT / "armybuilder" / "api" / "estimates.py",
               ROOT / "rules" / "management" / "commands" / "estimate.py", ROOT / "templates" / "estimates"]
    words = set()
    for key in ("opr", "wh40k9", "whfb6", "aos1", "ru_whfb"):
        try:
            system = get_system(key)
        except KeyError:
            continue
        words.add(key)
        words |= {name for name in system.situation_schema.get("properties", {}) if name != "mode"}
    files = [p for root in product for p in ([root] if root.is_file() else root.rglob("*"))
             if p.suffix in {".py", ".html"} and "migrations" not in p.parts]
    # A field is named in code as a string literal, an attribute or a template lookup; plain
    # English words ("cover", the builtin `round`) are not a field being named.
    def names(text: str, word: str) -> bool:
        w = re.escape(word)
        return bool(re.search(rf"([\"']){w}\1|\.{w}\b|\[{w}\]", text))

    offending = {(p.relative_to(ROOT).as_posix(), word) for p in files for word in words
                 if names(p.read_text(encoding="utf-8"), word)}
    assert not offending


def test_the_request_body_is_a_named_component_with_the_situation_as_an_object():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    body = schema["paths"]["/api/v1/estimates"]["post"]["requestBody"]["content"]["application/json"]
    body = body["schema"]
    assert body == {"$ref": "#/components/schemas/EstimateRequest"}
    situation = schema["components"]["schemas"]["EstimateRequest"]["properties"]["situation"]
    assert situation["type"] == "object" and "situation-schema" in situation["description"]
    assert "SituationSchema" in schema["components"]["schemas"]
