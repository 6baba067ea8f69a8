"""Army Forge army books kept beside the factions imported from them (`ArmyForgeBook`).

An Army Forge save file names units and upgrades only by their ids in the book; the book's
faction alone cannot resolve them (it keeps each unit as read, and only the upgrades our
options can say), so the book import keeps the book as published (`keep_book`) and the save
import finds it again by uid and game system (`books_for`) among the factions its player may
read: their own, shared ones and the public catalogue.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser

from rules.models import ArmyForgeBook, Faction
from rules.selectors import factions_visible_to
from rules.systems.opr.army_forge_upgrades import book_system


def keep_book(*, faction: Faction, book: Mapping[str, Any]) -> ArmyForgeBook:
    """Keep `book` (Army Forge's JSON) as the source of `faction`, replacing an earlier one."""
    row, _ = ArmyForgeBook.objects.update_or_create(
        faction=faction,
        defaults={
            "uid": str(book.get("uid") or "")[:64],
            "game_system": book_system(book),
            "version": str(book.get("versionString") or book.get("version") or "")[:32],
            "book": dict(book),
        },
    )
    return row


def books_for(*, user: AbstractBaseUser, uid: str, game_system: str) -> list[ArmyForgeBook]:
    """The kept books of `uid` for Army Forge's `game_system` that `user` may read, their own
    first, then the newest; a book that does not say its system matches any."""
    rows = ArmyForgeBook.objects.filter(
        uid=uid, faction__in=factions_visible_to(user=user)
    ).select_related("faction")
    mine = [r for r in rows if r.game_system in (game_system, "")]
    return sorted(
        mine, key=lambda r: (r.faction.owner_id != getattr(user, "pk", None), -r.faction.updated.timestamp())
    )
