"""Rule names: the English names of docs/rules/opr-points.md everywhere, the Polish ones accepted as
aliases."""

import re
from pathlib import Path

import pytest

from points.opr import tables
from points.opr.rule_names import BY_NAME, RULES, canonical_name, normalise

SPEC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "opr-points.md"

#: Every "English (Polish)" pair written in docs/rules/opr-points.md.
SPEC_ALIASES = {
    "Nieustraszony": "Fearless",
    "Straceńcy": "Reckless",
    "Delikatny": "Delicate",
    "Niewrażliwy": "Resistant",
    "Regeneracja": "Regeneration",
    "Szpica": "Spearhead",
    "Masywny": "Massive",
    "Ostrożny": "Cautious",
    "Rozrywający": "Rending",
    "Furia": "Furious",
    "Przygotowanie": "Relentless",
    "Nieustępliwy": "Relentless",
    "Impet": "Lance",
    "Namierzanie": "Lock-On",
    "Niezawodny": "Reliable",
    "Dobrze strzela": "Good Shot",
    "Źle strzela": "Bad Shot",
    "Bez osłon": "No Cover",
    "Żrący": "Corrosive",
    "Rozprysk": "Blast",
    "Zabójczy": "Deadly",
    "Niebezpośredni": "Indirect",
    "Zużywalny": "Limited",
    "Podkręcenie": "Overcharge",
    "Zemsta": "Vengeance",
    "Precyzyjny": "Precise",
    "Szturmowa": "Assault",
    "Brutalny": "Brutal",
    "Bez regeneracji": "Brutal",
    "Zasadzka": "Ambush",
    "Zwiadowca": "Scout",
    "Szybki": "Fast",
    "Wolny": "Slow",
    "Harcownik": "Skirmisher",
    "Nieruchomy": "Immobile",
    "Zwinny": "Agile",
    "Niezgrabny": "Clumsy",
    "Latający": "Flying",
    "Samolot": "Aircraft",
    "Kontra": "Counter",
    "Maskowanie": "Stealth",
    "Okopany": "Entrenched",
    "Tarcza": "Shield",
    "Strażnik": "Guardian",
    "Instynkt": "Instinct",
    "Bohater": "Hero",
    "Strach": "Fear",
    "Mag": "Caster",
    "Przekaźnik": "Relay",
    "Łatanie": "Mending",
    "Radio": "Radio",
    "Transport": "Transport",
}


@pytest.mark.parametrize(("polish", "english"), sorted(SPEC_ALIASES.items()))
def test_polish_alias_of_the_spec(polish, english):
    """docs/rules/opr-points.md: "the Polish name is kept as an alias so that data written in Polish
    imports"."""
    assert canonical_name(polish) == english
    assert canonical_name(polish.upper()) == english
    assert canonical_name(normalise(polish)) == english  # without diacritics


@pytest.mark.parametrize(
    "seed_spelling", ["Nieustraszone", "Niegrabny", "Bez ostłon", "Przekątnik", "Przekaznik"]
)
def test_seed_spellings_are_accepted(seed_spelling):
    """The seed's own spellings (table variants and typos) import too."""
    assert canonical_name(seed_spelling) is not None


def test_every_polish_pair_of_the_spec_is_known():
    """Every "English (Polish)" pair of the spec is in the alias table.

    The pairs are kept here (`SPEC_ALIASES`), and the bold "**English** (Polish)" pairs that
    `docs/rules/opr-points.md` writes must be among them, so a pair added to the document
    without an alias fails.
    """
    pairs = [(english, polish) for polish, english in SPEC_ALIASES.items()]
    written = re.findall(r"\*\*([A-Z][\w-]+)\*\*\s+\(([^)]+)\)", SPEC.read_text(encoding="utf-8"))
    assert len(written) > 40
    assert {(e, p.split("/")[0]) for e, p in written} <= set(pairs)
    for english, polish in pairs:
        assert canonical_name(polish) == english


def test_every_priced_rule_has_a_name():
    """Every rule the tables price is a known rule name (no table row without a parser entry)."""
    priced = (
        set(tables.ABILITY_TABLE)
        | set(tables.DEFENCE_ROWS)
        | set(tables.HIT_CHANCE_TERMS)
        | set(tables.AP_ROWS)
        | set(tables.WEAPON_MULTIPLIERS)
        | set(tables.MODEL_WEAPON_MULTIPLIERS)
        | set(tables.X_MULTIPLIER_POINTS)
        | set(tables.FLAT_ABILITY_COSTS)
        | set(tables.MORALE_MULTIPLIER_RULES)
    )
    assert priced <= set(BY_NAME)


def test_normalise():
    """Lookup keys ignore case, diacritics (ł included), spaces, hyphens, underscores."""
    assert normalise("Łatanie") == "latanie"
    assert normalise(" Lock-On ") == normalise("lock_on") == "lockon"


def test_names_are_unique():
    """No two rules share a canonical name."""
    assert len({r.name for r in RULES}) == len(RULES)
