"""List imports run by a Celery worker, not in the web request.

A 1.8 MB list took 27.7 s of a gunicorn thread on a loaded server (reading, checking, pricing
and writing 200 units), near the 30 s timeout; a link to Army Forge waited on another site
inside the request too. Now the Import page and `POST /api/v1/lists/import` only check what
is cheap (form fields, sizes, an empty box, a JSON body that parses) and store the input; the
worker does the rest, exactly as the request did before:

- `queue_list_import` counts the import against the account's `list_import` rate (the shared
  throttle cache, like every other rate) and stores the input and the job as a durable job
  (`armybuilder.jobs`: a Postgres row and its input rows; the broker's message holds only the
  job's id), queued on the `pdf` queue (file work, never in front of estimates);
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

With the database or the queue down the caller gets `ImportUnavailable` (a 503), never a hung
request; nothing was stored then. A database error on the worker is retried, a lost message or
worker is sent again by the reconciliation (`armybuilder.jobs`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from armybuilder import jobs
from armybuilder.lists.errors import ArmyListError
from armybuilder.lists.importers import IMPORTERS, ImportProblem, Source
from armybuilder.untrusted_json import JsonTooDeep, loads_bounded, storage_problems
from rules.battlescribe.xml_reader import SourceFile
from rules.import_queue import ImportThrottled, ImportUnavailable, wait_before
from rules.import_receipts import LIST_IMPORT, receipt_of, receipt_record, saved_once

logger = logging.getLogger(__name__)

#: The kind of durable job (`armybuilder.jobs`) a list import is.
KIND = "list_import"
#: Stored in English, translated when shown.
FAILED = gettext_noop("The import failed; nothing was saved.")
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
    body) in a durable job (`armybuilder.jobs`) and queue its import for `owner_id`; the job.

    Raises `ImportThrottled` past the account's rate, `ImportUnavailable` with the database or
    the queue down (nothing was stored then).
    """
    assert mode in MODES
    try:
        wait = wait_before("list_import", owner_id)
    except Exception as exc:
        raise ImportUnavailable(str(exc)) from exc
    if wait is not None:
        raise ImportThrottled(wait)
    asked = {"format": format, "system": system_key or "", "faction": faction_id, "dry_run": dry_run,
             "name": name, "text": text if data is None and mode == "page" else ""}
    try:
        job = jobs.job_create(kind=KIND, owner_id=owner_id, language=language,
                              request={"mode": mode, "asked": asked},
                              inputs=[jobs.Upload(name=name, data=data, text=text)])
    except jobs.JobsUnavailable as exc:
        raise ImportUnavailable(str(exc)) from exc
    return _as_import(job)


def queue_roster_import(*, owner_id: int, language: str, source: SourceFile,
                        system_key: str) -> ListImportJob:
    """Queue a BattleScribe roster's import as a new list of `owner_id` in the system
    `system_key` (the roster page's and `POST /battlescribe/rosters`'s job); the job, queued.

    The file's size was checked by the caller (`rules.battlescribe_import.read_uploads`). Raises
    `ImportThrottled` past the account's rate, `ImportUnavailable` with the queue down."""
    return queue_list_import(owner_id=owner_id, language=language, mode="roster", name=source.name,
                             data=source.data, format="battlescribe", system_key=system_key)


def list_import_state(*, job_id: str, owner_id: int) -> ListImportJob | None:
    """The job as its owner sees it; None when it is unknown, deleted or someone else's.

    Raises `ImportUnavailable` with the database down."""
    try:
        job = jobs.job_of(job_id=job_id, owner_id=owner_id, kind=KIND)
    except jobs.JobsUnavailable as exc:
        logger.warning("could not read the list import %s: %s", job_id, exc)
        raise ImportUnavailable(str(exc)) from exc
    return None if job is None else _as_import(job)


def _as_import(job: Any) -> ListImportJob:
    errors = [(str(p), str(m)) for p, m in job.errors or []]
    if job.state == "failed" and not errors:
        errors = [("", _(job.reason or FAILED))]
    end = job.finished or timezone.now()
    return ListImportJob(id=job.pk, state=job.state, mode=job.request.get("mode", "page"),
                         request=dict(job.request.get("asked") or {}), result=job.result, errors=errors,
                         elapsed=round(max(0.0, (end - job.created).total_seconds()), 1))


def run_list_import(job: Any, inputs: list[Any]) -> dict[str, Any]:
    """Import the job's input (on the worker, `armybuilder.jobs.run_job`): the outcome, or
    `JobFailed` with the problems, each naming its line or field, in the uploader's language.
    A database error is left to the job task, which retries it."""
    saved = receipt_of(kind=LIST_IMPORT, job_id=job.pk)
    if saved is not None:  # a delivery before this one saved it and died before storing the outcome
        return saved
    mode, asked = job.request["mode"], job.request["asked"]
    with translation.override(job.language or settings.LANGUAGE_CODE):
        if not inputs:
            raise jobs.JobFailed([("", _("The list is no longer kept; import it again."))])
        given = {"name": inputs[0].name, "text": inputs[0].text,
                 "data": bytes(inputs[0].data) if inputs[0].data is not None else None}
        try:
            return _import(job.owner, mode, asked, given, job_id=job.pk)
        except ArmyListError as exc:
            raise jobs.JobFailed([(str(p), str(m)) for p, m in exc.errors]) from None
        except SoftTimeLimitExceeded:
            raise jobs.JobFailed([
                ("", _("The import took too long; nothing was saved. Try a shorter list."))]) from None
        except (OperationalError, InterfaceError):
            raise  # the database went away: the task retries the job
        except Exception:
            logger.exception("list import %s failed", job.pk)
            raise jobs.JobFailed([("", _(FAILED))]) from None


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
    """Our JSON list file straight into a list, read as `import_list` reads it
    (`imports.import_source`): a roster list's units, each with its selection tree, of a faction
    imported with its BattleScribe source, are rebuilt by the roster engine from the trees. Read
    as plain units they came back without their options and cheaper (the unit format cannot say
    what the engine prices). A faction chosen of another system than the file's is refused by
    the plain import, which names the problem."""
    from armybuilder.lists.importers import Source
    from armybuilder.lists.imports import import_source
    from armybuilder.lists.interchange import army_list_import

    if faction is not None and (not isinstance(data, dict) or data.get("system") != faction.system.key):
        army_list = army_list_import(user=owner, data=data, faction=faction)
    else:
        source = Source(name="list.json", data=json.dumps(data).encode())
        army_list = import_source(user=owner, source=source, format="json", faction=faction).army_list
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
            "roster": {"units": imported.units, "configuration": imported.configuration,
                       "differences": [str(d) for d in imported.differences]}}


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


jobs.register(KIND, run_list_import, soft_time_limit=settings.LIST_IMPORT_TIME_LIMIT)
