from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArmybuilderConfig(AppConfig):
    name = "armybuilder"
    verbose_name = _("Army builder")

    def ready(self) -> None:
        # Connects the login signal that restores a player's saved interface language.
        from armybuilder.accounts import language  # noqa: F401
