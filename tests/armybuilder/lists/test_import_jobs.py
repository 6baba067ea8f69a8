"""List imports on a real Celery worker: the page and the API answer before the import runs
(no list is written in the request), the page's htmx poll and the API's 202s follow the job to
the same outcome the synchronous import gave (the editor, the report, or every problem), a job
is shown to its owner only, and imports per account are rate-limited."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from armybuilder.lists.import_jobs import list_import_state
from armybuilder.models import ArmyList
from tests.factories.army_lists import INFANTRY, PASSWORD, make_user, opr_system, token_client
from tests.factories.list_imports import api_result, page_result

FIXTURES = Path(__file__).parent / "imports"
ARMY_FORGE = (FIXTURES / "army_forge_list.json").read_text()


def our_file(units: int = 1, name: str = "Imported") -> str:
    return json.dumps({"format": 1, "system": "opr", "name": name, "points_limit": 100_000,
                       "units": [{"unit": INFANTRY, "count": 1} for _ in range(units)]})


@pytest.fixture
def fresh_rates(settings: Any) -> Any:
    """A private throttle store, so earlier runs' counters do not count."""
    settings.CACHES = {**settings.CACHES, settings.API_THROTTLE_CACHE: {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "list-import-throttle-tests"}}
    from django.core.cache import caches

    caches[settings.API_THROTTLE_CACHE].clear()
    return settings


def poll_fragment(client: Any, location: str, *, seconds: float = 90) -> Any:
    """htmx polls of the job page until it answers with a redirect (the job ended)."""
    deadline = time.monotonic() + seconds
    answer = client.get(location, headers={"HX-Request": "true"})
    while "HX-Redirect" not in answer:
        assert time.monotonic() < deadline, answer.content
        fragment = answer.content.decode()
        assert 'hx-trigger="every 2s"' in fragment and "<html" not in fragment
        assert answer["Retry-After"] == "2"
        time.sleep(0.1)
        answer = client.get(location, headers={"HX-Request": "true"})
    return answer


@pytest.mark.django_db(transaction=True)
def test_the_worker_imports_what_the_page_and_the_api_queued(client: Any, celery_worker_process: Any) -> None:
    call_command("load_catalogue", verbosity=0)
    user = make_user("importer")
    assert client.login(username="importer", password=PASSWORD)

    # Our JSON file: the poll ends in the editor of the new list, as the synchronous post did.
    posted = client.post(reverse("lists:import"), {"text": our_file(3, "Worker list"), "action": "import"})
    assert posted.status_code == 302 and posted["Location"].startswith("/lists/import/jobs/")
    end = poll_fragment(client, posted["Location"])
    army_list = ArmyList.objects.get(owner=user, name="Worker list")
    assert end["HX-Redirect"] == reverse("lists:detail", args=[army_list.pk])
    assert army_list.units.count() == 3
    job_id = posted["Location"].rstrip("/").rsplit("/", 1)[-1]
    assert list_import_state(job_id=job_id, owner_id=user.pk).state == "done"

    # Another format: the poll ends on the job's page, which shows the report.
    posted = client.post(reverse("lists:import"), {"text": ARMY_FORGE, "action": "import"})
    end = poll_fragment(client, posted["Location"])
    assert end["HX-Redirect"] == posted["Location"]
    report = client.get(posted["Location"])
    assert report.status_code == 200 and "Ember Patrol" in report.content.decode()
    assert [u["source_points"] for u in report.context["report"]["units"]] == [215, 90, 215]

    # A problem: the form comes back with the text and the problem naming its field.
    bad = json.loads(ARMY_FORGE)
    bad["units"][0]["size"] = 0
    posted = client.post(reverse("lists:import"), {"text": json.dumps(bad), "action": "check"})
    failed = page_result(client, posted)
    assert failed.context["import_errors"] == [("units[0].size", "Must be a whole number from 1 to 1000.")]
    assert failed.context["form"]["text"].value() == json.dumps(bad)

    # The API: 202 with Location and Retry-After, then the list and the report.
    api = token_client(user)
    queued = api.post("/api/v1/lists/import", {"text": ARMY_FORGE}, format="multipart")
    assert queued.status_code == 202 and queued.json()["status"] in ("queued", "running")
    assert queued["Retry-After"] == "2"
    done = api_result(api, queued)
    assert done.status_code == 200 and done.json()["status"] == "done"
    result = done.json()["result"]
    assert ArmyList.objects.get(pk=result["list_id"], owner=user).name == "Ember Patrol"
    assert result["report"]["source_total"] == 520
    # A body the schema forbids is refused in the request; one only the worker can refuse (a
    # catalogue unit that does not exist) fails the job, naming the entry.
    refused = api.post("/api/v1/lists/import", json.loads(our_file(0, "")), format="json")
    assert refused.status_code == 400 and list(refused.json()["details"]) == ["name"]
    body = {**json.loads(our_file(0)), "units": [{"catalogue_unit": "no-such/unit"}]}
    failed = api_result(api, api.post("/api/v1/lists/import", body, format="json")).json()
    assert failed["status"] == "failed" and failed["errors"][0]["field"] == "units[0].catalogue_unit"


