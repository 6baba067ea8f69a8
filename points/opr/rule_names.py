"""The rule vocabulary of the OPR-style system: canonical English names, Polish aliases.

The project uses the English names everywhere (code, API, UI); the Polish names of
`docs/rules/opr-points.md` (and the seed's own spellings, typos included) are accepted on
input so that data written in Polish imports. Lookup is case-insensitive and tolerates
missing diacritics, spaces, hyphens and underscores: "lock on", "LOCK-ON" and "Lock-On" are
one rule, "Zracy" is "Żrący" (Corrosive).

Official OPR ("old OPR") names are a separate table in `old_opr.py`, merged into the same
lookup.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import Literal

from points.opr import tables

RuleLevel = Literal["model", "weapon"]


@dataclass(frozen=True, slots=True)
class RuleSpec:
    """What the parser needs to know about one rule name."""

    name: str
    level: RuleLevel
    #: (min, max) of X for a rule written `Name(X)`; None for a rule without a value.
    value_range: tuple[int, int] | None = None
    aliases: tuple[str, ...] = ()

    @property
    def takes_value(self) -> bool:
        return self.value_range is not None


#: Upper bound for X values, so that absurd input is an error, not a huge computation.
MAX_RULE_VALUE = 100

_M: RuleLevel = "model"
_W: RuleLevel = "weapon"

#: Every rule of docs/rules/opr-points.md, with the Polish aliases of the spec and of the seed.
RULES: tuple[RuleSpec, ...] = (
    # §2 quality
    RuleSpec("Fearless", _M, aliases=("Nieustraszony", "Nieustraszone")),
    RuleSpec("Reckless", _M, aliases=("Straceńcy", "Straceniec")),
    # §3 defence
    RuleSpec("Delicate", _M, aliases=("Delikatny",)),
    RuleSpec("Resistant", _M, aliases=("Niewrażliwy",)),
    RuleSpec("Regeneration", _M, aliases=("Regeneracja",)),
    RuleSpec("Spearhead", _M, aliases=("Szpica",)),
    # §4 toughness
    RuleSpec("Massive", _M, aliases=("Masywny",)),
    # §5 model rules that change its weapons
    RuleSpec("Furious", _M, aliases=("Furia",)),
    RuleSpec("Relentless", _M, aliases=("Nieustępliwy", "Przygotowanie")),
    RuleSpec("Good Shot", _M, aliases=("Dobrze strzela",)),
    RuleSpec("Bad Shot", _M, aliases=("Źle strzela",)),
    RuleSpec("Cautious", _M, aliases=("Ostrożny",)),
    RuleSpec("Vengeance", _M, aliases=("Zemsta",)),
    # §5 weapon rules
    RuleSpec("Rending", _W, aliases=("Rozrywający",)),
    RuleSpec("Lance", _W, aliases=("Impet",)),
    RuleSpec("Lock-On", _W, aliases=("Namierzanie",)),
    RuleSpec("Reliable", _W, aliases=("Niezawodny",)),
    RuleSpec("No Cover", _W, aliases=("Bez osłon", "Bez ostłon")),
    RuleSpec("Corrosive", _W, aliases=("Żrący",)),
    RuleSpec("Blast", _W, (1, MAX_RULE_VALUE), aliases=("Rozprysk",)),
    RuleSpec("Deadly", _W, (1, MAX_RULE_VALUE), aliases=("Zabójczy",)),
    RuleSpec("Indirect", _W, aliases=("Niebezpośredni",)),
    RuleSpec("Limited", _W, aliases=("Zużywalny",)),
    RuleSpec("Overcharge", _W, aliases=("Podkręcenie",)),
    RuleSpec("Precise", _W, aliases=("Precyzyjny",)),
    RuleSpec("Assault", _W, aliases=("Szturmowa",)),
    RuleSpec("Brutal", _W, aliases=("Brutalny", "Bez regeneracji")),
    # §6 abilities priced per toughness
    RuleSpec("Ambush", _M, aliases=("Zasadzka",)),
    RuleSpec("Scout", _M, aliases=("Zwiadowca",)),
    RuleSpec("Fast", _M, aliases=("Szybki",)),
    RuleSpec("Slow", _M, aliases=("Wolny",)),
    RuleSpec("Skirmisher", _M, aliases=("Harcownik",)),
    RuleSpec("Immobile", _M, aliases=("Nieruchomy",)),
    RuleSpec("Agile", _M, aliases=("Zwinny",)),
    RuleSpec("Clumsy", _M, aliases=("Niezgrabny", "Niegrabny")),
    RuleSpec("Flying", _M, aliases=("Latający",)),
    RuleSpec("Aircraft", _M, aliases=("Samolot",)),
    RuleSpec("Counter", _M, aliases=("Kontra",)),
    RuleSpec("Stealth", _M, aliases=("Maskowanie",)),
    RuleSpec("Entrenched", _M, aliases=("Okopany",)),
    RuleSpec("Shield", _M, aliases=("Tarcza",)),
    RuleSpec("Guardian", _M, aliases=("Strażnik",)),
    RuleSpec("Instinct", _M, aliases=("Instynkt",)),
    # §6 other abilities
    RuleSpec("Hero", _M, aliases=("Bohater",)),
    RuleSpec("Transport", _M, (1, MAX_RULE_VALUE)),
    RuleSpec("Fear", _M, (1, MAX_RULE_VALUE), aliases=("Strach",)),
    RuleSpec("Caster", _M, (1, tables.CASTER_MAX_X), aliases=("Mag",)),
    RuleSpec("Relay", _M, aliases=("Przekaźnik", "Przekątnik")),
    RuleSpec("Mending", _M, aliases=("Łatanie",)),
    RuleSpec("Radio", _M),
)

BY_NAME: dict[str, RuleSpec] = {spec.name: spec for spec in RULES}

#: Names that are not rules of a model's `rules` list but are still understood on input:
#: `AP(X)` on a weapon is its `ap` field, `Order(X)`/`Rozkaz(X)` a model's order (§6).
AP_NAME = "AP"
ORDER_NAME = "Order"
ORDER_ALIASES = ("Rozkaz",)

#: Where an ability can be granted by an aura or an order (non-"–" cells of §6's table).
AURA_GRANTABLE = tuple(name for name, row in tables.ABILITY_TABLE.items() if row.aura is not None)
ORDER_GRANTABLE = tuple(name for name, row in tables.ABILITY_TABLE.items() if row.order is not None)


def normalise(name: str) -> str:
    """The lookup key of a rule name: lower case, no diacritics, no spaces/hyphens/underscores."""
    decomposed = unicodedata.normalize("NFKD", name.strip().casefold())
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    stripped = stripped.replace("ł", "l").replace("ß", "ss")  # not decomposable by NFKD
    return "".join(ch for ch in stripped if ch.isalnum())


def _build_lookup() -> dict[str, str]:
    from points.opr.old_opr import OLD_OPR_NAMES

    lookup: dict[str, str] = {}
    for spec in RULES:
        for written in (spec.name, *spec.aliases):
            lookup[normalise(written)] = spec.name
    for official, canonical in OLD_OPR_NAMES.items():
        lookup.setdefault(normalise(official), canonical)
    return lookup


@cache
def _lookup() -> dict[str, str]:
    """The table of the fixed vocabulary (never of an input), built once per process."""
    return _build_lookup()


#: The canonical name of each name and alias written exactly as `RULES` writes it, made at import
#: (a dict of some hundred entries, nothing normalised): most rules are written so, and
#: `canonical_name` then needs neither `normalise` nor the table `_lookup` builds on first use.
_AS_WRITTEN: dict[str, str] = {written: spec.name for spec in RULES for written in (spec.name, *spec.aliases)}


def canonical_name(written: str) -> str | None:
    """The canonical English name for a rule as written (English, Polish or old OPR), or None."""
    found = _AS_WRITTEN.get(written)
    if found is not None:
        return found
    key = normalise(written)
    return _lookup().get(key)


#: The lookup keys of the names read specially, normalised once instead of on every rule read.
_AP_KEY = normalise(AP_NAME)
_ORDER_KEYS = frozenset(normalise(name) for name in (ORDER_NAME, *ORDER_ALIASES))


def is_ap(written: str) -> bool:
    return normalise(written) == _AP_KEY


def is_order(written: str) -> bool:
    return normalise(written) in _ORDER_KEYS


def is_tough(written: str) -> bool:
    """Old OPR's `Tough(X)`: the model's toughness, written as a rule (see old_opr.py)."""
    return normalise(written) == _tough_key()


@cache
def _tough_key() -> str:
    """`Tough`'s lookup key, read on first use (as `_build_lookup` reads `old_opr`)."""
    from points.opr.old_opr import TOUGH_NAME

    return normalise(TOUGH_NAME)
