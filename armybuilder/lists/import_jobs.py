"""List imports run by a Celery worker, not in the web request.

A 1.8 MB list took 27.7 s of a gunicorn thread on a loaded server (reading, checking, pricing
and writing 200 units), near the 30 s timeout; a link to Army Forge waited on another site
inside the request too. Now the Import page and `POST /api/v1/lists/import` only check what
is cheap (form fields, sizes, an empty box, a JSON body that parses) and store the input; the
worker does the rest, exactly as the request did before:

- `queue_list_import` counts the import against the account's `list_import` rate (the shared
  throttle cache, like every other rate), stores the input and the job's state in the job
  cache (Redis, `PDF_CACHE`) for `JOB_SECONDS`, and queues `run_list_import` on the `pdf`
  queue (file work, never in front of estimates);
- `run_list_import` (the worker) reads the input as the page or the API did: our JSON file
  straight into a list, any other format through `imports.import_source` (a report of each
  unit's price in the source beside ours), an Army Forge link fetched first, a BattleScribe
  roster of the roster page or `POST /battlescribe/rosters` through
  `battlescribe_rosters.roster_import` (each unit's price beside the roster's); it stores the
  outcome (the list's id, the report) or the problems, each naming its line or field, in the
  uploader's language;
- the job saves once however often it is delivered (`rules.import_receipts`): what it saves
  and its receipt commit in one transaction (a link is fetched before it), and a delivery that
  finds the receipt finishes from it, so a worker dying between the commit and the stored
  outcome never makes a second list;
- `list_import_state` is what the page polls (htmx) and the API answers (202 with `Location`
  and `Retry-After` while queued or running). A job is only ever shown to its own account.

With the queue or its cache down the caller gets `ImportUnavailable` (a 503), never a hung
request; nothing was stored then.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.cache import BaseCache, caches
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from armybuilder.lists.errors import ArmyListError
from armybuilder.lists.importers import IMPORTERS, ImportProblem, Source
from armybuilder.untrusted_json import JsonTooDeep, loads_bounded, storage_problems
from rules.battlescribe.xml_reader import SourceFile
from rules.import_queue import ImportThrottled, ImportUnavailable, wait_before
from rules.import_receipts import LIST_IMPORT, receipt_of, receipt_record, saved_once

logger = logging.getLogger(__name__)

#: How long a job's input and outcome are kept (the page and the API can show it until then).
JOB_SECONDS = 3600
#: Seconds a client waits between polls.
RETRY_AFTER = 2
#: What the worker is asked to do with the input.
#: `page`: the Import page (our JSON file straight into a list, anything else with a report);
#: `api_json`: the API's JSON body (our list file); `api_any`: the API's upload or text (a report,
#: and the list in our file format); `roster`: a BattleScribe .ros/.rosz of the roster page or
#: the API, read against the chosen system's catalogue (each unit's price beside the roster's).
MODES = ("page", "api_json", "api_any", "roster")


@dataclass(frozen=True)
class ListImportJob:
    """One import as its owner sees it.

    `state` is `queued`, `running`, `done` (with `result`) or `failed` (with `errors`: (field
    or line, message) pairs in the uploader's words). `request` is what was asked (format,
    system, faction, dry run, and pasted text, so a failed import's form can be filled again).
    """

    id: str
    state: str
    mode: str
    request: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    errors: list[tuple[str, str]] = field(default_factory=list)
    elapsed: float = 0.0

    @property
    def finished(self) -> bool:
        return self.state in ("done", "failed")

    @property
    def dry_run(self) -> bool:
        return bool(self.request.get("dry_run"))

    @property
    def is_roster(self) -> bool:
        """A BattleScribe roster's import (the roster page's form shows its problems)."""
        return self.mode == "roster"


def cache() -> BaseCache:
    return caches[settings.PDF_CACHE]


def _state_key(job_id: str) -> str:
    return f"list-import:{job_id}"


def _input_key(job_id: str) -> str:
    return f"list-import:{job_id}:input"




def queue_list_import(
    *,
    owner_id: int,
    language: str,
    mode: str,
    name: str = "text",
    data: bytes | None = None,
    text: str = "",
    format: str = "auto",
    system_key: str | None = None,
    faction_id: int | None = None,
    dry_run: bool = False,
) -> ListImportJob:
    """Store the input (an uploaded file's `data`, or `text`: pasted, a link, or the API's JSON
    body) and queue its import for `owner_id`; the job, queued.

    Raises `ImportThrottled` past the account's rate, `ImportUnavailable` with the queue down.
    """
    assert mode in MODES
    try:
        wait = wait_before("list_import", owner_id)
    except Exception as exc:
        raise ImportUnavailable(str(exc)) from exc
    if wait is not None:
        raise ImportThrottled(wait)
    job_id = uuid.uuid4().hex
    asked = {"format": format, "system": system_key or "", "faction": faction_id, "dry_run": dry_run,
             "name": name, "text": text if data is None and mode == "page" else ""}
    state = {"state": "queued", "owner": owner_id, "mode": mode, "since": time.time(), "language": language,
             "request": asked}
    store = cache()
    try:
        store.set_many({_input_key(job_id): {"name": name, "data": data, "text": text},
                        _state_key(job_id): state}, timeout=JOB_SECONDS)
        run_list_import.apply_async((job_id,), retry=False)
    except Exception as exc:
        logger.warning("could not queue the list import %s: %s", job_id, exc)
        try:
            store.delete_many([_input_key(job_id), _state_key(job_id)])
        except Exception:  # the cache is down too; the entries expire on their own
            logger.warning("could not clear the list import job %s", job_id)
        raise ImportUnavailable(str(exc)) from exc
    found = list_import_state(job_id=job_id, owner_id=owner_id)  # eager mode (tests) ran it already
    return found if found is not None else ListImportJob(id=job_id, state="queued", mode=mode, request=asked)


def queue_roster_import(*, owner_id: int, language: str, source: SourceFile,
                        system_key: str) -> ListImportJob:
    """Queue a BattleScribe roster's import as a new list of `owner_id` in the system
    `system_key` (the roster page's and `POST /battlescribe/rosters`'s job); the job, queued.

    The file's size was checked by the caller (`rules.battlescribe_import.read_uploads`). Raises
    `ImportThrottled` past the account's rate, `ImportUnavailable` with the queue down."""
    return queue_list_import(owner_id=owner_id, language=language, mode="roster", name=source.name,
                             data=source.data, format="battlescribe", system_key=system_key)


