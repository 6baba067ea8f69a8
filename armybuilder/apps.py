from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArmybuilderConfig(AppConfig):
    name = "armybuilder"
    verbose_name = _("Army builder")
