"""The BattleScribe upload page: a signed-in player imports catalogues into their own factions.

The view only translates HTTP. A post is checked for what can be told at once (system, files,
their sizes), then the files are stored and their import queued on the worker
(`rules.battlescribe_jobs.queue_import`); the post redirects to the job's page, which shows its
state and polls it with htmx until it is done: the imported units and the report, or each
problem with its file and element. The page works as a plain form post (without JavaScript the
job page reloads itself while the import runs); with JavaScript an XHR sends the form instead
and shows upload progress.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from rules.battlescribe.xml_reader import MAX_FILE_BYTES, MAX_FILES, BattleScribeError
from rules.battlescribe_import import MAX_UPLOAD_BYTES, read_uploads
from rules.battlescribe_jobs import (
    RETRY_AFTER,
    ImportJob,
    ImportThrottled,
    ImportUnavailable,
    import_state,
    queue_import,
)
from rules.models import GameSystem
from rules.systems.registry import get_system

PAGE = "rules/battlescribe_upload.html"


def _context(request: HttpRequest) -> dict[str, Any]:
    return {
        "systems": list(GameSystem.objects.all()),
        "max_file_mb": MAX_FILE_BYTES // (1024 * 1024),
        "max_files": MAX_FILES,
        "chosen": request.POST.get("system", ""),
    }


@login_required
@require_http_methods(["GET", "POST"])
def battlescribe_upload(request: HttpRequest) -> HttpResponse:
    context = _context(request)
    if request.method == "GET":
        return render(request, PAGE, context)
    declared = request.META.get("CONTENT_LENGTH", "")
    if declared.isdigit() and int(declared) > MAX_UPLOAD_BYTES:
        context["errors"] = [
            _("The upload is larger than %(mb)s MB.") % {"mb": MAX_UPLOAD_BYTES // (1024 * 1024)}
        ]
        return render(request, PAGE, context, status=413)
    system_key = request.POST.get("system", "")
    uploads = request.FILES.getlist("files")
    errors: list[str] = []
    if not any(s.key == system_key for s in context["systems"]):
        errors.append(_("system: choose a game system."))
    if not uploads:
        errors.append(_("files: choose a game system file and its catalogues."))
    if not errors:
        try:
            job = queue_import(system_key=system_key, files=read_uploads(uploads), owner_id=request.user.pk,
                               language=get_language())
        except BattleScribeError as exc:
            errors = exc.errors
        except ImportThrottled as exc:
            context["errors"] = [
                _("You have started many imports lately; try again in %(minutes)d min.")
                % {"minutes": max(1, round(exc.wait / 60))}
            ]
            response = render(request, PAGE, context, status=429)
            response["Retry-After"] = str(int(exc.wait))
            return response
        except ImportUnavailable:
            context["errors"] = [
                _("Imports cannot be queued right now; nothing was stored. Try again in a minute.")
            ]
            return render(request, PAGE, context, status=503)
    if errors:
        context["errors"] = errors
        return render(request, PAGE, context, status=400)
    return redirect("rules:battlescribe_job", job_id=job.id)


@login_required
@require_http_methods(["GET"])
def battlescribe_job(request: HttpRequest, job_id: str) -> HttpResponse:
    """The import's state (queued, running), or its result; htmx polls get only the fragment."""
    try:
        job = import_state(job_id=job_id, owner_id=request.user.pk)
    except ImportUnavailable:
        context = _context(request)
        context["errors"] = [_("The import's state cannot be read right now; try again in a minute.")]
        return render(request, PAGE, context, status=503)
    if job is None:
        raise Http404(_("No such import (it is kept for an hour)."))
    context = {**_context(request), **job_context(job), "chosen": job.system}
    template = "rules/_battlescribe_job.html" if getattr(request, "htmx", False) else PAGE
    response = render(request, template, context)
    if not job.finished:
        response["Retry-After"] = str(RETRY_AFTER)
        response["Cache-Control"] = "no-store"
    return response


def job_context(job: ImportJob) -> dict[str, Any]:
    """What the page shows of a job: its state, and the result's units with the system's
    figures besides points (40k: Power), one column each."""
    context: dict[str, Any] = {"job": job, "retry_after": RETRY_AFTER, "system_key": job.system}
    if job.state == "failed":
        context["job_errors"] = [_(error) for error in job.errors]
    if job.state == "done" and job.summary is not None:
        summary = job.summary
        figures = get_system(job.system).price_figures
        context["figure_labels"] = [_(label) for label in figures.values()]
        for faction in summary["factions"]:
            for unit in faction["units"]:
                unit["figure_values"] = [unit.get(key) for key in figures]
        context["result"] = summary
    return context