def list_import_state(*, job_id: str, owner_id: int) -> ListImportJob | None:
    """The job as its owner sees it; None when it is unknown, expired or someone else's.

    Raises `ImportUnavailable` with the cache down."""
    try:
        state = cache().get(_state_key(job_id))
    except Exception as exc:
        logger.warning("could not read the list import %s: %s", job_id, exc)
        raise ImportUnavailable(str(exc)) from exc
    if not isinstance(state, dict) or state.get("owner") != owner_id:
        return None
    since = state.get("since")
    elapsed = max(0.0, time.time() - since) if isinstance(since, int | float) else 0.0
    return ListImportJob(id=job_id, state=state.get("state", "queued"), mode=state.get("mode", "page"),
                         request=dict(state.get("request") or {}), result=state.get("result"),
                         errors=[(str(p), str(m)) for p, m in state.get("errors") or []],
                         elapsed=round(elapsed, 1))


@shared_task(name="lists.import_list", acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             time_limit=settings.LIST_IMPORT_TIME_LIMIT + 10, soft_time_limit=settings.LIST_IMPORT_TIME_LIMIT)
def run_list_import(job_id: str) -> str:
    """Import the job's input (on the worker); "done", "failed" or "skipped" (the job expired
    or already ended)."""
    from django.contrib.auth import get_user_model

    store = cache()
    state = store.get(_state_key(job_id))
    if not isinstance(state, dict) or state.get("state") in ("done", "failed"):
        return "skipped"
    saved = receipt_of(kind=LIST_IMPORT, job_id=job_id)
    if saved is not None:  # a delivery before this one saved it and died before storing the outcome
        return _finish(job_id, state, result=saved)
    with translation.override(state.get("language") or settings.LANGUAGE_CODE):
        given = store.get(_input_key(job_id))
        if given is None:
            return _finish(job_id, state, errors=[("", _("The list is no longer kept; import it again."))])
        store.set(_state_key(job_id), {**state, "state": "running"}, timeout=JOB_SECONDS)
        owner = get_user_model().objects.filter(pk=state["owner"]).first()
        if owner is None:
            return _finish(job_id, state, errors=[("", _("The import failed; nothing was saved."))])
        try:
            result = _import(owner, state["mode"], state["request"], given, job_id=job_id)
        except ArmyListError as exc:
            return _finish(job_id, state, errors=[(str(p), str(m)) for p, m in exc.errors])
        except SoftTimeLimitExceeded:
            return _finish(job_id, state, errors=[
                ("", _("The import took too long; nothing was saved. Try a shorter list."))])
        except Exception:
            logger.exception("list import %s failed", job_id)
            return _finish(job_id, state, errors=[("", _("The import failed; nothing was saved."))])
    return _finish(job_id, state, result=result)


