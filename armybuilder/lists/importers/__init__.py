"""Importers of lists and army books from the tools players use today, one module per format.

Every importer has the same interface (`base.Importer`: `key`, `label`, `detect`, `read`);
`IMPORTERS` is the order in which `detect` is asked (most specific first), and
`--format auto` takes the first that says yes. `armybuilder.lists.imports` runs them and saves.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from armybuilder.lists.importers.army_forge import ArmyForgeBook, ArmyForgeList
from armybuilder.lists.importers.army_forge_save import ArmyForgeSave
from armybuilder.lists.importers.base import Context, Imported, Importer, ImportProblem, Source
from armybuilder.lists.importers.ours import OurListFile
from armybuilder.lists.importers.roster import BattleScribeRoster, NewRecruitRoster
from armybuilder.lists.importers.text import TextList

IMPORTERS: tuple[Importer, ...] = (
    OurListFile(),
    NewRecruitRoster(),
    ArmyForgeSave(),
    ArmyForgeBook(),
    ArmyForgeList(),
    BattleScribeRoster(),
    TextList(),
)
FORMATS: tuple[str, ...] = ("auto", *(importer.key for importer in IMPORTERS))


def importer_for(source: Source, format: str = "auto") -> Importer:
    """The importer of `format`, or the first whose `detect` recognises `source`."""
    if format != "auto":
        for importer in IMPORTERS:
            if importer.key == format:
                return importer
        raise ImportProblem(
            [("format", _("Unknown format; one of: %(formats)s.") % {"formats": ", ".join(FORMATS)})]
        )
    for importer in IMPORTERS:
        if importer.detect(source):
            return importer
    if source.json_refusal is not None:
        raise ImportProblem([(source.name, source.json_refusal)])
    raise ImportProblem(
        [
            (
                source.name,
                _(
                    "This is not a list in any format we read (our JSON, Army Forge, "
                    "BattleScribe, New Recruit or text)."
                ),
            )
        ]
    )


__all__ = ["FORMATS", "IMPORTERS", "Context", "ImportProblem", "Imported", "Source", "importer_for"]
