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


class EngineError(Exception):
    """An operation the roster cannot perform (unknown entry, force or selection)."""