def _import(owner: Any, mode: str, asked: dict[str, Any], given: dict[str, Any], *,
            job_id: str) -> dict[str, Any]:
    """What the request did before, on the worker: the outcome as plain data (the list's id and
    name, the new faction, the report; the list file for the API; a roster's units and
    differences). Saved once for the job (`_saved_once`); a link is fetched before that."""
    from armybuilder.lists.imports import import_source_of
    from rules.selectors import factions_visible_to

    if mode == "roster":
        return _saved_once(job_id, lambda: _roster(owner, asked, given))
    faction = None
    if asked.get("faction"):
        faction = factions_visible_to(user=owner).filter(pk=asked["faction"]).first()
        if faction is None:
            raise ImportProblem([("faction", _("No such faction."))])
    if mode == "api_json":
        data = _our_json(given["text"])
        return _saved_once(job_id, lambda: _direct(owner, data, faction))
    if given.get("data") is not None:
        source = Source(name=given.get("name") or "upload", data=given["data"])
    else:
        source = import_source_of(text=given.get("text") or "")  # an Army Forge link is fetched here
    chosen = asked.get("format") or "auto"
    if mode == "page" and not asked.get("dry_run") and is_our_json(source, chosen):
        data = _our_json(source.text)
        return _saved_once(job_id, lambda: _direct(owner, data, faction))
    return _saved_once(job_id, lambda: _any_format(owner, mode, asked, source, faction))


