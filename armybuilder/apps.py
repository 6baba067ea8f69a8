from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArmybuilderConfig(AppConfig):
    name = "armybuilder"
    verbose_name = _("Army builder")

    def ready(self) -> None:
        # Connects the login signal that restores a player's saved interface language.
        from armybuilder.accounts import language  # noqa: F401

        # A faction's BattleScribe data re-imported: its lists are re-priced once, with a report.
        from armybuilder.lists.data_updates import reprice_faction_lists
        from rules.signals import source_updated

        source_updated.connect(reprice_faction_lists, dispatch_uid="reprice-faction-lists")
