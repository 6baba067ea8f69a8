"""What every importer is: `detect` a source, `read` it into our list (or faction) and a report.

An importer turns one format of another tool into the interchange format
(`docs/unit-format.md`, "An army list") — units written out in full, or
`catalogue_unit` references with option keys — or, for an army book, into a faction in the
shape of the bundled YAML. It never writes: `armybuilder.lists.imports` checks the result
through the same import and catalogue loader as our own files and saves it in one
transaction, so nothing half-imported is kept.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.contrib.auth.base_user import AbstractBaseUser
from django.utils.translation import gettext as _

from armybuilder.lists.errors import ArmyListError
from armybuilder.untrusted_json import JsonTooDeep, loads_bounded
from rules.battlescribe.engine.roster_xml import RosterFile
from rules.models import Faction

#: The largest source an import reads (a 2,000-point list is a few tens of KiB in any format).
MAX_SOURCE_BYTES = 4 * 1024 * 1024
#: The most unit entries one source may name.
MAX_SOURCE_UNITS = 300


class ImportProblem(ArmyListError):
    """The source cannot be imported: every problem as (where, message), where is a line or field
    (an `ArmyListError`, so pages and the API show it like any refused list)."""


@dataclass
class Source:
    """One thing to import: an uploaded file, pasted text or a fetched payload."""

    name: str
    data: bytes
    _text: str | None = None
    _json: Any = None
    _json_read: bool = False
    _json_refusal: str | None = None

    @classmethod
    def of_text(cls, text: str, name: str = "text") -> Source:
        return cls(name=name, data=text.encode("utf-8"), _text=text)

    @property
    def text(self) -> str:
        """The source as text (UTF-8, a byte-order mark dropped); problems name the source."""
        if self._text is None:
            try:
                self._text = self.data.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise ImportProblem([(self.name, _("This is not UTF-8 text."))]) from None
        return self._text

    @property
    def json(self) -> Any:
        """The source parsed as JSON, or None when it is not JSON (bounded depth)."""
        if not self._json_read:
            self._json_read = True
            stripped = self.data.lstrip()[:1]
            if stripped in (b"{", b"["):
                try:
                    self._json = loads_bounded(self.text)
                except JsonTooDeep:
                    self._json_refusal = str(_("The JSON is nested too deeply."))
                except json.JSONDecodeError:
                    pass  # not JSON: another format may read it
                except ValueError as exc:  # JSON we refuse: a number too long, NaN, Infinity
                    self._json_refusal = str(exc)
                except ImportProblem:
                    pass  # not UTF-8
        return self._json

    @property
    def json_refusal(self) -> str | None:
        """Why this JSON document was refused when it parses as JSON but holds what we never
        read (a 31-digit number, NaN, nesting too deep); None otherwise. No importer detects a
        refused document, and this, not "not a list in any format", is what its player is told."""
        self.json  # noqa: B018 - reads the document once
        return self._json_refusal

    def json_or_error(self) -> Any:
        try:
            return loads_bounded(self.text)
        except JsonTooDeep:
            raise ImportProblem([(self.name, _("The JSON is nested too deeply."))]) from None
        except json.JSONDecodeError as exc:
            raise ImportProblem(
                [
                    (
                        _("line %(line)d") % {"line": exc.lineno},
                        _("This is not valid JSON: %(error)s") % {"error": exc.msg},
                    )
                ]
            ) from None


@dataclass
class Context:
    """Who imports, and what they told us: the game system and the faction to match against."""

    user: AbstractBaseUser
    system_key: str | None = None
    faction: Faction | None = None


@dataclass
class ReportUnit:
    """One unit entry of the source, in its order: `formula_points` is filled after pricing;
    `unpriced` are the unit's rules the formula does not price (kept on it as text), so its
    formula price reads "without" them."""

    name: str
    size: int
    source_points: int | float | None
    formula_points: int | None = None
    unpriced: list[str] = field(default_factory=list)
    #: Which line of a pasted text it was read from, and as which catalogue unit ("line 3:
    #: read as Concord Wardens"); "" for formats read by structure, not by line.
    read_as: str = ""

    def as_dict(self) -> dict[str, Any]:
        shown: dict[str, Any] = {
            "name": self.name,
            "size": self.size,
            "source_points": self.source_points,
            "formula_points": self.formula_points,
            "unpriced": list(self.unpriced),
        }
        if self.read_as:
            shown["read_as"] = self.read_as
        return shown


@dataclass
class Imported:
    """What an importer read: a list (interchange format, one entry per report unit, each with
    count 1) or a faction (`system` key and the bundled-YAML shape), and its report."""

    format: str
    list_data: dict[str, Any] | None = None
    faction_data: dict[str, Any] | None = None
    system_key: str | None = None
    list_faction: Faction | None = None
    source_total: int | float | None = None
    units: list[ReportUnit] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    #: The source a faction was made from, kept beside it so files that refer to it can be read
    #: (an Army Forge army book, for its save files: `rules.army_forge_books`).
    source_book: dict[str, Any] | None = None
    #: Catalogue units the importer already read (with their options), by reference.
    templates: dict[str, Any] = field(default_factory=dict)
    #: A BattleScribe roster of a faction imported with its source: the selection tree of each
    #: unit (one per report unit, in order) and the force, for the roster engine to rebuild
    #: exactly (`imports.import_source`); None when the units are matched to the catalogue.
    roster_trees: list[dict[str, Any]] | None = None
    roster_force: str = ""
    #: The BattleScribe roster file `roster_trees` were read from (not our JSON's or a text's
    #: trees): a roster none of whose units the engine rebuilds is refused as the matched route
    #: refuses one (`importers.roster.refuse_if_none_rebuilt`).
    roster_file: RosterFile | None = None
    #: The player's words for each unit of `roster_trees` the file gives apart from the list's
    #: entries (a roster's custom names and notes): `{"custom_name", "notes"}`, in the same order.
    roster_details: list[dict[str, str]] = field(default_factory=list)
    #: How many of `roster_trees` come before the list's entries: our file's `configuration`
    #: (a roster's battle size, allegiance, chosen as the player chose them), first as in the list.
    roster_lead: int = 0
    #: {entry id: name} of the trees' selections as the source names them, so a selection the
    #: engine cannot rebuild is reported by name, not id (`dropped_entries`).
    entry_names: dict[str, str] = field(default_factory=dict)
    #: The roster's configuration selections (battle size, allegiance) by name: kept with the
    #: roster and reported on their own line, never as units.
    configuration: list[str] = field(default_factory=list)

    def unpriced_rules(self) -> list[str]:
        """Every rule the formula does not price, by name (its value dropped), each once in the
        order met: what the formula's prices are "without"."""
        names: list[str] = []
        for unit in self.units:
            for written in unit.unpriced:
                name = written.split("(", 1)[0].strip()
                if name and name not in names:
                    names.append(name)
        return names

    def report(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "source_total": self.source_total,
            "units": [u.as_dict() for u in self.units],
            "configuration": list(self.configuration),
            "unpriced_rules": self.unpriced_rules(),
            "left_out": list(self.left_out),
        }


class Importer(Protocol):
    """One format: a key (`--format`), a label for people, and the two steps."""

    key: str
    label: str

    def detect(self, source: Source) -> bool:
        """Whether `source` looks like this format (cheap; no database)."""

    def read(self, source: Source, context: Context) -> Imported:
        """The list or faction `source` holds; `ImportProblem` naming the line or field otherwise."""
