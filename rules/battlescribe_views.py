"""The BattleScribe upload page: a signed-in player imports catalogues into their own factions.

The view only translates HTTP: the files go to `rules.battlescribe_import.import_files` with
the user as owner (private factions, shareable like homebrew); bad files come back as a 400
page listing each problem with its file and element. The page works as a plain form post;
with JavaScript an XHR sends it instead and shows upload progress.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from rules.battlescribe.xml_reader import MAX_FILE_BYTES, MAX_FILES, BattleScribeError
from rules.battlescribe_import import MAX_UPLOAD_BYTES, import_files, read_uploads
from rules.catalogue_files import CatalogueFileError
from rules.models import GameSystem
from rules.systems.registry import get_system


@login_required
@require_http_methods(["GET", "POST"])
def battlescribe_upload(request: HttpRequest) -> HttpResponse:
    systems = list(GameSystem.objects.all())
    context = {
        "systems": systems,
        "max_file_mb": MAX_FILE_BYTES // (1024 * 1024),
        "max_files": MAX_FILES,
        "chosen": request.POST.get("system", ""),
    }
    if request.method == "GET":
        return render(request, "rules/battlescribe_upload.html", context)
    declared = request.META.get("CONTENT_LENGTH", "")
    if declared.isdigit() and int(declared) > MAX_UPLOAD_BYTES:
        context["errors"] = [
            _("The upload is larger than %(mb)s MB.") % {"mb": MAX_UPLOAD_BYTES // (1024 * 1024)}
        ]
        return render(request, "rules/battlescribe_upload.html", context, status=413)
    system_key = request.POST.get("system", "")
    uploads = request.FILES.getlist("files")
    errors: list[str] = []
    if not any(s.key == system_key for s in systems):
        errors.append(_("system: choose a game system."))
    if not uploads:
        errors.append(_("files: choose a game system file and its catalogues."))
    if not errors:
        try:
            result = import_files(system_key=system_key, files=read_uploads(uploads), owner=request.user)
        except (BattleScribeError, CatalogueFileError) as exc:
            errors = exc.errors
    if errors:
        context["errors"] = errors
        return render(request, "rules/battlescribe_upload.html", context, status=400)
    summary = result.summary()
    # The figures besides points the system's price reports (40k: Power), one column each.
    figures = get_system(system_key).price_figures
    context["figure_labels"] = [_(label) for label in figures.values()]
    for faction in summary["factions"]:
        for unit in faction["units"]:
            unit["figure_values"] = [unit.get(key) for key in figures]
    context["result"] = summary
    context["factions"] = result.factions
    context["system_key"] = system_key
    return render(request, "rules/battlescribe_upload.html", context)
