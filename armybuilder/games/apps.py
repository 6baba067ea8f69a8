from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    """Play mode: games at the table, their taps, odds and logs. Its own app label and
    migrations, apart from the army-list models of `armybuilder`."""

    name = "armybuilder.games"
    label = "games"
    verbose_name = _("Games")
