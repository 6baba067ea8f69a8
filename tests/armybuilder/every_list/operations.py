"""Every page and API route that reads or changes a list, as rows of one table (`OPERATIONS`).

A row is a name, whether it changes the list (`changes`: a locked snapshot must refuse it with a
4xx) and a `call` that makes the request for one list (`Cell`) and returns the response. A
route that applies only to some lists says so with `applies` (a predicate of the cell): where it
does not apply, the matrix expects a 4xx naming why, never a 5xx and never a page that pretends.
A new route is a new row here; the matrix runs it on every kind of list (`kinds.KINDS`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from armybuilder.lists.backends import engine_units as roster_units
from armybuilder.models import ArmyList, ListUnit
from rules.systems.registry import get_system
from tests.armybuilder.every_list.kinds import Built


@dataclass
class Cell:
    """One list of one kind, and the clients its owner uses: the browser's and the app's."""

    built: Built
    page: Client
    api: APIClient

    @property
    def army_list(self) -> ArmyList:
        return self.built.army_list

    @property
    def list_id(self) -> int:
        return self.built.army_list.pk

    @property
    def version(self) -> int:
        return self.built.army_list.version

    @property
    def units(self) -> list[ListUnit]:
        return list(self.army_list.units.order_by("position"))

    @property
    def unit(self) -> ListUnit:
        """The list's first unit that fields models (a roster's configuration rows are not units)."""
        return roster_units.fielded(self.units)[0]

    @property
    def token(self) -> str:
        """The list's share token (a locked snapshot has its own; any other list is shared)."""
        if not self.army_list.share_token:
            from armybuilder.lists.sharing import army_list_share

            army_list_share(army_list=self.army_list, expected_version=self.version)
            self.army_list.refresh_from_db()
        return self.army_list.share_token

    def post(self, name: str, *args: Any, data: dict[str, Any] | None = None, htmx: bool = False) -> Any:
        headers = {"HX-Request": "true"} if htmx else {}
        return self.page.post(
            reverse(name, args=args), {"version": self.version, **(data or {})}, headers=headers
        )

    def get(self, name: str, *args: Any, query: dict[str, Any] | None = None) -> Any:
        return self.page.get(reverse(name, args=args), query or {})

    def api_call(self, method: str, path: str, body: Any = None) -> Any:
        call = getattr(self.api, method)
        if method == "get":
            return call(f"/api/v1/{path}")
        return call(f"/api/v1/{path}", body if body is not None else {}, format="json", HTTP_IF_MATCH="*")


def formula_priced(cell: Cell) -> bool:
    """The points audit applies only to a system priced by a published formula (OPR)."""
    return get_system(cell.army_list.system.key).formula_priced


def has_roster_force(cell: Cell) -> bool:
    """Choosing a force (detachment) applies only to a list built by the roster engine."""
    return bool(roster_units.roster_force_choices(cell.army_list))


def writes_army_forge(cell: Cell) -> bool:
    """The Army Forge export applies only to a system Army Forge has (`foreign_units`)."""
    return "army_forge" in get_system(cell.army_list.system.key).foreign_units


def has_undo(cell: Cell) -> bool:
    """Undo applies only when the list's last change can be undone."""
    return bool(cell.army_list.undo)


def can_add(cell: Cell) -> bool:
    """Adding a unit applies only to a list with units to choose from (a list imported without
    a faction, from text say, has the owner's homebrew units only, here none)."""
    return cell.built.addable is not None


def always(cell: Cell) -> bool:
    return True


#: How an operation names its list: by id (the owner's, never a locked snapshot: that is read
#: through its own link only, `selectors.army_lists_visible_to`), by its share link, or not at all.
BY_ID, BY_LINK, NO_LIST = "id", "link", "none"


@dataclass(frozen=True)
class Operation:
    name: str
    call: Callable[[Cell], Any]
    changes: bool = False
    applies: Callable[[Cell], bool] = always
    address: str = BY_ID

    def applies_to(self, cell: Cell) -> bool:
        if self.address == BY_ID and cell.built.locked:
            return False
        return self.applies(cell)


def _force(cell: Cell) -> str:
    return roster_units.current_force(cell.army_list) or "no-force"


def _addable(cell: Cell) -> int:
    return cell.built.addable.pk if cell.built.addable else 0


def _settings(cell: Cell) -> dict[str, Any]:
    """What the settings form posts unchanged (every field's current value), the name changed."""
    from armybuilder.lists.forms import ArmyListSettingsForm

    form = ArmyListSettingsForm(army_list=cell.army_list)
    data = {name: form[name].value() for name in form.fields}
    data = {name: value for name, value in data.items() if value not in (None, False)}
    return {**data, "name": "Renamed"}


def _last(cell: Cell) -> ListUnit:
    return roster_units.fielded(cell.units)[-1]


def _json_export(cell: Cell) -> dict[str, Any]:
    """The list's JSON export, read through its share link (a locked snapshot has no other)."""
    return cell.api_call("get", f"shared/{cell.token}/export/json").json()