@pytest.mark.django_db(transaction=True)
def test_the_request_queues_without_importing(client: Any, django_assert_max_num_queries: Any) -> None:
    """No worker runs here: the post answers with the job, and nothing of the list is written
    (a 200-unit list costs the request a few queries, not 200 rows)."""
    call_command("load_catalogue", verbosity=0)
    make_user("queuer")
    assert client.login(username="queuer", password=PASSWORD)
    with django_assert_max_num_queries(12):
        posted = client.post(reverse("lists:import"), {"text": our_file(200), "action": "import"})
    assert posted.status_code == 302
    assert not ArmyList.objects.exists()
    waiting = client.get(posted["Location"])
    assert waiting.status_code == 200 and b'id="list-import-pending"' in waiting.content
    assert b'http-equiv="refresh"' in waiting.content  # without JavaScript the page reloads itself
    assert "The list is uploaded; the server reads and prices it" in waiting.content.decode()
    api = token_client(make_user("api-queuer"))
    with django_assert_max_num_queries(12):
        queued = api.post("/api/v1/lists/import", json.loads(our_file(200)), format="json")
    assert queued.status_code == 202 and api.get(queued["Location"]).status_code == 202
    assert not ArmyList.objects.exists()
    # A later test's worker takes these messages: their rows are gone with this test's database,
    # so it finds no job and does nothing.


@pytest.mark.django_db
def test_a_job_is_shown_only_to_its_owner(client: Any, inline_pdf_renders: None) -> None:
    opr_system()
    opr = make_user("owner-of-job")
    client.force_login(opr)
    location = client.post(reverse("lists:import"), {"text": our_file()})["Location"]
    api_location = token_client(opr).post("/api/v1/lists/import", json.loads(our_file()),
                                          format="json")["Location"]
    client.force_login(make_user("someone-else"))
    assert client.get(location).status_code == 404
    assert client.get(location, headers={"HX-Request": "true"}).status_code == 404
    other = token_client(make_user("another-app"))
    assert other.get(api_location).status_code == 404
    assert other.get("/api/v1/lists/imports/not-a-job").status_code == 404


@pytest.mark.django_db
def test_imports_per_account_are_rate_limited(client: Any, fresh_rates: Any,
                                              inline_pdf_renders: None) -> None:
    from tests.factories.throttle_rates import set_rates

    set_rates(fresh_rates, list_import="2/hour")
    opr_system()  # the API checks the file's game system before it counts the import
    user = make_user("eager")
    client.force_login(user)
    statuses = [client.post(reverse("lists:import"), {"text": our_file()}).status_code for _ in range(3)]
    assert statuses == [302, 302, 429]
    refused = client.post(reverse("lists:import"), {"text": our_file()})
    assert "You have started many imports lately" in refused.content.decode()
    assert int(refused["Retry-After"]) > 0
    api = token_client(user)  # the same account through the API
    answer = api.post("/api/v1/lists/import", json.loads(our_file()), format="json")
    assert answer.status_code == 429 and int(answer["Retry-After"]) > 0
    assert token_client(make_user("other")).post(
        "/api/v1/lists/import", json.loads(our_file()), format="json").status_code == 202


@pytest.mark.django_db
def test_what_can_be_told_at_once_is_a_4xx_without_a_job(client: Any, inline_pdf_renders: None) -> None:
    user = make_user("hasty")
    client.force_login(user)
    empty = client.post(reverse("lists:import"), {"text": "  ", "action": "import"})
    assert empty.status_code == 400 and "Paste a list or choose a file." in empty.content.decode()
    api = token_client(user)
    assert api.post("/api/v1/lists/import", [1, 2], format="json").status_code == 400
    assert api.post("/api/v1/lists/import", {"text": ""}, format="multipart").status_code == 400
    unknown = api.post("/api/v1/lists/import", {"text": our_file(), "faction": 999_999}, format="multipart")
    assert unknown.status_code == 400 and unknown.json()["details"] == {"faction": ["No such faction."]}
    assert not ArmyList.objects.exists()


