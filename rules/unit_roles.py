"""The roles a unit of the catalogue plays (`UnitTemplate.role`), and the words of a foreign army
book's category names that say which one ("HQ", "Lords" and "Characters" are heroes).

Every importer of other tools' data (BattleScribe's category names) reads a role from these
words, whatever the game system: a role is the catalogue's, not a system's.
"""

from __future__ import annotations

ROLES = (
    "hero",
    "infantry",
    "elite",
    "cavalry",
    "monster",
    "vehicle",
    "transport",
    "aircraft",
    "artillery",
    "other",
)

#: (words a category name holds, lower-case; the role they say), first match wins.
ROLE_WORDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("hq", "lord", "hero", "character", "leader", "commander"), "hero"),
    (("troop", "core", "battleline", "infantry"), "infantry"),
    (("elite", "special"), "elite"),
    (("fast", "cavalry"), "cavalry"),
    (("flyer", "aircraft", "flier"), "aircraft"),
    (("transport",), "transport"),
    (("monster", "behemoth"), "monster"),
    (("war machine", "artillery"), "artillery"),
    (("heavy", "vehicle", "lord of war"), "vehicle"),
)


def role_named_by(category: str) -> str:
    """The role a category of this name says ("other" when none of `ROLE_WORDS` is in it)."""
    lowered = category.lower()
    return next((role for words, role in ROLE_WORDS if any(w in lowered for w in words)), "other")