OPERATIONS: list[Operation] = [
    # ------------------------------------------------------------------ pages that read
    Operation("page editor", lambda c: c.get("lists:detail", c.list_id)),
    Operation("page my lists", lambda c: c.get("lists:mine"), address=NO_LIST),
    Operation("page gallery", lambda c: c.get("lists:gallery"), address=NO_LIST),
    Operation("page compare", lambda c: c.get("lists:compare", query={"a": c.list_id, "b": c.list_id})),
    Operation("page roster", lambda c: c.get("lists:roster", c.list_id)),
    Operation("page roster PDF job", lambda c: c.get("lists:roster_pdf", c.list_id)),
    Operation("page text export", lambda c: c.get("lists:roster_text", c.list_id)),
    Operation("page JSON export", lambda c: c.get("lists:export_json", c.list_id)),
    Operation("page .rosz export", lambda c: c.get("lists:export_rosz", c.list_id)),
    Operation(
        "page Army Forge export",
        lambda c: c.get("lists:export_army_forge", c.list_id),
        applies=writes_army_forge,
    ),
    Operation("page share card", lambda c: c.get("lists:card", c.list_id)),
    Operation("page gauntlet panel", lambda c: c.get("lists:gauntlet", c.list_id)),
    Operation("page points audit", lambda c: c.get("lists:audit", c.list_id), applies=formula_priced),
    Operation(
        "page points audit of a unit",
        lambda c: c.get("lists:audit_unit", c.list_id, c.unit.pk),
        applies=formula_priced,
    ),
    Operation("page estimate a list", lambda c: c.get("estimates:new", query={"list": c.list_id})),
    Operation(
        "page estimate a unit",
        lambda c: c.get("estimates:new", query={"list": c.list_id, "list_unit": c.unit.pk}),
    ),
    Operation("page shared list", lambda c: c.get("lists:shared", c.token), address=BY_LINK),
    Operation("page shared roster", lambda c: c.get("lists:shared_roster", c.token), address=BY_LINK),
    Operation("page shared text", lambda c: c.get("lists:shared_roster_text", c.token), address=BY_LINK),
    Operation("page shared JSON", lambda c: c.get("lists:shared_export_json", c.token), address=BY_LINK),
    Operation("page shared .rosz", lambda c: c.get("lists:shared_export_rosz", c.token), address=BY_LINK),
    Operation(
        "page shared Army Forge",
        lambda c: c.get("lists:shared_export_army_forge", c.token),
        address=BY_LINK,
        applies=writes_army_forge,
    ),
    Operation("page shared card", lambda c: c.get("lists:shared_card", c.token), address=BY_LINK),
    Operation(
        "page estimate a shared list",
        lambda c: c.get("estimates:new", query={"share": c.token}),
        address=BY_LINK,
    ),
    # ------------------------------------------------------------------ pages that change
    Operation("page settings", lambda c: c.post("lists:update", c.list_id, data=_settings(c)), changes=True),
    Operation(
        "page choose force",
        lambda c: c.post("lists:roster_force", c.list_id, data={"roster_force": _force(c)}),
        changes=True,
        applies=has_roster_force,
    ),
    Operation(
        "page add unit (htmx)",
        lambda c: c.post("lists:unit_add", c.list_id, data={"unit": _addable(c)}, htmx=True),
        changes=True,
        applies=can_add,
    ),
    Operation(
        "page unit options (htmx)",
        lambda c: c.post("lists:unit_options", c.list_id, c.unit.pk, htmx=True),
        changes=True,
    ),
    Operation(
        "page duplicate unit (htmx)",
        lambda c: c.post("lists:unit_duplicate", c.list_id, c.unit.pk, htmx=True),
        changes=True,
    ),
    Operation(
        "page move unit (htmx)",
        lambda c: c.post("lists:unit_move", c.list_id, _last(c).pk, data={"position": 0}, htmx=True),
        changes=True,
    ),
    Operation(
        "page unit details (htmx)",
        lambda c: c.post(
            "lists:unit_details",
            c.list_id,
            c.unit.pk,
            data={"custom_name": "Named", "notes": "A note", "group": "Alpha"},
            htmx=True,
        ),
        changes=True,
    ),
    Operation(
        "page clear unit options (htmx)",
        lambda c: c.post("lists:unit_clear_options", c.list_id, c.unit.pk, htmx=True),
        changes=True,
    ),
    Operation(
        "page remove unit (htmx)",
        lambda c: c.post("lists:unit_remove", c.list_id, c.unit.pk, htmx=True),
        changes=True,
    ),
    Operation("page undo", lambda c: c.post("lists:undo", c.list_id), changes=True, applies=has_undo),
    Operation("page share", lambda c: c.post("lists:share", c.list_id), changes=True),
    Operation("page unshare", lambda c: c.post("lists:unshare", c.list_id), changes=True),
    Operation("page lock and share", lambda c: c.post("lists:lock", c.list_id), changes=True),
    Operation("page fork", lambda c: c.post("lists:fork", c.list_id)),
    Operation("page fork a shared list", lambda c: c.post("lists:shared_fork", c.token), address=BY_LINK),
    Operation("page delete", lambda c: c.post("lists:delete", c.list_id), changes=True),
    # ------------------------------------------------------------------ API that reads
    Operation("api list", lambda c: c.api_call("get", f"lists/{c.list_id}")),
    Operation("api my lists", lambda c: c.api_call("get", "lists"), address=NO_LIST),
    Operation("api validate", lambda c: c.api_call("get", f"lists/{c.list_id}/validate")),
    Operation(
        "api points audit", lambda c: c.api_call("get", f"lists/{c.list_id}/audit"), applies=formula_priced
    ),
    Operation("api locks", lambda c: c.api_call("get", f"lists/{c.list_id}/locks")),
    Operation("api gauntlet", lambda c: c.api_call("get", f"lists/{c.list_id}/gauntlet")),
    Operation("api units", lambda c: c.api_call("get", f"lists/{c.list_id}/units")),
    Operation("api unit", lambda c: c.api_call("get", f"lists/{c.list_id}/units/{c.unit.pk}")),
    Operation("api export PDF", lambda c: c.api_call("get", f"lists/{c.list_id}/export/pdf")),
    Operation("api export text", lambda c: c.api_call("get", f"lists/{c.list_id}/export/text")),
    Operation("api export JSON", lambda c: c.api_call("get", f"lists/{c.list_id}/export/json")),
    Operation("api export card", lambda c: c.api_call("get", f"lists/{c.list_id}/export/card")),
    Operation(
        "api export Army Forge",
        lambda c: c.api_call("get", f"lists/{c.list_id}/export/army-forge"),
        applies=writes_army_forge,
    ),
    Operation("api export .rosz", lambda c: c.api_call("get", f"lists/{c.list_id}/export/rosz")),
    Operation("api shared list", lambda c: c.api_call("get", f"shared/{c.token}"), address=BY_LINK),
    Operation(
        "api shared JSON", lambda c: c.api_call("get", f"shared/{c.token}/export/json"), address=BY_LINK
    ),
    Operation(
        "api shared text", lambda c: c.api_call("get", f"shared/{c.token}/export/text"), address=BY_LINK
    ),
    Operation(
        "api shared .rosz", lambda c: c.api_call("get", f"shared/{c.token}/export/rosz"), address=BY_LINK
    ),
    Operation(
        "api shared Army Forge",
        lambda c: c.api_call("get", f"shared/{c.token}/export/army-forge"),
        address=BY_LINK,
        applies=writes_army_forge,
    ),
    Operation(
        "api shared card", lambda c: c.api_call("get", f"shared/{c.token}/export/card"), address=BY_LINK
    ),
    Operation("api shared PDF", lambda c: c.api_call("get", f"shared/{c.token}/export/pdf"), address=BY_LINK),
    Operation(
        "api import the JSON export",
        lambda c: c.api_call("post", "lists/import", _json_export(c)),
        address=BY_LINK,
    ),
    # ------------------------------------------------------------------ API that changes
    Operation(
        "api rename", lambda c: c.api_call("patch", f"lists/{c.list_id}", {"name": "Renamed"}), changes=True
    ),
    Operation(
        "api add unit",
        lambda c: c.api_call("post", f"lists/{c.list_id}/units", {"unit": _addable(c), "options": {}}),
        changes=True,
        applies=can_add,
    ),
    Operation(
        "api unit options",
        lambda c: c.api_call(
            "patch", f"lists/{c.list_id}/units/{c.unit.pk}", {"options": c.unit.chosen_options}
        ),
        changes=True,
    ),
    Operation(
        "api unit name",
        lambda c: c.api_call("patch", f"lists/{c.list_id}/units/{c.unit.pk}", {"custom_name": "Named"}),
        changes=True,
    ),
    Operation(
        "api duplicate unit",
        lambda c: c.api_call("post", f"lists/{c.list_id}/units/{c.unit.pk}/duplicate"),
        changes=True,
    ),
    Operation(
        "api remove unit",
        lambda c: c.api_call("delete", f"lists/{c.list_id}/units/{c.unit.pk}"),
        changes=True,
    ),
    Operation(
        "api set gauntlet",
        lambda c: c.api_call(
            "put", f"lists/{c.list_id}/gauntlet", {"reference": True, "lists": [], "locks": []}
        ),
        changes=True,
    ),
    Operation("api share", lambda c: c.api_call("post", f"lists/{c.list_id}/share"), changes=True),
    Operation("api unshare", lambda c: c.api_call("delete", f"lists/{c.list_id}/share"), changes=True),
    Operation("api lock and share", lambda c: c.api_call("post", f"lists/{c.list_id}/locks"), changes=True),
    Operation("api fork", lambda c: c.api_call("post", f"lists/{c.list_id}/fork")),
    Operation(
        "api fork a shared list", lambda c: c.api_call("post", f"shared/{c.token}/fork"), address=BY_LINK
    ),
    Operation("api delete", lambda c: c.api_call("delete", f"lists/{c.list_id}"), changes=True),
]
