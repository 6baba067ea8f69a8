"""`manage.py gauntlet` (`armybuilder.estimates.gauntlet`): every matchup it reports is exactly
what `manage.py estimate` gives for the same two units and situation, and the per-unit and
per-opponent figures are the weighted sums of those matchups."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import translation

from rules.systems.registry import all_systems, get_system

SYSTEMS = [system.key for system in all_systems() if system.can_attack]


def list_file(tmp_path: Path, system_key: str, name: str, units: list[dict]) -> Path:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({"format": 1, "system": system_key, "name": name, "points_limit": 5000,
                                "units": [{"unit": unit, "count": 1} for unit in units]}), encoding="utf-8")
    return path


def run(command: str, *args: str) -> dict:
    out = io.StringIO()
    call_command(command, *args, stdout=out)
    return json.loads(out.getvalue())


def estimate(tmp_path: Path, attacker: dict, defender: dict, situation: dict) -> dict:
    a, d = tmp_path / "a.json", tmp_path / "d.json"
    a.write_text(json.dumps(attacker), encoding="utf-8")
    d.write_text(json.dumps(defender), encoding="utf-8")
    flags = [f"--situation={name}={json.dumps(value)}" for name, value in situation.items()]
    return run("estimate", str(a), str(d), *flags)


@pytest.mark.parametrize("system_key", SYSTEMS)
def test_each_matchup_equals_the_estimate_command(system_key, tmp_path):
    system = get_system(system_key)
    targets = list(system.reference_targets.values())
    mine = targets[:2]
    report = run("gauntlet", str(list_file(tmp_path, system_key, "Mine", mine)), "--json")
    by_name = {unit["name"]: unit for unit in targets}
    assert [row["name"] for row in report["units"]] == [unit["name"] for unit in mine]
    assert report["opponents"][0]["name"] == "Reference targets"
    assert len(report["matchups"]) == 2 * 2 * len(mine) * len(targets)
    for matchup in report["matchups"][::7]:  # a spread of pairs and modes, both directions
        expected = estimate(tmp_path, by_name[matchup["attacker"]], by_name[matchup["defender"]],
                            matchup["situation"])
        # the engine may add fields it derives
        assert expected["situation"].items() >= matchup["situation"].items()
        assert matchup["expected_kills"] == expected["expected"]["kills"]
        assert matchup["expected_points_destroyed"] == float(expected.get("expected_points_destroyed") or 0.0)


def test_unit_and_opponent_figures_are_the_weighted_sums_of_the_matchups(tmp_path):
    """OPR: offence per point is the worth-weighted mean over the opponent's units of the
    better mode's points destroyed per own point; the opponent trade spreads each unit's
    attacks over the other side by worth."""
    system = get_system("opr")
    targets = list(system.reference_targets.values())
    mine, theirs = targets[:2], targets[2:5]
    report = run("gauntlet", str(list_file(tmp_path, "opr", "Mine", mine)),
                 str(list_file(tmp_path, "opr", "Theirs", theirs)), "--json")
    points = {unit["name"]: float(system.price(unit)["points"]) for unit in targets}
    table = {}
    for m in report["matchups"]:
        key = (m["attacker"], m["defender"])
        table[key] = max(table.get(key, 0.0), m["expected_points_destroyed"])
    weight = sum(points[t["name"]] for t in theirs)
    for row, unit in zip(report["units"], mine, strict=True):
        own = points[unit["name"]]
        offence = sum(points[t["name"]] * table[unit["name"], t["name"]] / own for t in theirs) / weight
        assert row["offence_per_point"] == pytest.approx(offence, rel=1e-12)
        shares = sum(table[t["name"], unit["name"]] / own for t in theirs)
        assert row["durability_per_point"] == pytest.approx(weight / shares / own, rel=1e-12)
        ratios = {t["name"]: table[unit["name"], t["name"]] / own for t in theirs}
        assert row["best_target"] == max(ratios, key=ratios.get)
        assert row["worst_target"] == min(ratios, key=ratios.get)
    opponent = report["opponents"][0]
    own_weight = sum(points[u["name"]] for u in mine)
    dealt = sum(points[t["name"]] / weight * table[u["name"], t["name"]] for u in mine for t in theirs)
    lost = sum(points[u["name"]] / own_weight * table[t["name"], u["name"]] for u in mine for t in theirs)
    assert opponent["points_destroyed_per_turn"] == pytest.approx(dealt, rel=1e-12)
    assert opponent["points_lost_per_turn"] == pytest.approx(lost, rel=1e-12)
    assert opponent["ahead_by"] == pytest.approx(dealt - lost, rel=1e-12)


def test_a_system_without_points_counts_models(tmp_path):
    system = get_system("aos1")
    assert not system.points_sized
    targets = list(system.reference_targets.values())
    report = run("gauntlet", str(list_file(tmp_path, "aos1", "Mine", targets[:1])), "--json")
    assert report["worth_unit"] == "models"
    assert report["units"][0]["points"] == sum(m["count"] for m in targets[0]["models"])


def test_bad_input_names_the_file_and_field(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"system": "opr", "name": "x", "units": [{"unit": {"name": "?"}}]}))
    with pytest.raises(SystemExit) as exited:
        call_command("gauntlet", str(bad))
    assert exited.value.code == 2
    errors = json.loads(capsys.readouterr().err)["errors"]
    assert errors and all(e["path"].startswith("list.units[0].unit") for e in errors)


def test_fantasy_units_report_their_chances_in_combat(tmp_path):
    """WHFB 6th: the chance to win the combat and to break, averaged over the gauntlet's units by
    their worth (points: the reference targets carry ours, issue 43)."""
    from armybuilder.estimates.gauntlet import unit_worth
    from armybuilder.estimates.inputs import situation_clean

    system = get_system("whfb6")
    targets = list(system.reference_targets.values())
    report = run("gauntlet", str(list_file(tmp_path, "whfb6", "Mine", targets[:1])), "--json")
    assert report["worth_unit"] == "points"
    chances = {row["key"]: row["value"] for row in report["units"][0]["melee_chances"]}
    assert {"p_win_combat", "p_attacker_breaks"} <= set(chances)
    melee = situation_clean({"mode": "melee"}, system=system)
    weights = [unit_worth(system, target) for target in targets]
    assert weights == [120.0, 140.0, 130.0, 160.0, 300.0]
    wins = [next(o["value"] for o in system.attack(targets[0], target, melee)["outcomes"]
                 if o["key"] == "p_win_combat") for target in targets]
    expected = sum(w * p for w, p in zip(weights, wins, strict=True)) / sum(weights)
    assert chances["p_win_combat"] == pytest.approx(expected, rel=1e-12)


def _outcome(result: dict, key: str) -> float | None:
    return next((o["value"] for o in result.get("outcomes") or () if o["key"] == key), None)


@pytest.mark.parametrize("system_key", SYSTEMS)
def test_each_unit_reports_the_chances_its_system_declares(system_key, tmp_path):
    """`GameSystem.combat_chances`: each declared chance, from the unit's own melee attacks
    ("attacking") or the gauntlet's on it ("attacked"), averaged over the gauntlet's units that
    report it, weighted by their worth (models or points, as the report counts)."""
    from armybuilder.estimates.gauntlet import model_count, unit_worth
    from armybuilder.estimates.inputs import situation_clean

    system = get_system(system_key)
    assert system.combat_chances, "every system with an attack declares what its fights report"
    targets = list(system.reference_targets.values())
    report = run("gauntlet", str(list_file(tmp_path, system_key, "Mine", targets[:1])), "--json")
    melee = situation_clean({"mode": "melee"}, system=system)
    row = report["units"][0]
    assert [c["key"] for c in row["combat_chances"]] == [c.key for c in system.combat_chances]
    for shown, declared in zip(row["combat_chances"], system.combat_chances, strict=True):
        values, weights = [], []
        for target in targets:
            pair = (targets[0], target) if declared.side == "attacking" else (target, targets[0])
            value = _outcome(system.attack(*pair, melee), declared.key)
            if value is not None:
                values.append(value)
                weights.append(unit_worth(system, target) if report["worth_unit"] == "points"
                               else model_count(target))
        expected = sum(w * v for w, v in zip(weights, values, strict=True)) / sum(weights)
        assert shown["side"] == declared.side and shown["label"] == declared.label
        assert shown["value"] == pytest.approx(expected, rel=1e-12)
        assert 0.0 <= shown["value"] <= 1.0


def test_a_system_counting_wounds_is_measured_per_wound_too(tmp_path):
    """AoS 1st has no points: besides per model, offence and durability per wound, from each
    matchup's expected damage (capped at the defender's wounds) and the units' wounds."""
    system = get_system("aos1")
    targets = list(system.reference_targets.values())
    mine, theirs = targets[1:3], targets
    report = run("gauntlet", str(list_file(tmp_path, "aos1", "Mine", mine)),
                 str(list_file(tmp_path, "aos1", "Theirs", theirs)), "--json")
    wounds = {t["name"]: float(system.unit_wounds(t)) for t in targets}
    assert wounds["Monster (1 × W12, 4+ save, Bravery 8)"] == 12.0
    table: dict[tuple[str, str], float] = {}
    for m in report["matchups"]:
        key = (m["attacker"], m["defender"])
        table[key] = max(table.get(key, 0.0), min(m["expected_damage"], wounds[m["defender"]]))
    weight = sum(wounds[t["name"]] for t in theirs)
    for row, unit in zip(report["units"], mine, strict=True):
        own = wounds[unit["name"]]
        assert row["wounds"] == own
        offence = sum(wounds[t["name"]] * table[unit["name"], t["name"]] / own for t in theirs) / weight
        assert row["offence_per_wound"] == pytest.approx(offence, rel=1e-12)
        shares = sum(table[t["name"], unit["name"]] / own for t in theirs)
        assert row["durability_per_wound"] == pytest.approx(weight / shares / own, rel=1e-12)
        assert row["offence_per_point"] > 0 and row["durability_per_point"] > 0  # per model, as before


