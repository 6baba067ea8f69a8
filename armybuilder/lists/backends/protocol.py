"""The one interface the list services talk to, whichever kind of list it is.

A list is kept either in our unit format (bundled armies, homebrew, Army Forge imports:
`unit_format.UnitFormatBackend`) or as a roster of the BattleScribe engine (a faction imported
with its source: `engine.EngineBackend`). The services, views, exports, locks, estimates and
the gauntlet call these methods on the backend `backend_for` picks; none of them asks which
kind a list is.

Methods that change units work on the rows the services read under the list's lock, write
the rows they change (and only those) and return what the services need to finish the change
(`save_list_change`: re-validate, save the totals, move the version on, then `saved`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from armybuilder.models import ListUnit
from rules.models import UnitTemplate

#: ({unit id: points}, the violations a backend finds itself).
Evaluated = tuple[dict[int, int], list[dict[str, Any]]]


class ListBackend(Protocol):
    """What the product asks of a list's units (see the module's docstring)."""

    #: Whether changes read whole rows (menus, snapshots) rather than the evaluated fields only.
    whole_rows: bool

    # -- reading ---------------------------------------------------------------------------
    def fielded(self, units: Sequence[ListUnit]) -> list[ListUnit]:
        """The rows that are units of the army (not the roster's configuration), in order."""
        ...

    def configuration(self, units: Sequence[ListUnit]) -> list[ListUnit]:
        """The roster's configuration rows (a battle size, an allegiance), in order."""
        ...

    def decided_settings(self, units: Sequence[ListUnit]) -> dict[str, Any]:
        """The list settings the list's own rows decide (40k's battle size from a roster)."""
        ...

    def structure_options(self, units: Sequence[ListUnit]) -> dict[str, Any]:
        """The list's switches of its system's optional rules, as validation should read them."""
        ...

    def evaluate(self, units: Sequence[ListUnit], *, reprice: bool) -> Evaluated:
        """({unit id: points}, the violations the backend finds itself, before the system's)."""
        ...

    def unit_choices(self, templates: Sequence[UnitTemplate]) -> Sequence[UnitTemplate]:
        """The "Add a unit" menu, priced as the units enter this list."""
        ...

    def force_choices(self) -> list[tuple[str, str]]:
        """(force entry id, name) the list can be built in; [] when it has no forces."""
        ...

    def roster_xml(self, units: Sequence[ListUnit]) -> bytes:
        """The list as BattleScribe roster XML (`.ros`)."""
        ...

    # -- changing (rows written, the list row left to the services) -------------------------
    def add_unit(
        self, *, units: list[ListUnit], template: UnitTemplate, options: Mapping[str, int] | None
    ) -> tuple[list[ListUnit], ListUnit]:
        """Add `template` at the end: (every row in order, the new unit), rows saved."""
        ...

    def set_options(
        self, *, units: list[ListUnit], unit: ListUnit, options: Mapping[str, int]
    ) -> tuple[list[ListUnit], ListUnit]:
        """Replace the chosen options of `unit`: (every row in order, the unit as saved)."""
        ...

    def remove_unit(self, *, units: list[ListUnit], unit: ListUnit) -> list[ListUnit]:
        """`unit` leaves the list (its row is deleted by the services): the rows left, in order,
        those the change touched saved."""
        ...

    def set_force(self, *, units: list[ListUnit], force_entry_id: str) -> None:
        """Build the units in another force (detachment); the rows saved."""
        ...

    def reprice(self, units: list[ListUnit]) -> list[int] | None:
        """Re-price the rows with the faction's current data (rows saved): the indexes of the
        units whose entry left the catalogue; None when the list has nothing to re-price from."""
        ...

    def saved(self, units: Sequence[ListUnit], version: int) -> None:
        """The change was saved at `version` holding `units` (kept for the next change)."""
        ...
