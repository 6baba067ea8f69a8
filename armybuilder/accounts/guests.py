"""Building before signing up: a visitor's lists live in their browser for `GUEST_DAYS` days.

A visitor who creates a list without an account gets a guest account, logged in in this
browser for `GUEST_DAYS` days from its start, across browser restarts (issue 43: a session
cookie lost the list when the browser closed): a `User` named `guest-<random>` with no usable
password, so nobody can log into it. The browser's credential is Django's session cookie —
an unguessable server-side key, HttpOnly, Secure under HTTPS — expiring on a fixed date, the
day `delete_stale_guests` may delete the guest: the cookie never outlives the account.
Every list page then works for them as it does for a player (the lists have an owner, as
always), the editor says until when the list is kept, the header says "Guest" with a sign-up
link, and on signing up or logging in `guest_hand_over` gives the guest's lists to the
account and deletes the guest.

Usernames starting with `guest-` are refused at sign-up, so a player can never be mistaken
for a guest.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.contrib.auth import login
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.http import HttpRequest

from armybuilder.estimates.models import Estimate
from armybuilder.job_rows import BackgroundJob
from armybuilder.models import ArmyList

GUEST_PREFIX = "guest-"
#: How long a guest's lists are kept in the browser that built them (Army Forge keeps a
#: visitor's lists in the browser's storage too): weeks, so a list built one evening is there
#: at the game the next weekend; signing up keeps them everywhere and for good.
GUEST_DAYS = 28


def is_guest(user: AbstractBaseUser | AnonymousUser | None) -> bool:
    """Whether `user` is a session's guest account (not a player's account)."""
    return (
        user is not None
        and user.is_authenticated
        and str(user.get_username()).startswith(GUEST_PREFIX)
        and not user.has_usable_password()
    )


def guest_kept_until(guest: User) -> datetime:
    """When the guest's browser forgets the guest, and `delete_stale_guests` may delete it."""
    return guest.date_joined + timedelta(days=GUEST_DAYS)


def guest_start(request: HttpRequest) -> User:
    """Log the visitor in as a new guest in this browser for `GUEST_DAYS` days, and return it."""
    guest = User(username=GUEST_PREFIX + secrets.token_hex(8))
    guest.set_unusable_password()
    guest.save()
    login(request, guest, backend="django.contrib.auth.backends.ModelBackend")
    # A fixed date, not an age renewed by each save: the cookie ends when the account may go.
    request.session.set_expiry(guest_kept_until(guest))
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
    BackgroundJob.objects.filter(owner=guest).update(owner=user)  # their jobs (an estimate's among them)
    guest.delete()
    return moved