def test_matchups_keep_their_fields_and_add_the_expected_damage(tmp_path):
    """`--json` stays compatible: fields are only added (the expected damage, equal to the
    estimate's), never renamed or dropped."""
    system = get_system("aos1")
    targets = list(system.reference_targets.values())
    report = run("gauntlet", str(list_file(tmp_path, "aos1", "Mine", targets[:1])), "--json")
    assert {"worth_unit", "units", "opponents", "matchups"} <= set(report)
    assert {"name", "points", "offence_per_point", "offence_by_mode", "durability_per_point", "best_target",
            "worst_target", "melee_chances"} <= set(report["units"][0])
    assert {"name", "points", "points_destroyed_per_turn", "points_lost_per_turn", "ahead_by"} <= set(
        report["opponents"][0])
    by_name = {unit["name"]: unit for unit in targets}
    for matchup in report["matchups"][:4]:
        assert {"attacker", "defender", "situation", "expected_kills", "expected_points_destroyed",
                "p_destroyed", "chances", "expected_damage"} <= set(matchup)
        expected = estimate(tmp_path, by_name[matchup["attacker"]], by_name[matchup["defender"]],
                            matchup["situation"])
        assert matchup["expected_damage"] == expected["expected"]["damage"]


REFERENCE_SET_IN = {"ru": "Эталонные цели", "pl": "Cele wzorcowe", "cs": "Referenční cíle"}