@pytest.mark.django_db
def test_with_the_queue_down_nothing_is_stored_and_the_answer_is_503(client: Any) -> None:
    """A broker that does not answer: the page and the API say so (503), never a 500 or a hang,
    and the job's row is not kept (the state lives in Postgres: an unknown job is a 404)."""
    from armybuilder.models import BackgroundJob
    from tests.redis_server import point_celery_at

    opr_system()
    user = make_user("unlucky")
    client.force_login(user)
    api = token_client(user)
    with point_celery_at("redis://127.0.0.1:9/0"):
        page = client.post(reverse("lists:import"), {"text": our_file()})
        assert page.status_code == 503 and "Imports cannot be queued right now" in page.content.decode()
        assert api.post("/api/v1/lists/import", json.loads(our_file()), format="json").status_code == 503
    assert api.get("/api/v1/lists/imports/abc").status_code == 404
    assert not ArmyList.objects.exists() and not BackgroundJob.objects.exists()


@pytest.mark.django_db
def test_our_json_file_of_a_roster_list_comes_back_with_its_options_on_the_page_and_the_api(
    client: Any, inline_pdf_renders: None
) -> None:
    """A list of a faction imported with its BattleScribe source exports each unit with its
    selection tree, and its configuration's; the API's JSON body and the Import page (our file
    straight into a list) rebuild it from the trees, as `import_list` does: written as plain units
    its options were lost (a real Necrons list came back 5 points cheaper, every option gone), and
    without the configuration's trees a real Orks list lost its Battle Size and Clan Kultur rows."""
    from armybuilder.lists import services
    from armybuilder.lists.backends import engine_units
    from rules.battlescribe.xml_reader import SourceFile
    from rules.battlescribe_import import import_files
    from rules.models import UnitTemplate

    shapes = Path(__file__).parents[1] / "every_list" / "files"
    call_command("load_catalogue", verbosity=0)
    user = make_user("roster-json")
    files = [SourceFile(name, (shapes / name).read_bytes()) for name in ("nine.gst", "nine_dynasty.cat")]
    (faction,) = [f for f in import_files(system_key="wh40k9", files=files, owner=user).factions
                  if f.units.filter(name="Overlord").exists()]
    army_list = services.army_list_create(owner=user, system=faction.system, faction=faction,
                                          name="Dynasty", points_limit=2000)
    for name, wanted in (("Overlord", {"Hyperphase Glaive": 1, "Warlord": 1}), ("Warriors", {"Warrior": 15})):
        unit = services.army_list_add_unit(army_list=army_list, unit=UnitTemplate.objects.get(
            faction=faction, name=name), options={}, expected_version=army_list.version)
        army_list.refresh_from_db()
        unit.army_list = army_list
        keys = {o["label"]: o["key"] for o in unit.available_options}
        counts = {**unit.chosen_options, **{keys[label]: n for label, n in wanted.items()}}
        services.army_list_unit_set_options(
            list_unit=unit, options=counts, expected_version=army_list.version)
        army_list.refresh_from_db()

    def fielded(of: ArmyList) -> list[tuple[str, int, dict[str, int]]]:
        """Every row, the roster's configuration (battle size, dynasty) as chosen included."""
        rows = list(of.units.order_by("position"))
        return [(u.name, u.points, {k: n for k, n in u.chosen_options.items() if n}) for u in rows]

    before = fielded(army_list)
    assert any(options for _name, _points, options in before)
    assert engine_units.configuration(list(army_list.units.all()))
    api = token_client(user)
    exported = api.get(f"/api/v1/lists/{army_list.pk}/export/json").json()
    # the export is the shape the API documents for an import (no field its schema refuses)
    from jsonschema import Draft202012Validator

    from armybuilder.api.exports import army_file_schema

    assert exported["configuration"]
    Draft202012Validator(army_file_schema()).validate(exported)
    done = api_result(api, api.post("/api/v1/lists/import", exported, format="json")).json()
    assert done["status"] == "done", done
    from_api = ArmyList.objects.get(pk=done["result"]["list_id"])
    assert fielded(from_api) == before
    assert from_api.total_points == army_list.total_points

    client.force_login(user)
    exported["name"] = "From the page"
    posted = client.post(reverse("lists:import"), {"text": json.dumps(exported), "action": "import"})
    page_result(client, posted)
    from_page = ArmyList.objects.get(owner=user, name="From the page")
    assert fielded(from_page) == before
