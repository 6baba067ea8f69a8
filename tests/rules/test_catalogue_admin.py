"""The Django admin edits every catalogue model: lists with search and filters, inlines on change pages."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from rules.models import (
    Equipment,
    Faction,
    GameSystem,
    SpecialRule,
    UnitTemplate,
    UpgradeOption,
    WeaponProfile,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    call_command("load_catalogue", verbosity=0)
    client.force_login(
        get_user_model().objects.create_superuser("admin", "admin@example.com", "pw-tests-only")
    )
    return client


@pytest.mark.parametrize(
    "model", [GameSystem, Faction, SpecialRule, WeaponProfile, UnitTemplate, UpgradeOption, Equipment]
)
def test_every_catalogue_model_has_a_searchable_changelist_and_change_page(admin_client, model):
    opts = model._meta
    changelist = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
    assert admin_client.get(changelist, {"q": "a"}).status_code == 200
    row = model.objects.first()
    assert (
        admin_client.get(
            reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[row.pk])
        ).status_code
        == 200
    )


def test_a_unit_edits_its_options_inline_and_a_system_its_rules(admin_client):
    unit = UnitTemplate.objects.get(slug="concord-wardens")
    html = admin_client.get(reverse("admin:rules_unittemplate_change", args=[unit.pk])).content.decode()
    assert "options-0-key" in html and "Pyre Thrower" in html
    system = GameSystem.objects.get(key="opr")
    html = admin_client.get(reverse("admin:rules_gamesystem_change", args=[system.pk])).content.decode()
    assert "special_rules-0-name" in html
