"""`{{ user|is_guest }}`: whether the visitor is building as a guest (`accounts.guests`)."""

from __future__ import annotations

from typing import Any

from django import template

from armybuilder.accounts.guests import is_guest as guest_check

register = template.Library()


@register.filter
def is_guest(user: Any) -> bool:
    return guest_check(user)
