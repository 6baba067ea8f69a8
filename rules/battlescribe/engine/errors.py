"""Validation errors as BattleScribe reports them: the node that owns the error and its source."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ValidationError:
    #: "roster", "force", "category" or "selection".
    owner_type: str
    #: Entry id of the owning node ("" for the roster), e.g. the selection's entry id.
    owner_id: str
    #: "{entryId}/{constraintId}", "costLimits/{costTypeId}" or "{entryId}/hidden".
    source: str
    message: str
    #: Name of the owning node (selection, category or force name) for messages to players.
    owner_name: str = ""
    constraint_type: str = ""
    limit: float = 0.0
    actual: float = 0.0
    field: str = ""
    #: Every id the owner answers to (composite entry id, base id, link id).
    owner_ids: tuple[str, ...] = ()
    #: Name of what the rule counts or prices (the limited unit, option or cost type).
    entry_name: str = ""

    @property
    def code(self) -> str:
        """What kind of rule is broken, for a message in the reader's language:
        `hidden`, `cost-limit`, or `{selections|forces|cost}-{min|max|exactly}`."""
        if self.source.endswith("/hidden"):
            return "hidden"
        if self.source.startswith("costLimits/"):
            return "cost-limit"
        counted = self.field if self.field in ("selections", "forces") else "cost"
        return f"{counted}-{self.constraint_type or 'max'}"

    @property
    def params(self) -> dict[str, str]:
        """The message's parameters: `owner` (the unit, category, force or army that breaks
        the rule), `entry` (what it counts), `limit`, `count` and, for costs, `cost` (the cost
        type's id, for the caller to name)."""
        return {
            "owner": self.owner_name,
            "entry": self.entry_name,
            "limit": f"{self.limit:g}",
            "count": f"{self.actual:g}",
            "cost": self.field if self.field not in ("selections", "forces") else "",
        }


class EngineError(Exception):
    """An operation the roster cannot perform (unknown entry, force or selection)."""
