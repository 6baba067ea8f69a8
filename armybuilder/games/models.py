"""A game at the table: its two armies as they started, and every tap since."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Game(models.Model):
    """One game of two armies, played on one player's phone.

    `armies` holds both sides as they were when the game started (`[{"name", "list_id",
    "units": [{"name", "unit", "points"}]}]`, each unit in the unit format as the list's export
    writes it), so editing a list later never changes a game in progress. `actions` is the
    append-only log of taps and odds (`play_state`); the state is its replay. `version` counts
    the actions, so a client syncing from offline says which of them it has seen.
    """

    class Result(models.TextChoices):
        FIRST = "first", _("The first army won")
        SECOND = "second", _("The second army won")
        DRAW = "draw", _("Draw")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="games")
    system = models.CharField(_("game system"), max_length=32)
    name = models.CharField(_("name"), max_length=200)
    armies = models.JSONField(_("armies"))
    actions = models.JSONField(_("actions"), default=list, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)
    result = models.CharField(_("result"), max_length=8, choices=Result.choices, blank=True)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("last change"), auto_now=True)

    class Meta:
        ordering = ["-updated"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        indexes = [models.Index(fields=["owner", "-updated"], name="game_owner_updated")]

    def __str__(self) -> str:
        return self.name
