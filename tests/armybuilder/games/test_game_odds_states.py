"""A unit's marked state changes the odds of its fight as the rules say (issue 44): the states
a system declares (`GameSystem.play`) set fields of its situation schema, and the odds of a
game as it stands are the estimate under that situation."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from armybuilder.estimates.sources import ListSource
from armybuilder.games import services
from tests.factories.opr_documents import opr_unit
from tests.factories.wh40k_units import wh40k_gun, wh40k_model, wh40k_unit

CLAWS = {"name": "Claws", "range": 0, "attacks": 1, "ap": 0, "rules": []}


def game_of(player: Any, system: str, first: dict[str, Any], second: dict[str, Any]) -> Any:
    def source(unit: dict[str, Any], name: str) -> ListSource:
        return ListSource(key="", label=name, system_key=system, name=name, units=[(unit["name"], unit)])

    return services.game_start(user=player, first=source(first, "Mine"), second=source(second, "Theirs"))


def mark(game: Any, side: int, state: str) -> Any:
    action = {"op": "state", "side": side, "unit": 0, "state": state, "on": True}
    game, _ = services.game_act(game=game, action=action)
    return game


def figure(direction: dict[str, Any], key: str) -> float:
    found = next(o for o in direction["result"]["outcomes"] if o["key"] == key)
    return found.get("expected", found["value"])


def test_a_shaken_opr_defender_does_not_strike_back_and_cannot_attack(player):
    """Seed 002, "Wyczerpana": an exhausted (shaken) unit cannot attack. One Q4 D4 model with one
    melee attack on another: a kill is 1/2 · 1/2 = 1/4. Steady, the survivor strikes back (a kill
    on the charger 3/4 · 1/4 = 3/16; the charger wins the melee unless it dealt nothing and took a
    wound: 1 − 3/16 = 13/16). Shaken, nothing strikes back: the charger always wins, takes no
    wound; and the shaken unit is not offered as an attacker."""
    game = game_of(
        player,
        "opr",
        opr_unit("Brawler", count=1, weapons=[CLAWS]),
        opr_unit("Target", count=1, weapons=[CLAWS]),
    )
    steady = services.game_odds(game=game, user=player, attacker=[0, 0], defender=[1, 0], mode="melee")
    forward = steady["directions"][0]
    assert forward["situation"]["defender_exhausted"] is False
    assert forward["summary"]["expected_kills"] == pytest.approx(0.25, abs=1e-12)
    assert figure(forward, "counter_kills") == pytest.approx(float(Fraction(3, 16)), abs=1e-12)
    assert figure(forward, "p_attacker_wins_melee") == pytest.approx(float(Fraction(13, 16)), abs=1e-12)
    assert steady["directions"][1]["status"] == "done"

    game = mark(game, 1, "shaken")
    shaken = services.game_odds(game=game, user=player, attacker=[0, 0], defender=[1, 0], mode="melee")
    forward, back = shaken["directions"]
    assert forward["situation"]["defender_exhausted"] is True
    assert forward["summary"]["expected_kills"] == pytest.approx(0.25, abs=1e-12)
    assert figure(forward, "counter_kills") == 0.0
    assert figure(forward, "p_defender_counter_exhausted") == 0.0
    assert figure(forward, "p_attacker_wins_melee") == pytest.approx(1.0, abs=1e-12)
    assert back["status"] == "refused" and "Shaken" in back["reason"]
    assert game.actions[-1]["figures"][0]["situation"]["defender_exhausted"] is True


def test_an_opr_unit_that_charged_fights_charging_in_melee_only(player):
    """The "charged" mark sets the attacker's `charging` in melee; shooting is asked without it
    (a charge is a melee attack, so the mark must not make the shot a refused charge)."""
    game = game_of(player, "opr", opr_unit("A", count=2, weapons=[CLAWS]), opr_unit("B", count=2))
    game = mark(game, 0, "charged")
    melee = services.game_odds(game=game, user=player, attacker=[0, 0], defender=[1, 0], mode="melee")
    assert melee["directions"][0]["situation"]["charging"] is True
    assert melee["directions"][1]["situation"]["charging"] is False  # the mark is the attacker's own
    shooting = services.game_odds(game=game, user=player, attacker=[1, 0], defender=[0, 0], mode="shooting")
    assert [d["status"] for d in shooting["directions"]] == ["done", "done"]
    assert shooting["directions"][1]["situation"]["charging"] is False


def test_a_40k_unit_below_half_strength_loses_more_models_to_combat_attrition(player):
    """`docs/rules/wh40k9.md` §8.7: one BS3+ S4 AP0 shot at T4 Sv3+ kills with 2/3 · 1/2 · 1/3 = 1/9; a lost
    model makes the Morale test (D6 + 1 > Ld 6: a 6, 1/6); on a failure one flees and the other
    two roll Combat Attrition, fleeing on a 1 (2 of 4 starting models are not below half) — or on
    1–2 when the unit is marked below Half-strength. Expected fled: 1/9 · 1/6 · (1 + 2/6) = 2/81,
    and below half 1/9 · 1/6 · (1 + 2/3) = 5/162."""
    shooter = wh40k_unit(wh40k_model("Shooter", weapons=[wh40k_gun()]), name="Shooter")
    squad = wh40k_unit(wh40k_model("Trooper", count=4, ld=6), name="Squad")
    game = game_of(player, "wh40k9", shooter, squad)
    game, _ = services.game_act(game=game, action={"op": "phase", "value": "shooting"})

    def fled() -> tuple[float, dict[str, Any]]:
        answer = services.game_odds(game=game, user=player, attacker=[0, 0], defender=[1, 0])
        forward = answer["directions"][0]
        assert forward["summary"]["expected_kills"] == pytest.approx(1 / 9, abs=1e-12)
        return figure(forward, "models_fled"), forward["situation"]

    whole, situation = fled()
    assert situation["defender_below_half"] is False
    assert whole == pytest.approx(float(Fraction(2, 81)), abs=1e-12)
    game = mark(game, 1, "below_half")
    below, situation = fled()
    assert situation["defender_below_half"] is True
    assert below == pytest.approx(float(Fraction(5, 162)), abs=1e-12)
