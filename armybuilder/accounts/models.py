"""What a player's account remembers besides Django's user: for now, the interface language.

A one-to-one row rather than a custom user model, so the auth tables stay Django's and a
player without a saved choice needs no row at all.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class PlayerProfile(models.Model):
    """Per-account preferences; `language` empty means "follow the browser"."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="player_profile",
        verbose_name=_("user"),
    )
    language = models.CharField(
        _("interface language"), max_length=8, choices=settings.LANGUAGES, blank=True, default=""
    )

    class Meta:
        app_label = "armybuilder"
        verbose_name = _("player profile")
        verbose_name_plural = _("player profiles")

    def __str__(self) -> str:
        return str(self.user)
