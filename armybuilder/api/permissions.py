"""Who may do what to a list, once the selectors have said who may see it.

Reading is decided by `armybuilder.lists.selectors` (a list you may not read is a 404 — never a
403 that would tell it exists). A list you may read but not change (someone else's
public list) is a 403 for every write.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import permissions
from rest_framework.request import Request


class IsListOwnerOrReadOnly(permissions.BasePermission):
    """Writes to a list (and its units, sharing) are for its owner only."""

    message = _("Only the owner of this list may change it.")

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        return request.method in permissions.SAFE_METHODS or obj.owner_id == request.user.pk
