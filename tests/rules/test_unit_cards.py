"""Unit cards of imported units: their abilities as text, and whether they have a profile."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories.aos_units import aos_catalogue_unit, aos_faction, imported_warscroll

pytestmark = pytest.mark.django_db


def test_an_imported_unit_without_a_profile_shows_its_abilities_and_says_it_cannot_be_estimated(client):
    """AoS warscrolls the BattleScribe data gives no profile import with their rules text."""
    faction = aos_faction()
    skulkers = aos_catalogue_unit(faction, imported_warscroll("Skulkers", profile=False))
    raiders = aos_catalogue_unit(faction, imported_warscroll("Raiders"))

    html = client.get(reverse("rules:unit", args=["aos1", faction.slug, skulkers.slug])).content.decode()
    other = client.get(reverse("rules:unit", args=["aos1", faction.slug, raiders.slug])).content.decode()

    assert (
        "Its catalogue gives this unit no profile: it is listed and priced, but it cannot be estimated."
        in html
    )
    assert "profile-missing" not in other
    for page in (html, other):
        assert "<summary>1 ability</summary>" in page
        assert "<dt>Lurking</dt><dd>Skulkers can run and shoot in the same turn.</dd>" in page


def test_a_word_a_characteristic_holds_is_printed_in_the_readers_language():
    """A fantasy weapon's strength "user" (the wielder's own) read "user" on a Polish roster."""
    from django.utils import translation

    from rules.unit_cards import Column, cell

    strength = Column("strength", "S", "Strength", False)
    assert cell("user", strength) == "user"
    with translation.override("pl"):
        assert cell("user", strength) == "jak użytk."
        assert cell("+1", strength) == "+1"
    with translation.override("ru"):
        assert cell("user", strength) == "как у нос."
