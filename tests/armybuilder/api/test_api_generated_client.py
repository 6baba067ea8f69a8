"""A client generated from the served schema by openapi-python-client runs the whole
mobile flow against a live server and a real worker (issue 17, item 7): token, catalogue,
create, add units, validate, estimate (create and poll), export, share, read shared
anonymously."""

from __future__ import annotations

import importlib
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.factories.army_lists import PASSWORD
from tests.factories.opr_documents import opr_unit

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

CONFIG = """\
post_hooks: []
project_name_override: armyclient
package_name_override: armyclient
content_type_overrides:
  application/pdf: application/octet-stream
  image/png: application/octet-stream
"""


def generate_client(base_url: str, where: Path) -> Any:
    """Generate the package from `/api/v1/schema/` and import it; no operation may be skipped."""
    schema = httpx.get(f"{base_url}/api/v1/schema/", params={"format": "json"}, timeout=30)
    schema.raise_for_status()
    (where / "schema.json").write_bytes(schema.content)
    (where / "config.yaml").write_text(CONFIG)
    tool = Path(sys.executable).with_name("openapi-python-client")
    run = subprocess.run([str(tool), "generate", "--path", str(where / "schema.json"),
                          "--output-path", str(where / "armyclient"), "--meta", "none",
                          "--config", str(where / "config.yaml")],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "WARNING" not in run.stdout + run.stderr, run.stdout + run.stderr
    sys.path.insert(0, str(where))
    for name in [n for n in sys.modules if n == "armyclient" or n.startswith("armyclient.")]:
        del sys.modules[name]
    return importlib.import_module("armyclient")


def poll(call: Any, done: Any, timeout: float = 60) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        response = call()
        if done(response) or time.monotonic() > deadline:
            return response
        time.sleep(0.3)


def test_the_generated_client_runs_the_mobile_flow(live_server: Any, celery_worker_process: Any, owner: Any,
                                                   units: dict[str, Any], tmp_path: Path) -> None:
    client_pkg = generate_client(live_server.url, tmp_path)
    from armyclient import AuthenticatedClient, Client
    from armyclient.api.auth import auth_token_create
    from armyclient.api.catalogue import systems_list, units_list
    from armyclient.api.estimates import estimates_create, estimates_retrieve
    from armyclient.api.exports import (
        lists_export_card_retrieve,
        lists_export_pdf_retrieve,
        lists_export_text_retrieve,
        lists_import_create,
        lists_imports_retrieve,
        shared_export_card_retrieve,
    )
    from armyclient.api.list_units import lists_units_clear_create, lists_units_create
    from armyclient.api.lists import (
        gallery_list,
        lists_audit_retrieve,
        lists_audit_unit_retrieve,
        lists_compare_retrieve,
        lists_create,
        lists_gauntlet_retrieve,
        lists_gauntlet_update,
        lists_locks_create,
        lists_locks_list,
        lists_partial_update,
        lists_retrieve,
        lists_share_create,
        lists_undo_create,
        lists_validate_retrieve,
    )
    from armyclient.api.shared_lists import shared_retrieve
    from armyclient.models import (
        ArmyListCreateRequest,
        ArmyListFile,
        CredentialsRequest,
        EstimateRequest,
        GauntletSettingsRequest,
        ListUnitAddRequest,
        PatchedArmyListWriteRequest,
    )

    assert client_pkg.__name__ == "armyclient"
    anonymous = Client(base_url=live_server.url, raise_on_unexpected_status=True)
    token = auth_token_create.sync(client=anonymous,
                                   body=CredentialsRequest(username="owner", password=PASSWORD))
    app = AuthenticatedClient(base_url=live_server.url, token=token.token, prefix="Token",
                              raise_on_unexpected_status=True)

    assert "opr" in [system.key for system in systems_list.sync(client=app)]
    catalogue = units_list.sync(client=app, page_size=50).results
    assert {unit.slug for unit in catalogue} == {"veterans", "recruits", "captain"}

    created = lists_create.sync_detailed(client=app, body=ArmyListCreateRequest(
        name="Generated", system="opr", points_limit=1000, faction=units["veterans"].faction_id))
    assert created.status_code == 201
    army_list, etag = created.parsed, created.headers["ETag"]
    for unit in catalogue[:2]:
        added = lists_units_create.sync_detailed(army_list.id, client=app,
                                                 body=ListUnitAddRequest(unit=unit.id), if_match=etag)
        assert added.status_code == 201
        etag = added.headers["ETag"]
    report = lists_validate_retrieve.sync(army_list.id, client=app)
    assert report.total_points == sum(unit.points for unit in catalogue[:2])

    # what the editor, the gallery, compare and the audit pages do (issue 36.5)
    first_unit = lists_retrieve.sync(army_list.id, client=app).units[0]
    cleared = lists_units_clear_create.sync_detailed(army_list.id, first_unit.id, client=app, if_match=etag)
    assert cleared.status_code == 200 and cleared.parsed.units[0].options.to_dict() == {}
    undone = lists_undo_create.sync_detailed(army_list.id, client=app, if_match=cleared.headers["ETag"])
    assert undone.status_code == 200 and undone.parsed.total_points == report.total_points
    public = lists_partial_update.sync_detailed(army_list.id, client=app, if_match=undone.headers["ETag"],
                                                body=PatchedArmyListWriteRequest(is_public=True))
    etag = public.headers["ETag"]
    gallery = gallery_list.sync(client=anonymous, search="Generated").results
    assert [row.id for row in gallery] == [army_list.id]
    compared = lists_compare_retrieve.sync(client=app, a=army_list.id, b=army_list.id)
    assert [side.army_list.name for side in compared.lists] == ["Generated", "Generated"]
    audit = lists_audit_retrieve.sync(army_list.id, client=app)
    assert [row.formula for row in audit.units] == [unit.points for unit in catalogue[:2]]
    breakdown = lists_audit_unit_retrieve.sync(army_list.id, first_unit.id, client=app)
    assert breakdown.row.formula == catalogue[0].points

    asked = estimates_create.sync_detailed(client=app, body=EstimateRequest.from_dict({
        "kind": "unit_vs_unit", "attacker": opr_unit("Shooters"),
        "defender": {"catalogue_unit": catalogue[0].id}}))
    assert asked.status_code == 202
    job = poll(lambda: estimates_retrieve.sync(asked.parsed.id, client=app),
               lambda job: job.status in ("done", "failed"))
    assert job.status == "done", job.error
    assert job.result is not None

    queued = lists_import_create.sync_detailed(client=app, body=ArmyListFile.from_dict({
        "format": 1, "system": "opr", "name": "Imported by the app", "points_limit": 500, "units": []}))
    assert queued.status_code == 202 and queued.headers["Location"] == queued.parsed.url
    imported = poll(lambda: lists_imports_retrieve.sync(queued.parsed.id, client=app),
                    lambda job: job.status in ("done", "failed"))
    assert imported.status == "done", imported.errors
    assert imported.result.saved and imported.result.list_url.endswith(f"/lists/{imported.result.list_id}")

    text = lists_export_text_retrieve.sync_detailed(army_list.id, client=app)
    assert text.status_code == 200 and "Generated" in text.content.decode()
    pdf = poll(lambda: lists_export_pdf_retrieve.sync_detailed(army_list.id, client=app),
               lambda response: response.status_code != 202)
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF-")

    shared_now = lists_share_create.sync_detailed(army_list.id, client=app, if_match=etag)
    share, etag = shared_now.parsed, shared_now.headers["ETag"]
    shared = shared_retrieve.sync(share.token, client=anonymous)
    assert shared.name == "Generated" and len(shared.units) == 2

    card = lists_export_card_retrieve.sync_detailed(army_list.id, client=app)
    assert card.status_code == 200 and card.content.startswith(b"\x89PNG")
    locked = lists_locks_create.sync_detailed(army_list.id, client=app, if_match=etag)
    assert locked.status_code == 201 and len(locked.parsed.fingerprint) == 19
    history = lists_locks_list.sync(army_list.id, client=app).results
    assert [lock.token for lock in history] == [locked.parsed.token]
    frozen = shared_retrieve.sync(locked.parsed.token, client=anonymous)
    assert frozen.fingerprint == locked.parsed.fingerprint and len(frozen.units) == 2
    frozen_card = shared_export_card_retrieve.sync_detailed(locked.parsed.token, client=anonymous)
    assert frozen_card.status_code == 200 and frozen_card.content.startswith(b"\x89PNG")

    gauntlet = poll(lambda: lists_gauntlet_retrieve.sync(army_list.id, client=app),
                    lambda answer: answer.state != "computing")
    assert gauntlet.state == "ready"
    assert [unit.name for unit in gauntlet.units] == [unit.name for unit in catalogue[:2]]
    assert gauntlet.opponents[0].name == "" and gauntlet.worth_unit == "points"
    first = gauntlet.units[0]
    assert first.explanation[0].startswith("Against the gauntlet, ") and first.offence_per_wound is None
    assert [chance.key for chance in first.combat_chances] == ["p_attacker_wins_melee"]
    assert first.combat_chances[0].side == "attacking" and 0 <= first.combat_chances[0].value <= 1
    opponents = GauntletSettingsRequest(reference=False, lists=[], locks=[locked.parsed.token])
    chosen = lists_gauntlet_update.sync_detailed(army_list.id, client=app, if_match=etag, body=opponents)
    assert chosen.status_code == 200 and chosen.parsed.settings.locks == [locked.parsed.token]


def test_the_generated_client_plays_a_short_game(live_server: Any, owner: Any, shared_list: Any,
                                                 tmp_path: Path) -> None:
    """Issue 44: the client generated from the schema starts a game of a list against a share
    link, taps a casualty, a state and a victory point, undoes one, syncs a tap made offline,
    asks the odds with the survivors and finishes the game."""
    generate_client(live_server.url, tmp_path)
    from armyclient import AuthenticatedClient, Client
    from armyclient.api.auth import auth_token_create
    from armyclient.api.games import (
        games_actions_create,
        games_create,
        games_finish_create,
        games_list,
        games_odds_create,
        games_retrieve,
        games_sync_create,
    )
    from armyclient.models import (
        CredentialsRequest,
        GameActionRequest,
        GameCreateRequestRequest,
        GameFinishRequestRequest,
        GameSyncRequestRequest,
        OddsRequestRequest,
    )

    anonymous = Client(base_url=live_server.url, raise_on_unexpected_status=True)
    token = auth_token_create.sync(client=anonymous,
                                   body=CredentialsRequest(username="owner", password=PASSWORD))
    app = AuthenticatedClient(base_url=live_server.url, token=token.token, prefix="Token",
                              raise_on_unexpected_status=True)
    link = f"{live_server.url}/lists/shared/{shared_list.share_token}/"
    game = games_create.sync(client=app, body=GameCreateRequestRequest.from_dict({
        "first": {"list": shared_list.pk}, "second": {"link": link}}))
    assert game.state["battle_round"] == 1 and len(game.armies) == 2
    for tap in ({"op": "lose", "side": 1, "unit": 0, "model": 0},
                {"op": "state", "side": 1, "unit": 0, "state": "shaken", "on": True},
                {"op": "vp", "side": 0, "delta": 1}, {"op": "vp", "side": 0, "delta": 1}, {"op": "undo"}):
        game = games_actions_create.sync(game.id, client=app, body=GameActionRequest.from_dict(tap))
    assert game.state["vp"] == [1, 0] and game.state["units"][1][0]["states"] == ["shaken"]
    game = games_sync_create.sync(game.id, client=app, body=GameSyncRequestRequest.from_dict(
        {"seen": game.version, "actions": [{"op": "battle_round", "value": "2"}]}))
    assert game.state["battle_round"] == 2 and game.version == 6
    odds = games_odds_create.sync(game.id, client=app, body=OddsRequestRequest.from_dict(
        {"attacker": [0, 1], "defender": [1, 0], "mode": "shooting"}))
    assert [d["status"] for d in odds.directions] == ["done", "refused"]  # a shaken unit cannot attack
    forward = odds.directions[0]
    assert forward["result"]["expected"]["kills"] == forward["summary"]["expected_kills"]
    finished = games_finish_create.sync(game.id, client=app, body=GameFinishRequestRequest.from_dict(
        {"result": "draw"}))
    assert finished.result == "draw" and finished.finished is not None
    assert games_retrieve.sync(game.id, client=app).actions[-1]["op"] == "odds"
    assert [g.id for g in games_list.sync(client=app).results] == [game.id]
