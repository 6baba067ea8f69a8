"""Share links: a read-only link to a private list, made with an unguessable token, revocable.

A list is private until its owner shares it. Sharing gives it a random token
(`secrets.token_urlsafe`, 256 bits); anyone with the link can read the list, print it and
fork it, never change it. Revoking deletes the token, so the old link stops working at
once; sharing again makes a new token, never the old one.
"""

from __future__ import annotations

import secrets

from django.db import transaction

from armybuilder.lists.services import lock_list, save_list_change
from armybuilder.models import ArmyList

#: Bytes of randomness in a share token (43 URL-safe characters).
SHARE_TOKEN_BYTES = 32


def new_share_token() -> str:
    return secrets.token_urlsafe(SHARE_TOKEN_BYTES)


@transaction.atomic
def army_list_share(*, army_list: ArmyList, expected_version: int | None) -> str:
    """The list's share token, made now if it has none (sharing twice keeps the same link)."""
    locked = lock_list(army_list=army_list, expected_version=expected_version)
    if not locked.share_token:
        locked.share_token = new_share_token()
    save_list_change(locked=locked, caller=army_list, units=None, changed_fields=["share_token"])
    return locked.share_token


@transaction.atomic
def army_list_unshare(*, army_list: ArmyList, expected_version: int | None) -> None:
    """Revoke the share link: the token is forgotten and the old link answers 404."""
    locked = lock_list(army_list=army_list, expected_version=expected_version)
    locked.share_token = None
    save_list_change(locked=locked, caller=army_list, units=None, changed_fields=["share_token"])
