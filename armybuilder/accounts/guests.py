"""Building before signing up: a visitor's lists live in their session.

A visitor who creates a list without an account gets a guest account, logged in for this
browser session only: a `User` named `guest-<random>` with no usable password, so nobody can
log into it and it ends with the session. Every list page then works for them as it does
for a player (the lists have an owner, as always), the header says "Guest" with a sign-up
link, and on signing up or logging in `guest_hand_over` gives the guest's lists to the
account and deletes the guest.

Usernames starting with `guest-` are refused at sign-up, so a player can never be mistaken
for a guest.
"""

from __future__ import annotations

import secrets

from django.contrib.auth import login
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.http import HttpRequest

from armybuilder.estimates.models import Estimate
from armybuilder.models import ArmyList

GUEST_PREFIX = "guest-"


def is_guest(user: AbstractBaseUser | AnonymousUser | None) -> bool:
    """Whether `user` is a session's guest account (not a player's account)."""
    return (
        user is not None
        and user.is_authenticated
        and str(user.get_username()).startswith(GUEST_PREFIX)
        and not user.has_usable_password()
    )


def guest_start(request: HttpRequest) -> User:
    """Log the visitor in as a new guest for this browser session, and return the guest."""
    guest = User(username=GUEST_PREFIX + secrets.token_hex(8))
    guest.set_unusable_password()
    guest.save()
    login(request, guest, backend="django.contrib.auth.backends.ModelBackend")
    request.session.set_expiry(0)  # ends when the browser closes, as the lists of a visitor do
    return guest


@transaction.atomic
def guest_hand_over(*, guest: User, user: User) -> int:
    """Give every list (and estimate) of `guest` to `user` and delete the guest; returns how
    many lists moved. A list keeps its name, units, version and share link; only its owner
    changes."""
    if not is_guest(guest) or guest.pk == user.pk:
        return 0
    moved = ArmyList.objects.filter(owner=guest).update(owner=user)
    Estimate.objects.filter(owner=guest).update(owner=user)
    guest.delete()
    return moved
