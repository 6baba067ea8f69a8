"""`manage.py load_example_lists`: one valid, public example list per game system, idempotently."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from armybuilder.lists.evaluation import army_list_evaluate
from armybuilder.lists.examples import EXAMPLES_USERNAME, read_example_files
from armybuilder.models import ArmyList
from rules.systems.registry import all_systems

pytestmark = pytest.mark.django_db


def load_all() -> str:
    out = io.StringIO()
    call_command("load_catalogue", stdout=io.StringIO())
    call_command("load_example_lists", stdout=out)
    return out.getvalue()


def test_every_system_has_an_example_file():
    systems = {spec["system"] for _path, spec in read_example_files()}
    assert systems == {system.key for system in all_systems()}


def test_each_example_list_is_public_owned_by_the_system_user_and_valid_when_evaluated_afresh():
    output = load_all()
    examples = ArmyList.objects.filter(owner__username=EXAMPLES_USERNAME)
    assert examples.count() == len(read_example_files())
    assert {army_list.system.key for army_list in examples} == {s.key for s in all_systems()}
    for army_list in examples:
        assert army_list.is_public
        assert army_list.unit_count >= 5, army_list.name
        fresh = army_list_evaluate(army_list=army_list)
        assert fresh.violations == [], (army_list.name, fresh.violations)
        assert fresh.total_points == army_list.total_points
        assert fresh.total_points <= army_list.points_limit
        assert f"created {army_list.name}" in output
    assert not examples.first().owner.is_active


def test_the_gallery_of_a_fresh_install_shows_an_example_per_system_and_anyone_can_fork_one(client):
    from django.urls import reverse

    from tests.factories.army_lists import make_user

    load_all()
    gallery = client.get(reverse("lists:gallery")).content.decode()
    for army_list in ArmyList.objects.filter(owner__username=EXAMPLES_USERNAME):
        assert army_list.name in gallery
    example = ArmyList.objects.get(owner__username=EXAMPLES_USERNAME, system__key="whfb6")
    player = make_user()
    client.force_login(player)
    response = client.post(reverse("lists:fork", args=[example.pk]))
    assert response.status_code == 302
    fork = ArmyList.objects.get(owner=player)
    assert fork.forked_from_id == example.pk and fork.is_valid and fork.total_points == example.total_points


def test_loading_again_changes_nothing():
    load_all()
    before = {a.pk: a.version for a in ArmyList.objects.all()}
    output = load_all()
    assert {a.pk: a.version for a in ArmyList.objects.all()} == before
    assert "created" not in output and output.count("unchanged") == len(before)


def test_a_changed_example_is_rebuilt(tmp_path, settings):
    load_all()
    army_list = ArmyList.objects.get(owner__username=EXAMPLES_USERNAME, system__key="aos1")
    army_list.points_limit = 999
    army_list.save()
    output = load_all()
    rebuilt = ArmyList.objects.get(owner__username=EXAMPLES_USERNAME, system__key="aos1")
    assert rebuilt.pk != army_list.pk and rebuilt.points_limit == 1000
    assert f"created {rebuilt.name}" in output
