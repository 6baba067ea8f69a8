"""A client generated from the served schema (openapi-python-client) imports an Army Forge
list with its report (a job on a real worker: 202, then the job's answer), downloads the list
back as Army Forge JSON, and imports its BattleScribe roster as a second list (the same list
import job: 202, then the list and each unit's price beside the roster's)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from tests.armybuilder.api.test_api_generated_client import generate_client, poll
from tests.armybuilder.lists.test_roster_import_jobs import roster_list
from tests.factories.army_lists import PASSWORD

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
LIST = (Path(__file__).parents[1] / "lists" / "imports" / "army_forge_list.json").read_bytes()


def test_generated_client_imports_and_exports_army_forge(
    live_server: Any, owner: Any, tmp_path: Path, celery_worker_process: Any
) -> None:
    call_command("load_catalogue", verbosity=0)
    generate_client(live_server.url, tmp_path)
    from armyclient import AuthenticatedClient, Client
    from armyclient.api.auth import auth_token_create
    from armyclient.api.exports import (
        lists_export_army_forge_retrieve,
        lists_export_rosz_retrieve,
        lists_import_create,
        lists_imports_retrieve,
    )
    from armyclient.api.lists import battlescribe_rosters_create
    from armyclient.models import (
        BattleScribeRosterRequestRequest,
        CredentialsRequest,
        ImportRequestRequest,
        ImportResult,
        ListImportJob,
    )
    from armyclient.types import File

    anonymous = Client(base_url=live_server.url, raise_on_unexpected_status=True)
    token = auth_token_create.sync(
        client=anonymous, body=CredentialsRequest(username="owner", password=PASSWORD)
    )
    app = AuthenticatedClient(
        base_url=live_server.url, token=token.token, prefix="Token", raise_on_unexpected_status=True
    )
    answer = lists_import_create.sync_detailed(
        client=app, body=ImportRequestRequest(file=File(payload=io.BytesIO(LIST), file_name="list.json"))
    )
    assert answer.status_code == 202
    job = poll(lambda: lists_imports_retrieve.sync(answer.parsed.id, client=app),
               lambda job: job.status in ("done", "failed"))
    assert job.status == "done", job.errors
    result = job.result
    assert isinstance(result, ImportResult)
    assert result.report.source_total == 520
    assert [u.source_points for u in result.report.units] == [215, 90, 215]
    list_id = result.list_id
    exported = lists_export_army_forge_retrieve.sync_detailed(list_id, client=app)
    assert exported.status_code == 200
    document = json.loads(exported.content)
    assert [u["cost"] for u in document["units"]] == [u.formula_points for u in result.report.units]

    # A BattleScribe roster (a 40k list of an imported catalogue, exported as .rosz) comes back
    # as a second list through the same list import job.
    grimdark = roster_list(owner)
    rosz = lists_export_rosz_retrieve.sync_detailed(grimdark.pk, client=app)
    assert rosz.status_code == 200
    queued = battlescribe_rosters_create.sync_detailed(client=app, body=BattleScribeRosterRequestRequest(
        system="wh40k9", file=File(payload=io.BytesIO(rosz.content), file_name="grimdark.rosz")))
    assert queued.status_code == 202 and isinstance(queued.parsed, ListImportJob)
    assert queued.headers["Location"] == queued.parsed.url
    job = poll(lambda: lists_imports_retrieve.sync(queued.parsed.id, client=app),
               lambda job: job.status in ("done", "failed"))
    assert job.status == "done", job.errors
    assert job.result.list_id not in (None, list_id, grimdark.pk) and job.result.report is None
    roster = job.result.roster
    assert roster.name == "Round trip" and roster.differences == []
    assert [(u.name, u.points, u.roster_points) for u in roster.units] == [
        ("Tactical Squad", 127, 127.0), ("Captain", 110, 110.0)]