@pytest.mark.parametrize("language", ["ru", "pl", "cs"])
def test_the_reference_targets_are_named_in_the_language_asked(tmp_path, language):
    """As the pages name them: the reference set and each reference target in the reader's
    language and marked; the matchups keep the data's names, to be looked up by them."""
    targets = list(get_system("opr").reference_targets.values())
    mine = list_file(tmp_path, "opr", "Mine", [{**targets[0], "name": "Veterans"}])
    report = run("gauntlet", str(mine), f"--language={language}")
    with translation.override(language):
        translated = {translation.gettext(unit["name"]) for unit in targets}
    assert translated.isdisjoint(unit["name"] for unit in targets)  # each has a translation

    opponents = [(row["name"], row["reference"]) for row in report["opponents"]]
    assert opponents == [(REFERENCE_SET_IN[language], True)]
    row = report["units"][0]
    assert row["name"] == "Veterans"
    assert {row["best_target"], row["worst_target"]} <= translated
    assert row["best_target_reference"] and row["worst_target_reference"]
    met = {m["defender"] for m in report["matchups"] if m["attacker"] == "Veterans"}
    assert met == {t["name"] for t in targets}


def test_without_a_language_the_active_one_names_the_reference_targets(tmp_path):
    mine = list_file(tmp_path, "opr", "Mine", list(get_system("opr").reference_targets.values())[:1])
    with translation.override("ru"):
        assert run("gauntlet", str(mine))["opponents"][0]["name"] == REFERENCE_SET_IN["ru"]
    assert run("gauntlet", str(mine))["opponents"][0]["name"] == "Reference targets"


def test_an_opponent_list_is_named_as_written_in_any_language(tmp_path):
    targets = list(get_system("opr").reference_targets.values())
    mine = list_file(tmp_path, "opr", "Mine", targets[:1])
    theirs = list_file(tmp_path, "opr", "Reference targets", targets[1:3])
    report = run("gauntlet", str(mine), str(theirs), "--language=ru")
    assert [(row["name"], row["reference"]) for row in report["opponents"]] == [("Reference targets", False)]
    row = report["units"][0]
    assert {row["best_target"], row["worst_target"]} <= {t["name"] for t in targets[1:3]}
    assert not row["best_target_reference"]