def _saved_once(job_id: str, save: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """`save()` and the job's receipt in one transaction (`rules.import_receipts`): its outcome
    as plain JSON data, or the outcome an earlier delivery of the job committed."""

    def in_one_transaction() -> dict[str, Any]:
        with transaction.atomic():
            # Plain JSON data: nothing of the importers' own classes goes into the cache.
            result = json.loads(json.dumps(save()))
            receipt_record(kind=LIST_IMPORT, job_id=job_id, result=result)
        return result

    return saved_once(kind=LIST_IMPORT, job_id=job_id, save=in_one_transaction)


def _direct(owner: Any, data: Any, faction: Any) -> dict[str, Any]:
    """Our JSON list file straight into a list."""
    from armybuilder.lists.interchange import army_list_import

    army_list = army_list_import(user=owner, data=data, faction=faction)
    return {"saved": True, "list_id": army_list.pk, "list_name": army_list.name, "direct": True}


def _roster(owner: Any, asked: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """A BattleScribe roster as a new list, as the roster page did in its request: the list, and
    each unit's price beside the roster's with what differs; the file's problems name it."""
    from armybuilder.lists.battlescribe_rosters import roster_import
    from rules.battlescribe.xml_reader import BattleScribeError
    from rules.models import GameSystem

    system = GameSystem.objects.filter(key=asked.get("system") or "").first()
    if system is None:
        raise ImportProblem([("system", _("system: choose a game system."))])
    try:
        imported = roster_import(owner=owner, system=system,
                                 source=SourceFile(given.get("name") or "roster.rosz", given["data"]))
    except BattleScribeError as exc:
        raise ImportProblem([("file", str(error)) for error in exc.errors]) from None
    return {"saved": True, "direct": True, "list_id": imported.army_list.pk,
            "list_name": imported.army_list.name,
            "roster": {"units": imported.units, "differences": [str(d) for d in imported.differences]}}


def _any_format(owner: Any, mode: str, asked: dict[str, Any], source: Source, faction: Any) -> dict[str, Any]:
    """Any other format through the importers, with the report (the list file for the API)."""
    from armybuilder.lists.imports import import_report_rows, import_source
    from armybuilder.lists.interchange import army_list_to_dict

    outcome = import_source(user=owner, source=source, format=asked.get("format") or "auto",
                            system_key=asked.get("system") or None, faction=faction,
                            dry_run=bool(asked.get("dry_run")))
    result: dict[str, Any] = {
        "saved": outcome.saved, "direct": False,
        "list_id": outcome.army_list.pk if outcome.saved and outcome.army_list is not None else None,
        "list_name": outcome.army_list.name if outcome.army_list is not None else "",
        "faction": outcome.as_dict().get("faction") if outcome.faction_plan is not None else None,
        "report": outcome.imported.report(),
        "rows": import_report_rows(outcome),
        "list_file": None,
    }
    if mode == "api_any" and outcome.army_list is not None:
        result["list_file"] = army_list_to_dict(army_list=outcome.army_list, units=outcome.units)
    return result


def _finish(job_id: str, state: dict[str, Any], *, result: dict[str, Any] | None = None,
            errors: list[tuple[str, str]] | None = None) -> str:
    """Store the outcome and drop the input (nothing else reads it)."""
    outcome = "failed" if errors else "done"
    store = cache()
    store.set(_state_key(job_id), {**state, "state": outcome, "result": result, "errors": errors or []},
              timeout=JOB_SECONDS)
    store.delete(_input_key(job_id))
    return outcome


def _our_json(text: str) -> Any:
    """Our JSON list file read from `text`; `ImportProblem` naming what stops it."""
    data, errors = json_file_errors(text)
    if errors:
        raise ImportProblem(errors)
    return data


def json_file_errors(text: str) -> tuple[Any, list[tuple[str, str]]]:
    """Our JSON list file read from `text`, or the problems that stop it (bad JSON, bad text)."""
    try:
        data = loads_bounded(text)
        problems = storage_problems(data)
    except json.JSONDecodeError as exc:
        return None, [
            (
                "",
                _("Not valid JSON: %(error)s (line %(line)d, column %(column)d).")
                % {"error": exc.msg, "line": exc.lineno, "column": exc.colno},
            )
        ]
    except JsonTooDeep:
        return None, [("", _("Not a list: the JSON is nested far too deeply."))]
    except ValueError as exc:  # an integer longer than Python converts, NaN, Infinity
        return None, [("", _("Not valid JSON: %(error)s.") % {"error": exc})]
    message = _("Text may not contain NUL characters or unpaired surrogates.")
    return data, [(path, message) for path in problems]


def is_our_json(source: Source, chosen: str) -> bool:
    """Whether the page's own JSON path reads this (our file, or JSON no other importer reads)."""
    if chosen == "json":
        return True
    if chosen != "auto" or source.data.lstrip()[:1] not in (b"{", b"["):
        return False
    if source.json is None:
        return True  # not valid JSON: that path says exactly why
    return not any(importer.detect(source) for importer in IMPORTERS if importer.key != "json")


__all__ = ["ImportThrottled", "ImportUnavailable", "ListImportJob", "list_import_state", "queue_list_import",
           "queue_roster_import", "run_list_import"]
