"""Estimate pages: the form from a unit card, a list unit or a list; the job page; permissions.

Jobs are run in-process (`run_estimate(id)`), as the worker would, so the pages are tested
in each state: queued (progress bar), done (charts, numbers, heat map), failed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from armybuilder.estimates.models import Estimate
from armybuilder.estimates.tasks import run_estimate
from armybuilder.estimates.templatetags.estimate_charts import number
from armybuilder.estimates.views import SESSION_KEY
from armybuilder.lists.sharing import army_list_share
from rules.models import Faction, GameSystem, UnitTemplate
from rules.systems.registry import get_system
from tests.factories.aos_units import aos_catalogue_unit, aos_faction, imported_warscroll
from tests.factories.army_lists import make_faction
from tests.factories.estimate_lists import army_list_of, catalogue_unit, distinct_units
from tests.factories.estimate_rows import estimate_set, stored_estimate
from tests.factories.opr_documents import LAUNCHER, RIFLE, opr_unit

pytestmark = pytest.mark.django_db

NEW = reverse("estimates:new")
HTMX = {"HTTP_HX_REQUEST": "true"}
SITUATION = {"mode": "shooting", "range_inches": "18", "defender_in_cover": "on"}


@pytest.fixture
def veterans(faction: Faction) -> UnitTemplate:
    return catalogue_unit(faction, opr_unit("Veterans", count=5, quality=3, weapons=[RIFLE, LAUNCHER]))


@pytest.fixture
def guards(faction: Faction) -> UnitTemplate:
    return catalogue_unit(faction, opr_unit("Guards", count=10, defence=5))


def post_estimate(client: Any, query: str, **data: str) -> Any:
    return client.post(f"{NEW}?{query}", {**SITUATION, **data})


def estimate_from(response: Any) -> Estimate:
    assert response.status_code == 302, response.content.decode()[:2000]
    match = re.search(r"/estimates/([0-9a-f-]{36})/$", response["Location"])
    assert match, response["Location"]
    return Estimate.objects.get(pk=match[1])


# --------------------------------------------------------------------------- the form


def test_the_form_for_a_catalogue_unit_offers_reference_catalogue_and_list_targets(client, owner, veterans,
                                                                                   guards):
    mine = army_list_of(owner, [opr_unit("Raiders", count=6)], name="Raid")
    client.force_login(owner)

    response = client.get(f"{NEW}?unit={veterans.pk}")

    html = response.content.decode()
    assert response.status_code == 200
    assert "Veterans" in html
    assert '<label for="id_target"' in html
    for slug in get_system("opr").reference_targets:
        assert f'value="ref:{slug}"' in html
    assert f'value="unit:{guards.pk}"' in html
    assert f'value="list_unit:{mine.units.get().pk}"' in html
    assert '<legend>Situation</legend>' in html
    assert 'name="range_inches"' in html and 'name="defender_activated"' in html and 'name="mode"' in html


def test_posting_the_form_creates_a_job_and_redirects_to_its_page(client, veterans):
    response = post_estimate(client, f"unit={veterans.pk}", target="ref:infantry-10")

    estimate = estimate_from(response)
    assert estimate.kind == Estimate.Kind.UNIT_VS_UNIT and estimate.system == "opr"
    assert estimate.status == Estimate.Status.QUEUED
    assert estimate.inputs["attacker"] == veterans.data
    assert estimate.inputs["defender"] == get_system("opr").reference_targets["infantry-10"]
    assert estimate.inputs["situation"] == {
        "mode": "shooting", "range_inches": 18.0, "defender_in_cover": True, "charging": False,
        "attacker_moved": False, "defender_activated": False, "enemies_within_12": False,
        "second_stage": False, "defender_exhausted": False}  # an unticked box: the form posts it off
    assert str(estimate.pk) in client.session[SESSION_KEY]


def test_posting_the_same_question_twice_reuses_the_job(client, veterans, guards):
    first = estimate_from(post_estimate(client, f"unit={veterans.pk}", target=f"unit:{guards.pk}"))
    second = estimate_from(post_estimate(client, f"unit={veterans.pk}", target=f"unit:{guards.pk}"))
    assert first.pk == second.pk
    assert Estimate.objects.count() == 1


@pytest.mark.parametrize(("data", "field"), [
    ({"target": "ref:infantry-10", "charging": "on"}, "charging"),
    ({"target": "ref:infantry-10", "range_inches": "far"}, "range_inches"),
    ({"target": "ref:infantry-10", "range_inches": "500"}, "range_inches"),
    ({"target": "ref:infantry-10", "mode": "flying"}, "mode"),
    ({"target": "unit:999999"}, "target"),
    ({"target": "list_unit:abc"}, "target"),
    ({"target": ""}, "target"),
])
def test_bad_input_re_renders_the_form_with_the_error_at_its_field(client, veterans, data, field):
    response = post_estimate(client, f"unit={veterans.pk}", **data)

    assert response.status_code == 400
    form = response.context["form"]
    assert field in form.errors, form.errors
    assert 'class="errorlist' in response.content.decode()
    assert not Estimate.objects.exists()


def test_a_broken_unit_is_reported_above_the_form_never_a_server_error(client, faction):
    broken = UnitTemplate.objects.create(faction=faction, slug="broken", name="Broken",
                                         data=opr_unit("Broken", quality=9))
    response = post_estimate(client, f"unit={broken.pk}", target="ref:infantry-10")
    assert response.status_code == 400
    assert any("attacker.models[0].quality" in e for e in response.context["form"].non_field_errors())


@pytest.fixture
def system_without_estimates():
    """Every bundled system has an attack sequence now: a registered copy of OPR without one."""
    from dataclasses import replace

    from rules.systems.registry import register, unregister

    system = register(replace(get_system("opr"), key="no-estimates", name="No estimates", attack=None))
    yield system
    unregister(system.key)


def test_a_system_without_an_attack_sequence_says_there_are_no_estimates_yet(
        client, system_without_estimates):
    key = system_without_estimates.key
    system, _ = GameSystem.objects.get_or_create(key=key, defaults={"name": system_without_estimates.name})
    unit = UnitTemplate.objects.create(faction=make_faction(system=system), slug="someone", name="Someone",
                                       data={"format": 1, "system": key, "name": "Someone", "models": []})

    response = client.get(f"{NEW}?unit={unit.pk}")

    assert response.status_code == 200
    assert "There are no damage estimates for" in response.content.decode()
    assert "form" not in response.context


def test_the_start_page_explains_where_estimates_begin(client):
    response = client.get(NEW)
    assert response.status_code == 200
    assert "Start from what attacks" in response.content.decode()


# --------------------------------------------------------------------------- the job page


def test_the_status_fragment_is_a_progress_bar_while_running_then_the_charts(client, veterans, guards):
    estimate = estimate_from(post_estimate(client, f"unit={veterans.pk}", target=f"unit:{guards.pk}"))
    status_url = reverse("estimates:status", args=[estimate.pk])

    running = client.get(status_url, **HTMX).content.decode()
    assert "<progress" in running and 'hx-trigger="every 1s"' in running
    assert 'for="estimate-progress-bar"' in running
    assert "<svg" not in running

    run_estimate(str(estimate.pk))
    done = client.get(status_url, **HTMX).content.decode()

    assert "<progress" not in done and "hx-trigger" not in done
    assert done.count("<svg") == 2
    assert "Points efficiency" in done
    estimate.refresh_from_db()
    efficiency = f"{estimate.result['points_efficiency']:.1f}"
    assert efficiency in done
    assert f"{estimate.result['expected']['kills']:.2f}" in done


def test_the_status_url_without_htmx_goes_to_the_page(client, veterans):
    estimate = estimate_from(post_estimate(client, f"unit={veterans.pk}", target="ref:elites-5"))
    response = client.get(reverse("estimates:status", args=[estimate.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("estimates:detail", args=[estimate.pk])


def test_the_page_of_an_unfinished_job_has_a_reload_link_for_browsers_without_javascript(client, veterans):
    estimate = estimate_from(post_estimate(client, f"unit={veterans.pk}", target="ref:elites-5"))
    html = client.get(reverse("estimates:detail", args=[estimate.pk])).content.decode()
    assert f'<noscript><p><a href="{reverse("estimates:detail", args=[estimate.pk])}">' in html
    assert "Veterans attacking Armoured elites" in html
    assert "Shooting at 18″, the defender is in cover" in html


def test_the_page_of_a_finished_job_shows_charts_numbers_and_the_distribution_table(client, veterans):
    estimate = estimate_from(post_estimate(client, f"unit={veterans.pk}", target="ref:infantry-10"))
    run_estimate(str(estimate.pk))

    html = client.get(reverse("estimates:detail", args=[estimate.pk])).content.decode()

    assert html.count("<svg") == 2
    assert "<noscript><meta" not in html
    assert "P(at least k killed)" in html
    assert 'role="img"' in html and "<title>" in html
    assert "Plasma" not in html and "Rifle" in html and "Launcher" in html


def test_a_failed_job_shows_its_error_and_can_be_tried_again(client, veterans):
    estimate = estimate_from(post_estimate(client, f"unit={veterans.pk}", target="ref:infantry-10"))
    estimate_set(estimate.pk, status=Estimate.Status.FAILED,
                 error="The dice rolled away.")

    html = client.get(reverse("estimates:detail", args=[estimate.pk])).content.decode()
    assert "The estimate failed:" in html and "The dice rolled away." in html

    again = estimate_from(client.post(reverse("estimates:retry", args=[estimate.pk])))
    assert again.pk != estimate.pk and again.status == Estimate.Status.QUEUED


def test_an_unknown_job_is_a_404(client):
    missing = "00000000-0000-0000-0000-000000000000"
    assert client.get(reverse("estimates:detail", args=[missing])).status_code == 404
    assert client.get(reverse("estimates:status", args=[missing]), **HTMX).status_code == 404


# --------------------------------------------------------------------------- lists


def test_a_unit_of_a_list_is_estimated_with_its_upgrades(client, owner):
    from tests.factories.army_lists import make_list, make_unit

    faction = make_faction()
    template = make_unit(faction=faction)
    army_list = make_list(owner=owner, faction=faction, units=[template])
    list_unit = army_list.units.get()
    from armybuilder.lists.services import army_list_unit_set_options

    army_list_unit_set_options(list_unit=list_unit, options={"plasma": 1}, expected_version=None)
    list_unit.refresh_from_db()
    client.force_login(owner)

    estimate = estimate_from(post_estimate(client, f"list={army_list.pk}&list_unit={list_unit.pk}",
                                           target="ref:infantry-10"))

    weapons = {w["name"] for model in estimate.inputs["attacker"]["models"] for w in model["weapons"]}
    assert "Plasma Gun" in weapons
    assert estimate.inputs["attacker"] == list_unit.data


def test_a_list_against_a_list_renders_a_heat_map_with_the_best_cells_starred(client, owner, other):
    mine = army_list_of(owner, distinct_units("Mine", 3), name="Mine")
    theirs = army_list_of(other, distinct_units("Theirs", 2), name="Theirs", public=True)
    client.force_login(owner)

    form = client.get(f"{NEW}?list={mine.pk}").content.decode()
    assert f'value="list:{theirs.pk}"' in form and 'value="ref:*"' in form

    estimate = estimate_from(post_estimate(client, f"list={mine.pk}", target=f"list:{theirs.pk}"))
    assert estimate.kind == Estimate.Kind.LIST_VS_LIST
    assert [u["name"] for u in estimate.inputs["list_b"]["units"]] == ["Theirs 0", "Theirs 1"]
    run_estimate(str(estimate.pk))

    html = client.get(reverse("estimates:detail", args=[estimate.pk])).content.decode()

    assert html.count('<table class="heatmap">') == 2
    assert "Mine attacking Theirs" in html and "Theirs attacking Mine" in html
    # One star per unit of mine (its best target) in the first map, per unit of theirs in the second.
    assert html.count("★</span>") == 3 + 2
    # One number per cell (issue 30: a compact grid), the details in its title.
    starred = r'class="num heat best[^"]*"[^>]*>[0-9.]+<span aria-hidden="true">★'
    assert re.search(starred, html)
    assert 'class="matrix-verdict"' in html and "comes out ahead" in html


def test_a_list_against_the_reference_targets(client, owner):
    mine = army_list_of(owner, distinct_units("Mine", 2), name="Mine")
    client.force_login(owner)
    estimate = estimate_from(post_estimate(client, f"list={mine.pk}", target="ref:*"))
    assert len(estimate.inputs["list_b"]["units"]) == len(get_system("opr").reference_targets)


# --------------------------------------------------------------------------- permissions


def test_another_players_private_list_is_a_404_as_a_source(client, owner, other):
    private = army_list_of(other, [opr_unit("Secret")], name="Secret")
    unit = private.units.get()
    client.force_login(owner)

    assert client.get(f"{NEW}?list={private.pk}").status_code == 404
    assert client.get(f"{NEW}?list={private.pk}&list_unit={unit.pk}").status_code == 404
    assert client.post(f"{NEW}?list={private.pk}", {**SITUATION, "target": "ref:*"}).status_code == 404
    assert client.get(f"{NEW}?list=999999").status_code == 404
    assert client.get(f"{NEW}?list=abc").status_code == 404
    assert client.get(f"{NEW}?unit=999999").status_code == 404
    assert not Estimate.objects.exists()


def test_a_unit_of_another_list_must_be_visible_to_be_a_target(client, owner, other, veterans):
    private = army_list_of(other, [opr_unit("Secret")], name="Secret")
    public = army_list_of(other, [opr_unit("Open")], name="Open", public=True)
    client.force_login(owner)

    form = client.get(f"{NEW}?unit={veterans.pk}").content.decode()
    assert f"list_unit:{private.units.get().pk}" not in form
    assert f"list_unit:{public.units.get().pk}" in form

    refused = post_estimate(client, f"unit={veterans.pk}", target=f"list_unit:{private.units.get().pk}")
    assert refused.status_code == 400 and "target" in refused.context["form"].errors
    estimate_from(post_estimate(client, f"unit={veterans.pk}", target=f"list_unit:{public.units.get().pk}"))


def test_a_private_list_opened_through_its_share_link_can_be_estimated_by_its_token(client, owner, other):
    private = army_list_of(other, [opr_unit("Shared")], name="Shared")
    token = army_list_share(army_list=private, expected_version=None)
    client.force_login(owner)

    assert client.get(f"{NEW}?share={token}").status_code == 200
    assert client.get(f"{NEW}?share={token}&list_unit={private.units.get().pk}").status_code == 200
    assert client.get(f"{NEW}?share=revoked-token").status_code == 404


def test_a_private_homebrew_unit_of_another_player_is_a_404(client, owner, other):
    homebrew = make_faction(owner=other)
    unit = catalogue_unit(homebrew, opr_unit("Mine Only"))
    client.force_login(owner)
    assert client.get(f"{NEW}?unit={unit.pk}").status_code == 404


# --------------------------------------------------------------------------- listing, queries, print


def test_your_estimates_lists_your_own_and_this_browsers(client, owner, other, veterans):
    client.force_login(owner)
    mine = estimate_from(post_estimate(client, f"unit={veterans.pk}", target="ref:infantry-10"))
    theirs = stored_estimate(kind=Estimate.Kind.UNIT_VS_UNIT, system="opr", owner=other,
                             inputs={"attacker": {"name": "Hidden"}, "defender": {"name": "X"}},
                             inputs_hash="0" * 64)

    html = client.get(reverse("estimates:list")).content.decode()

    assert "Veterans attacking Infantry (10 × D5 T1)" in html
    assert reverse("estimates:detail", args=[mine.pk]) in html
    assert reverse("estimates:detail", args=[theirs.pk]) not in html

    anonymous = client.__class__()
    estimate_from(post_estimate(anonymous, f"unit={veterans.pk}", target="ref:elites-5"))
    assert "Veterans attacking Armoured elites" in anonymous.get(reverse("estimates:list")).content.decode()


def test_the_target_menu_costs_the_same_queries_whatever_the_number_of_lists(client, owner, veterans):
    client.force_login(owner)

    def queries() -> int:
        with CaptureQueriesContext(connection) as context:
            assert client.get(f"{NEW}?unit={veterans.pk}").status_code == 200
        return len(context.captured_queries)

    army_list_of(owner, distinct_units("A", 2), name="One")
    few = queries()
    for name in ("Two", "Three", "Four"):
        army_list_of(owner, distinct_units(name, 3), name=name)
    assert queries() == few


def test_charts_are_not_hidden_when_printing():
    root = Path(__file__).resolve().parents[3] / "static" / "css"
    print_css = (root / "print.css").read_text()
    assert "svg" not in print_css and ".chart" not in print_css and "heatmap" not in print_css
    assert "print-color-adjust: exact" in (root / "estimates.css").read_text()


# --------------------------------------------------------------------------- links from other pages


def test_the_list_editor_links_each_unit_and_the_whole_list_to_an_estimate(client, owner):
    army_list = army_list_of(owner, distinct_units("Mine", 2), name="Mine")
    client.force_login(owner)

    html = client.get(reverse("lists:detail", args=[army_list.pk])).content.decode()

    for unit in army_list.units.all():
        link = f"{NEW}?list={army_list.pk}&amp;list_unit={unit.pk}"
        assert link in html
        assert client.get(link.replace("&amp;", "&")).status_code == 200
    assert f'href="{NEW}?list={army_list.pk}"' in html


def test_a_list_opened_by_its_share_link_links_to_estimates_by_its_token(client, owner, other):
    army_list = army_list_of(other, distinct_units("Theirs", 1), name="Theirs")
    token = army_list_share(army_list=army_list, expected_version=None)
    client.force_login(owner)

    html = client.get(reverse("lists:shared", args=[token])).content.decode()

    link = f"{NEW}?share={token}&amp;list_unit={army_list.units.get().pk}"
    assert link in html
    assert client.get(link.replace("&amp;", "&")).status_code == 200


def test_a_unit_card_of_the_catalogue_links_to_its_estimate(client, veterans):
    url = reverse("rules:unit", args=[veterans.faction.system.key, veterans.faction.slug, veterans.slug])
    html = client.get(url).content.decode()
    assert f'href="{NEW}?unit={veterans.pk}"' in html
    assert "Estimate damage" in html


def test_a_system_without_points_shows_no_points_rows(client, veterans):
    """`points_sized` False (AoS): no "Expected points destroyed" or "Points efficiency" with a dash."""
    estimate = estimate_from(post_estimate(client, f"unit={veterans.pk}", target="ref:infantry-10"))
    run_estimate(str(estimate.pk))
    pointed = client.get(reverse("estimates:detail", args=[estimate.pk])).content.decode()
    assert "Expected points destroyed" in pointed and "Points efficiency" in pointed

    type(estimate).objects.filter(pk=estimate.pk).update(system="aos1")
    html = client.get(reverse("estimates:detail", args=[estimate.pk])).content.decode()

    assert "Models killed" in html
    assert "Expected points destroyed" not in html and "Points efficiency" not in html
    assert "Attacker&#x27;s points" not in html and "Attacker's points" not in html


def test_a_heat_map_without_points_headlines_the_models_killed(client, owner, other):
    """AoS 1st edition has no points: every cell's efficiency is null, so the maps headline
    expected kills (not a grid of dashes) and say so."""
    mine = army_list_of(owner, distinct_units("Mine", 2), name="Mine")
    theirs = army_list_of(other, distinct_units("Theirs", 2), name="Theirs", public=True)
    client.force_login(owner)
    estimate = estimate_from(post_estimate(client, f"list={mine.pk}", target=f"list:{theirs.pk}"))
    run_estimate(str(estimate.pk))
    estimate.refresh_from_db()
    result = estimate.result
    for grid in (result["a_vs_b"], result["b_vs_a"]):
        for row in grid:
            for cell in row:
                cell["points_efficiency"] = cell["expected_points_destroyed"] = None
    type(estimate).objects.filter(pk=estimate.pk).update(system="aos1", result=result)

    html = client.get(reverse("estimates:detail", args=[estimate.pk])).content.decode()

    assert "Each cell: the expected number of models the attack kills." in html
    assert "points efficiency" not in html and "points destroyed" not in html
    kills = number(result["a_vs_b"][0][0]["expected_kills"], 2)
    assert re.search(rf'class="num heat[^"]*"[^>]*>{re.escape(kills)}(<span|</td>)', html)
    assert re.search(r'class="num heat[^"]*"[^>]*>–', html) is None
    assert "models killed: its units average" in html or "come out even" in html
    assert html.count("★</span>") == 2 + 2


# --------------------------------------------------------------------------- imported units

AOS_MELEE = {"mode": "melee", "range_inches": "12", "fighting_models": "0", "mortal_wounds": "0",
             "slain_earlier": "0", "bravery_modifier": "0"}


def test_the_form_of_a_unit_without_a_profile_says_it_cannot_be_estimated(client):
    faction = aos_faction()
    skulkers = aos_catalogue_unit(faction, imported_warscroll("Skulkers", profile=False))
    aos_catalogue_unit(faction, imported_warscroll("Raiders"))

    html = client.get(f"{NEW}?unit={skulkers.pk}").content.decode()

    assert "“Skulkers” cannot be estimated: its catalogue gives it no profile" in html
    assert 'class="estimate-form"' not in html
    assert client.post(f"{NEW}?unit={skulkers.pk}", {**AOS_MELEE, "target": "ref:x"}).status_code == 400


def test_choosing_a_target_without_a_profile_is_refused_beside_the_target(client):
    faction = aos_faction()
    raiders = aos_catalogue_unit(faction, imported_warscroll("Raiders"))
    skulkers = aos_catalogue_unit(faction, imported_warscroll("Skulkers", profile=False))

    response = client.post(f"{NEW}?unit={raiders.pk}", {**AOS_MELEE, "target": f"unit:{skulkers.pk}"})

    assert response.status_code == 400
    assert "cannot be estimated: its catalogue gives it no profile" in response.content.decode()
    assert not Estimate.objects.exists()


def test_the_result_names_the_abilities_the_estimate_did_not_use(client):
    faction = aos_faction()
    raiders = aos_catalogue_unit(faction, imported_warscroll("Raiders", abilities=[
        {"name": "Frenzy", "text": "You can re-roll hit rolls of 1 for this unit.", "read": True},
        {"name": "Trampling Charge", "text": "If this unit charged, add 1 to hit rolls."}]))
    raiders.data["models"][0]["abilities"] = [{"type": "reroll", "roll": "hit", "which": "ones",
                                               "name": "Frenzy"}]
    raiders.save()
    guards = aos_catalogue_unit(faction, imported_warscroll("Guards"))

    estimate = estimate_from(
        client.post(f"{NEW}?unit={raiders.pk}", {**AOS_MELEE, "target": f"unit:{guards.pk}"}))
    run_estimate(str(estimate.pk))
    html = client.get(reverse("estimates:detail", args=[estimate.pk])).content.decode()

    block = html[html.index('id="abilities-not-used"'):]
    block = block[: block.index("</div>")]
    assert "Not used by this estimate" in block
    assert re.search(r'data-role="attacker"><strong>Raiders</strong>.*: Trampling Charge</li>', block)
    assert re.search(r'data-role="defender"><strong>Guards</strong>.*: Lurking</li>', block)
    assert "Frenzy" not in block
