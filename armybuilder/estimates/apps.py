from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EstimatesConfig(AppConfig):
    """Expected-damage jobs: their rows, Celery tasks, pages. Its own app label so that its
    models and migrations stay apart from the army-list models of `armybuilder`."""

    name = "armybuilder.estimates"
    label = "estimates"
    verbose_name = _("Expected-damage estimates")
