"""Reads of the catalogue (HackSoft "selectors"): who may see which factions and units.

Pages, the army-list builder and the REST API all ask these functions, so the one rule
"a homebrew faction is visible to its owner, and to everyone once it is shared" lives
here and nowhere else. Every function takes keyword-only arguments and returns a
queryset (or plain data built from one query), so callers can filter further and the
number of queries a page makes stays fixed.
"""

from __future__ import annotations

import re
import unicodedata

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, F, Prefetch, Q, QuerySet

from rules.models import Faction, GameSystem, SpecialRule, UnitTemplate, UpgradeOption

User = AbstractBaseUser | AnonymousUser

#: "Fear(2)" → "Fear": a rule written with its value, as units carry it.
_RULE_VALUE = re.compile(r"^\s*(?P<name>.*?)\s*\(\s*[^()]*\)\s*$")


def _visible(user: User) -> Q:
    """Bundled factions, shared homebrew, and the user's own homebrew."""
    condition = Q(owner__isnull=True) | Q(is_shared=True)
    if user.is_authenticated:
        condition |= Q(owner=user)
    return condition


def game_systems() -> QuerySet[GameSystem]:
    """Every game system, in display order."""
    return GameSystem.objects.order_by("position", "name")


def game_systems_with_faction_counts(*, user: User) -> QuerySet[GameSystem]:
    """Game systems with `faction_count`: how many of their factions `user` may see."""
    visible = Q(factions__owner__isnull=True) | Q(factions__is_shared=True)
    if user.is_authenticated:
        visible |= Q(factions__owner=user)
    return game_systems().annotate(faction_count=Count("factions", filter=visible, distinct=True))


def factions_visible_to(*, user: User) -> QuerySet[Faction]:
    """Factions `user` may read: bundled ones, shared homebrew, and their own homebrew."""
    return Faction.objects.filter(_visible(user))


def units_visible_to(*, user: User) -> QuerySet[UnitTemplate]:
    """Units of the factions `user` may read (see `factions_visible_to`)."""
    visible = Q(faction__owner__isnull=True) | Q(faction__is_shared=True)
    if user.is_authenticated:
        visible |= Q(faction__owner=user)
    return UnitTemplate.objects.filter(visible)


def units_editable_by(*, user: User) -> QuerySet[UnitTemplate]:
    """Units `user` may change: the ones in their own homebrew factions (none when anonymous)."""
    if not user.is_authenticated:
        return UnitTemplate.objects.none()
    return UnitTemplate.objects.filter(faction__owner=user)


def factions_of_system(*, user: User, system: GameSystem) -> QuerySet[Faction]:
    """The factions of one system that `user` may read, with `unit_count`: playable bundled
    factions first, then a rulebook's reference profiles, then homebrew."""
    return (
        factions_visible_to(user=user)
        .filter(system=system)
        .annotate(unit_count=Count("units"))
        .select_related("owner")
        .order_by(F("owner_id").asc(nulls_first=True), "is_reference", "name")
    )


def faction_for_page(*, user: User, system: GameSystem, slug: str) -> QuerySet[Faction]:
    """The faction a page shows (a queryset of at most one row to hand to `get_object_or_404`).

    A bundled faction wins over a homebrew one with the same slug.
    """
    return (
        factions_visible_to(user=user)
        .filter(system=system, slug=slug)
        .select_related("system", "owner")
        .order_by(F("owner_id").asc(nulls_first=True))[:1]
    )


def faction_units(*, faction: Faction) -> QuerySet[UnitTemplate]:
    """A faction's units in catalogue order, with their upgrade options prefetched."""
    return faction.units.order_by("position", "name").prefetch_related(
        Prefetch("options", queryset=UpgradeOption.objects.order_by("position", "key"))
    )


def homebrew_faction_of(*, user: User, system: GameSystem) -> Faction | None:
    """The user's homebrew faction in `system`, or None (anonymous users have none)."""
    if not user.is_authenticated:
        return None
    return Faction.objects.filter(system=system, owner=user).order_by("pk").first()


def rule_base_name(written: str) -> str:
    """The rule name without its value: "Fear(2)" → "Fear", "Fearless" → "Fearless"."""
    match = _RULE_VALUE.match(written)
    return match.group("name") if match else written.strip()


def rule_lookup_key(name: str) -> str:
    """How rule names are compared: case, diacritics, spaces, hyphens and punctuation ignored.

    "Lock-On", "lock on" and "LOCKON" are one rule, "Zracy" is "Żrący" — the leniency of
    the OPR engine's own name lookup (`points/opr/rule_names.py`), used for every system.
    """
    decomposed = unicodedata.normalize("NFKD", name.strip().casefold())
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).replace("ł", "l")
    return "".join(ch for ch in stripped if ch.isalnum())


def special_rules_by_name(*, system: GameSystem) -> dict[str, SpecialRule]:
    """The system's special rules keyed by every name they answer to (see `rule_lookup_key`).

    English name, source-language name and aliases all map to the rule, so a unit written
    with a Polish or Czech rule name still shows the right rules text. One query.
    """
    lookup: dict[str, SpecialRule] = {}
    for rule in SpecialRule.objects.filter(system=system).select_related("system"):
        for name in (rule.name, rule.source_name, *(rule.aliases or [])):
            if name:
                lookup.setdefault(rule_lookup_key(str(name)), rule)
    return lookup


def special_rule_for(written: str, rules: dict[str, SpecialRule]) -> SpecialRule | None:
    """The rule `written` ("Fear(2)", "Strach") refers to, from `special_rules_by_name` output."""
    return rules.get(rule_lookup_key(written)) or rules.get(rule_lookup_key(rule_base_name(written)))


def special_rules_of(*, system: GameSystem, scope: str | None = None) -> QuerySet[SpecialRule]:
    """The system's special rules in name order, optionally only those carried by `scope`."""
    rules = SpecialRule.objects.filter(system=system).select_related("system").order_by("name")
    return rules.filter(scope=scope) if scope else rules
