"""`{{ user|is_guest }}`: whether the visitor is building as a guest (`accounts.guests`);
`{{ user|guest_kept_until }}`: until when the guest's browser keeps its lists."""

from __future__ import annotations

from typing import Any

from django import template

from armybuilder.accounts.guests import GUEST_DAYS
from armybuilder.accounts.guests import guest_kept_until as kept_until
from armybuilder.accounts.guests import is_guest as guest_check

register = template.Library()


@register.filter
def is_guest(user: Any) -> bool:
    return guest_check(user)


@register.filter
def guest_kept_until(user: Any) -> Any:
    """The date a guest's lists are kept until (None for a player)."""
    return kept_until(user) if guest_check(user) else None


@register.simple_tag
def guest_days() -> int:
    """How many days a guest's lists are kept in the browser that built them."""
    return GUEST_DAYS
