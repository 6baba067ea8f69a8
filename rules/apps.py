from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RulesConfig(AppConfig):
    name = "rules"
    verbose_name = _("Game rules and catalogue")

    def ready(self) -> None:
        # The pure core (`rules.options`, `points.catalogue`, the composition rules) marks its
        # messages with `_()`; from here on they are translated into the request's language.
        from django.utils.translation import get_language, gettext, ngettext

        from points.catalogue.i18n import install_translator

        install_translator(gettext, ngettext, get_language)
