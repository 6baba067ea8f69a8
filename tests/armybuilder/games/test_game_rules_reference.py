"""The rules reference of a game (`armybuilder/games/rules_reference.py`): every special rule,
ability and item the two armies use, with its text from the catalogue or the unit's own data."""

from __future__ import annotations

import pytest

from armybuilder.estimates.sources import list_source
from armybuilder.games import services
from armybuilder.games.rules_reference import game_rules_reference, rules_reference
from rules.models import SpecialRule
from rules.selectors import rule_base_name
from tests.armybuilder.games.test_game_pages import signed_in


@pytest.mark.parametrize("system", ["opr", "whfb6", "wh40k9", "aos1", "ru_whfb"])
def test_every_rule_the_armies_use_is_listed_with_its_text(examples, player, system):
    source = list_source(user=player, list_id=examples[system].pk)
    game = services.game_start(user=player, first=source, second=source)
    sections: dict[str, list] = {}
    for phase in game_rules_reference(game=game):
        for group in phase["kinds"]:
            sections.setdefault(group["kind"], []).extend(group["entries"])
    written = {
        rule_base_name(str(r))
        for army in game.armies
        for u in army["units"]
        for m in u["unit"]["models"]
        for r in [*(m.get("rules") or []), *(r for w in m.get("weapons") or [] for r in w.get("rules") or [])]
    }
    listed = {e["name"] for e in sections.get("rules", [])}
    assert {n.casefold() for n in listed} == {n.casefold() for n in written}
    known = dict(SpecialRule.objects.filter(system__key=system).values_list("name", "text"))
    for entry in sections.get("rules", []):
        if entry["name"] in known and known[entry["name"]]:
            assert entry["text"] == known[entry["name"]]
        assert entry["units"]
    assert sections, system


def test_the_page_lists_the_rules_and_is_printable(examples, player):
    client = signed_in(player)
    client.post("/games/new/", {"first_list": examples["opr"].pk, "second_list": examples["opr"].pk})
    from armybuilder.games.models import Game

    game = Game.objects.get(owner=player)
    page = client.get(f"/games/{game.pk}/rules/").content.decode()
    entries = game_rules_reference(game=game)
    assert page.count("<dt") == sum(len(g["entries"]) for s in entries for g in s["kinds"]) > 0
    assert "Print this page" in page


def test_rules_are_grouped_by_the_phase_their_text_names(examples):
    """40k 9th (the system's play declaration): Rapid Fire ("within half its range") matters in
    the Shooting phase, Devastating Charge ("makes a charge move") in the Charge phase, an
    imported ability that speaks of the Fight phase there, and Aura, whose text names no
    phase, in any phase; each entry is listed once."""
    from tests.factories.wh40k_units import wh40k_gun, wh40k_model, wh40k_unit

    gun = {**wh40k_gun(), "abilities": [], "rules": ["Rapid Fire"]}
    unit = wh40k_unit(
        wh40k_model("Trooper", count=5, weapons=[gun], rules=["Devastating Charge", "Aura"]),
        name="Squad",
        abilities=[{"name": "Blade Dance", "text": "In the Fight phase, re-roll hit rolls of 1."}],
    )
    sections = rules_reference(system_key="wh40k9", units=[("Squad", unit)])
    placed = {
        entry["name"]: section["phase"]
        for section in sections
        for group in section["kinds"]
        for entry in group["entries"]
    }
    assert placed == {"Rapid Fire": "shooting", "Devastating Charge": "charge", "Blade Dance": "fight",
                      "Aura": ""}
    assert [s["phase"] for s in sections] == ["shooting", "charge", "fight", ""]
    assert sections[-1]["title"] == "Any phase"
    assert [g["kind"] for g in sections[1]["kinds"]] == ["rules"]
    assert [g["kind"] for g in sections[2]["kinds"]] == ["abilities"]
