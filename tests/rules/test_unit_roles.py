"""A foreign army book's category names say a unit's role (`rules.unit_roles`)."""

from rules.unit_roles import ROLES, role_named_by


def test_category_words_name_the_catalogue_roles():
    assert role_named_by("HQ") == "hero"
    assert role_named_by("Characters") == "hero"
    assert role_named_by("Core Units") == "infantry"
    assert role_named_by("War Machines") == "artillery"
    assert role_named_by("Heavy Support") == "vehicle"


def test_a_category_of_no_known_word_is_other():
    assert role_named_by("Dedicated Transport") == "transport"
    assert role_named_by("Allies") == "other"
    assert {role_named_by(c) for c in ("HQ", "Troops", "Allies")} <= set(ROLES)
