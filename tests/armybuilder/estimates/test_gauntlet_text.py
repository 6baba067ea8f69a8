"""The gauntlet's figures in words (`armybuilder.estimates.gauntlet_text`): one sentence per
figure of a unit, the system's own wording for its chances, and numbers a player can read."""

from __future__ import annotations

from django.utils import translation

from armybuilder.estimates.gauntlet_text import figure_rows, number, percent, unit_sentences
from rules.systems.registry import get_system


def row(**changes):
    return {"name": "Wardens", "points": 140.0, "offence_per_point": 0.4213, "durability_per_point": 3.06,
            "best_target": "Horde", "worst_target": "Tank",
            "combat_chances": [{"key": "p_win_combat", "label": "Wins the combat", "side": "attacking",
                                "value": 0.456},
                               {"key": "p_attacker_breaks", "label": "Breaks", "side": "attacking",
                                "value": 0.004}], **changes}


def test_every_figure_of_a_unit_is_one_sentence_in_the_systems_words():
    """The issue's example, then durability, then each declared chance."""
    sentences = unit_sentences(row(), system=get_system("whfb6"), per_model=False)
    assert sentences == [
        "Against the gauntlet, Wardens destroys 0.42 enemy points a turn for every point it costs; "
        "best against Horde, worst against Tank.",
        "To destroy Wardens in a turn, the gauntlet's units need 3.1 of their points for every point it "
        "costs; higher is tougher.",
        "In combat with the gauntlet's units, Wardens wins the combat 46% of the time.",
        "In combat with the gauntlet's units, Wardens breaks or is destroyed <1% of the time.",
    ]


def test_per_wound_figures_and_an_untouchable_unit_are_said_plainly():
    figures = row(durability_per_point=None, offence_per_wound=0.25, durability_per_wound=None,
                  combat_chances=[{"key": "p_holds", "label": "Holds", "side": "attacked", "value": 1.0}])
    sentences = unit_sentences(figures, system=get_system("aos1"), per_model=True)
    assert sentences[0].startswith("Against the gauntlet, Wardens slays 0.42 enemy models a turn for every "
                                   "model in it;")
    assert sentences[1] == "The gauntlet's attacks destroy none of Wardens in a turn."
    assert sentences[2] == ("Per wound, Wardens inflicts 0.25 wounds a turn for each wound of its own, "
                            "and the gauntlet's attacks take none of its wounds.")
    assert sentences[3].startswith("Attacked by the gauntlet's melee units, Wardens holds 100% of the time")


def test_sentences_and_labels_are_translated():
    with translation.override("pl"):
        shown = figure_rows([row()], system=get_system("whfb6"), per_model=False)[0]
    assert shown["chances"][0]["label"] == "Wygrywa walkę"
    assert shown["sentences"][2] == "W walce z oddziałami sprawdzianu Wardens wygrywa walkę w 46% przypadków."


def test_bars_are_against_the_lists_best_and_huge_figures_read_as_more_than():
    shown = figure_rows([row(durability_per_point=1.4e9), row(name="Rabble", offence_per_point=0.2,
                                                              durability_per_point=499.5)],
                        system=get_system("whfb6"), per_model=False)
    assert [r["offence_per_point_bar"] for r in shown] == [100, 47]
    assert [r["durability_per_point_bar"] for r in shown] == [100, 50]
    assert [r["durability_per_point_text"] for r in shown] == [">999", "499.5"]
    # What ">999" means is said, for that unit only (issue 43, item 5).
    assert shown[0]["sentences"][2] == (
        "“>999” means more than 999: the gauntlet's attacks hardly harm Wardens in a turn (a lone "
        "character, or a unit they can barely wound), so the figure says only that it is very hard to "
        "destroy.")
    assert not any("means more than" in sentence for sentence in shown[1]["sentences"])
    assert number(None, 1) == "—" and percent(0.9999) == ">99%" and percent(0.0) == "0%"
