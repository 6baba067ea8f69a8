"""Rosters: any list exported as a .rosz that validates against the roster XML Schema, and a
round trip export → import that gives back the same units, options and points.

The page and the API queue the import as a list import (`armybuilder.lists.import_jobs`); here
Celery's eager mode runs it inside the post. `test_roster_import_jobs.py` runs it on a worker."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from lxml import etree

from armybuilder.lists.battlescribe_rosters import roster_import
from armybuilder.lists.services import army_list_add_unit, army_list_create
from armybuilder.models import ArmyList, BackgroundJob
from rules.battlescribe.xml_reader import BattleScribeError, SourceFile
from rules.battlescribe_import import MAX_UPLOAD_BYTES
from rules.models import Faction, GameSystem
from tests.factories.army_lists import token_client
from tests.factories.list_imports import api_result, page_result
from tests.rules.battlescribe.files import BILLION_LAUGHS, FILES, GRIMDARK

PASSWORD = "a-long-test-password"
SCHEMA = etree.XMLSchema(etree.parse(str(FILES / "roster.xsd")))


@pytest.fixture
def army(db, django_user_model, client):
    call_command("load_catalogue", verbosity=0)
    call_command("import_battlescribe", *[str(FILES / n) for n in GRIMDARK], system="wh40k9", verbosity=0)
    user = django_user_model.objects.create_user("player", password=PASSWORD)
    assert client.login(username="player", password=PASSWORD)
    faction = Faction.objects.get(slug="bs-cat-marines", owner=None)
    system = GameSystem.objects.get(key="wh40k9")
    army_list = army_list_create(
        owner=user, system=system, faction=faction, name="Round trip", points_limit=1000
    )
    units = {u.slug: u for u in faction.units.all()}
    army_list_add_unit(
        army_list=army_list,
        unit=units["bs-se-tactical"],
        options={"more-marine": 2, "opt-se-plasma": 1, "opt-se-sword": 1},
        expected_version=None,
    )
    army_list_add_unit(
        army_list=army_list, unit=units["bs-se-captain"], options={"opt-se-jump": 1}, expected_version=None
    )
    army_list.refresh_from_db()
    return user, system, army_list


def rosz_member(data: bytes) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        (name,) = archive.namelist()
        assert name == "round-trip.ros"
        return archive.read(name)


def test_export_is_a_valid_rosz(client, army):
    _user, _system, army_list = army
    response = client.get(reverse("lists:export_rosz", args=[army_list.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="round-trip.rosz"'
    document = etree.fromstring(rosz_member(response.content))
    SCHEMA.assertValid(document)
    ns = {"bs": "http://www.battlescribe.net/schema/rosterSchema"}
    # (4+2)×15 + 15 + 2 + 15 + 5 = 127 (Tactical) and 85 + 25 = 110 (Captain)
    assert document.xpath("/bs:roster/bs:costs/bs:cost[@name='pts']/@value", namespaces=ns) == ["237.0"]
    # entry ids as BattleScribe builds them: the link's id, then its target's
    assert document.xpath("//bs:force/bs:selections/bs:selection/@entryId", namespaces=ns) == [
        "el-tactical::se-tactical", "se-captain",
    ]
    page = client.get(reverse("lists:detail", args=[army_list.pk])) if _has_detail() else None
    if page is not None:
        assert reverse("lists:export_rosz", args=[army_list.pk]).encode() in page.content


def _has_detail() -> bool:
    try:
        reverse("lists:detail", args=[1])
    except Exception:
        return False
    return True


def test_round_trip_export_then_import(client, army):
    user, system, army_list = army
    exported = client.get(reverse("lists:export_rosz", args=[army_list.pk])).content
    result = roster_import(owner=user, system=system, source=SourceFile("round-trip.rosz", exported))
    assert result.differences == []
    assert result.units == [
        {"name": "Tactical Squad", "points": 127, "roster_points": 127.0},
        {"name": "Captain", "points": 110, "roster_points": 110.0},
    ]
    imported = result.army_list
    assert imported.name == "Round trip" and imported.points_limit == 1000
    # the imported faction's lists are rosters of the engine: the same selections come back
    originals = list(army_list.units.order_by("position"))
    def shape(units):
        return [(u.name, u.selection, u.chosen_options, u.points) for u in units]

    assert shape(imported.units.order_by("position")) == shape(originals)
    assert [u.points for u in originals] == [127, 110]


def test_differences_are_reported(army):
    user, system, _list = army
    ros = (
        b'<roster id="r" name="Odd" battleScribeVersion="2.03" gameSystemId="g" gameSystemName="G" '
        b'gameSystemRevision="1" xmlns="http://www.battlescribe.net/schema/rosterSchema"><forces>'
        b'<force id="f" name="F" entryId="x" catalogueId="c" catalogueRevision="1" '
        b'catalogueName="Test Marines">'
        b'<selections><selection id="s1" name="Captain" entryId="se-captain" number="1" type="model">'
        b'<costs><cost name="pts" typeId="p" value="90.0"/></costs></selection>'
        b'<selection id="s2" name="Dreadnought" entryId="nope" number="1" type="model">'
        b'<costs><cost name="pts" typeId="p" value="150.0"/></costs></selection>'
        b"</selections></force></forces></roster>"
    )
    result = roster_import(owner=user, system=system, source=SourceFile("odd.ros", ros))
    # rebuilt as the file has it: a Captain without the relic blade he must take costs 80
    assert result.differences == [
        "Dreadnought: no such unit in your catalogue of this system; left out",
        "Captain: 80 pts here, 90.0 in the roster",
    ]


def test_a_declared_total_its_selections_do_not_make_is_reported(army):
    """Issue 40: the roster says 480 pts, its one Captain costs 90 in the file."""
    user, system, _list = army
    ros = (
        b'<roster id="r" name="Odd" battleScribeVersion="2.03" gameSystemId="g" gameSystemName="G" '
        b'gameSystemRevision="1" xmlns="http://www.battlescribe.net/schema/rosterSchema">'
        b'<costs><cost name="pts" typeId="p" value="480.0"/>'
        b'<cost name=" PL" typeId="pl" value="9.0"/></costs>'
        b'<forces><force id="f" name="F" entryId="x" catalogueId="c" catalogueRevision="1" '
        b'catalogueName="Test Marines">'
        b'<selections><selection id="s1" name="Captain" entryId="se-captain" number="1" type="model">'
        b'<costs><cost name="pts" typeId="p" value="90.0"/></costs></selection>'
        b"</selections></force></forces></roster>"
    )
    result = roster_import(owner=user, system=system, source=SourceFile("odd.ros", ros))
    assert result.differences == [
        "The roster states a total of 480 pts, but its selections cost 90 pts; the list is priced "
        "from its selections.",
        "Captain: 80 pts here, 90.0 in the roster",
    ]
    # a total that its selections make is not mentioned
    same = ros.replace(b'value="480.0"', b'value="90.0"')
    result = roster_import(owner=user, system=system, source=SourceFile("same.ros", same))
    assert result.differences == ["Captain: 80 pts here, 90.0 in the roster"]


def test_hostile_roster_refused(army):
    user, system, _list = army
    with pytest.raises(BattleScribeError) as caught:
        roster_import(owner=user, system=system, source=SourceFile("bad.ros", BILLION_LAUGHS))
    assert caught.value.errors[0].startswith("bad.ros: refused: DTDForbidden")


def test_api_roster_import_and_export(army, inline_pdf_renders, django_user_model):
    user, _system, army_list = army
    api = token_client(user)
    exported = api.get(f"/api/v1/lists/{army_list.pk}/export/rosz")
    assert exported.status_code == 200
    response = api.post(
        "/api/v1/battlescribe/rosters",
        {"system": "wh40k9", "file": SimpleUploadedFile("list.rosz", exported.content)},
        format="multipart",
    )
    assert response.status_code == 202, response.json()
    assert response["Location"].startswith("http://testserver/api/v1/lists/imports/")
    done = api_result(api, response)
    assert done.json()["status"] == "done"
    result = done.json()["result"]
    new_list = ArmyList.objects.exclude(pk=army_list.pk).get()
    assert (result["list_id"], result["saved"]) == (new_list.pk, True)
    assert result["list_url"] == f"http://testserver/api/v1/lists/{new_list.pk}"
    assert result["roster"] == {
        "name": "Round trip",
        "units": [{"name": "Tactical Squad", "points": 127, "roster_points": 127.0},
                  {"name": "Captain", "points": 110, "roster_points": 110.0}],
        "configuration": [],
        "differences": [],
    }
    assert result["report"] is None and result["list_file"] is None
    other = django_user_model.objects.create_user("someone-else", password=PASSWORD)
    assert token_client(other).get(response["Location"]).status_code == 404  # its owner's only


def test_api_roster_refusals_before_anything_is_queued(army, monkeypatch):
    """What the request can tell at once is a 4xx naming the field, and no job is queued (no
    worker runs here, nor eager mode: a queued job would never end)."""
    user, _system, army_list = army
    api = token_client(user)
    unknown = api.post("/api/v1/battlescribe/rosters",
                       {"system": "nope", "file": SimpleUploadedFile("list.rosz", b"PK")}, format="multipart")
    assert unknown.status_code == 400 and unknown.json()["details"] == {"system": ["unknown game system"]}
    missing = api.post("/api/v1/battlescribe/rosters", {"system": "wh40k9"}, format="multipart")
    assert missing.status_code == 400 and "file" in missing.json()["details"]
    too_big = api.generic("POST", "/api/v1/battlescribe/rosters", b"",
                          content_type="multipart/form-data; boundary=x",
                          CONTENT_LENGTH=str(MAX_UPLOAD_BYTES + 1))
    assert too_big.status_code == 413
    monkeypatch.setattr("rules.battlescribe_import.MAX_FILE_BYTES", 10)
    big_file = api.post("/api/v1/battlescribe/rosters",
                        {"system": "wh40k9", "file": SimpleUploadedFile("list.rosz", b"PK" * 6)},
                        format="multipart")
    assert big_file.status_code == 400
    assert big_file.json()["details"] == {"file": ["list.rosz: the file is 12 bytes; the limit is 10 bytes"]}
    assert list(ArmyList.objects.values_list("pk", flat=True)) == [army_list.pk]



def test_roster_import_page(client, army, inline_pdf_renders):
    _user, _system, army_list = army
    exported = client.get(reverse("lists:export_rosz", args=[army_list.pk])).content
    assert client.get(reverse("lists:import_rosz")).status_code == 200
    response = client.post(
        reverse("lists:import_rosz"), {"system": "wh40k9", "file": SimpleUploadedFile("mine.rosz", exported)}
    )
    editor = page_result(client, response)
    new_list = ArmyList.objects.exclude(pk=army_list.pk).get()
    assert editor.status_code == 302 and editor["Location"] == reverse("lists:detail", args=[new_list.pk])
    assert (new_list.owner, new_list.total_points) == (army_list.owner, 237)
    shown = client.get(editor["Location"])
    assert [str(m) for m in shown.context["messages"]] == ["Roster imported as a list."]
    # Two polls in flight when the job ends, then a reload of the job's address: the editor
    # says it once (a loaded server showed it twice).
    job_page = response["Location"]
    for _poll in range(2):
        assert client.get(job_page, HTTP_HX_REQUEST="true")["HX-Redirect"] == editor["Location"]
    assert client.get(job_page)["Location"] == editor["Location"]
    again = client.get(editor["Location"])
    assert [str(m) for m in again.context["messages"]] == []
    # A file that cannot even be unzipped is refused in the request (issue 38: an upload's
    # shape and size are checked before a job is stored), the form again naming the file.
    jobs_before = BackgroundJob.objects.count()
    bad = client.post(
        reverse("lists:import_rosz"),
        {"system": "wh40k9", "file": SimpleUploadedFile("x.rosz", b"PKnot a zip")},
    )
    assert bad.status_code == 400 and bad.context["errors"] == [
        "x.rosz: not a readable zip archive (File is not a zip file)"]
    assert bad.context["chosen"] == "wh40k9"
    assert "x.rosz: not a readable zip archive" in bad.content.decode()
    assert "The roster was not imported." in bad.content.decode()
    assert BackgroundJob.objects.count() == jobs_before
    # A readable file that is not a roster: the job fails, and the job's page is the form again.
    failed = page_result(client, client.post(
        reverse("lists:import_rosz"), {"system": "wh40k9", "file": SimpleUploadedFile("x.ros", b"<roster")}))
    assert failed.status_code == 200 and failed.context["errors"] == [
        "x.ros: line 1, column 0: malformed XML (unclosed token: line 1, column 0)"]
    assert failed.context["chosen"] == "wh40k9"
    assert "The roster was not imported." in failed.content.decode()
    assert ArmyList.objects.count() == 2


def test_roster_page_refusals_before_anything_is_queued(client, army):
    """No system or no file is a 400 naming the field; nothing is queued (no worker runs)."""
    no_system = client.post(reverse("lists:import_rosz"), {"file": SimpleUploadedFile("x.rosz", b"PK")})
    assert no_system.status_code == 400 and no_system.context["errors"] == ["system: choose a game system."]
    no_file = client.post(reverse("lists:import_rosz"), {"system": "wh40k9"})
    assert no_file.status_code == 400 and no_file.context["errors"] == ["file: choose a .ros or .rosz file."]
    assert ArmyList.objects.count() == 1


def test_export_of_a_list_without_points_writes_no_cost_limit(client, army):
    """AoS (`points_sized` False) sizes lists by models: its stored points limit is no limit."""
    user, _system, _army_list = army
    aos = GameSystem.objects.get(key="aos1")
    faction = Faction.objects.filter(system=aos, owner=None).first()
    army_list = army_list_create(
        owner=user, system=aos, faction=faction, name="Round trip", points_limit=2000
    )
    response = client.get(reverse("lists:export_rosz", args=[army_list.pk]))
    assert response.status_code == 200
    document = etree.fromstring(rosz_member(response.content))
    SCHEMA.assertValid(document)
    ns = {"bs": "http://www.battlescribe.net/schema/rosterSchema"}
    assert document.xpath("//bs:costLimits", namespaces=ns) == []
    wh40k = client.get(reverse("lists:export_rosz", args=[_army_list.pk]))
    limit = etree.fromstring(rosz_member(wh40k.content)).xpath("//bs:costLimit/@value", namespaces=ns)
    assert limit == ["1000.0"]


def test_a_roster_imported_under_the_wrong_system_is_refused_and_saves_nothing(
    client, army, inline_pdf_renders
):
    """Issue 30: a 40k roster imported as WHFB 6th made an empty list that passed every rule."""
    user, _system, army_list = army
    exported = client.get(reverse("lists:export_rosz", args=[army_list.pk])).content
    whfb = GameSystem.objects.get(key="whfb6")
    with pytest.raises(BattleScribeError) as caught:
        roster_import(owner=user, system=whfb, source=SourceFile("mine.rosz", exported))
    [message] = caught.value.errors
    assert message.startswith("mine.rosz: this roster is for ")
    assert message.endswith(
        "and none of its units is in your catalogue of Warhammer Fantasy Battle, 6th edition: choose "
        "the roster's game system, or import its catalogues first."
    )
    assert list(ArmyList.objects.values_list("pk", flat=True)) == [army_list.pk]
    page = page_result(client, client.post(
        reverse("lists:import_rosz"), {"system": "whfb6", "file": SimpleUploadedFile("mine.rosz", exported)}
    ))
    assert page.context["errors"] == [message]
    assert "none of its units is in your catalogue of Warhammer Fantasy Battle, 6th edition" in (
        page.content.decode().replace("&#x27;", "'")
    )
    api = token_client(user)
    failed = api_result(api, api.post(
        "/api/v1/battlescribe/rosters",
        {"system": "whfb6", "file": SimpleUploadedFile("mine.rosz", exported)},
        format="multipart",
    )).json()
    assert failed["status"] == "failed"
    assert failed["errors"] == [{"field": "file", "message": message}]
    assert ArmyList.objects.count() == 1


def test_the_general_import_refuses_a_roster_of_no_known_unit_as_the_roster_route_does(
    client, army, inline_pdf_renders
):
    """The general import (`/lists/import`, `POST /api/v1/lists/import`) saved such a roster as an
    empty list; it says what the roster route says, shows the form again and saves nothing."""
    user, _system, army_list = army
    exported = client.get(reverse("lists:export_rosz", args=[army_list.pk])).content
    with pytest.raises(BattleScribeError) as caught:
        roster_import(owner=user, system=GameSystem.objects.get(key="whfb6"),
                      source=SourceFile("mine.rosz", exported))
    [message] = caught.value.errors
    page = page_result(client, client.post(reverse("lists:import"), {
        "system": "whfb6", "format": "auto", "action": "import",
        "file": SimpleUploadedFile("mine.rosz", exported),
    }))
    assert page.status_code == 200
    # the roster route's message, then each unit as a list that kept some would name it
    left_out = [("", f"{name}: no such unit in your catalogue of this system; left out")
                for name in ("Tactical Squad", "Captain")]
    assert page.context["import_errors"] == [("file", message), *left_out]
    assert page.context["form"] is not None and 'name="text"' in page.content.decode()
    assert "none of its units is in your catalogue of Warhammer Fantasy Battle, 6th edition" in (
        page.content.decode().replace("&#x27;", "'")
    )
    api = token_client(user)
    failed = api_result(api, api.post(
        "/api/v1/lists/import",
        {"system": "whfb6", "file": SimpleUploadedFile("mine.rosz", exported)},
        format="multipart",
    )).json()
    assert failed["status"] == "failed" and failed["result"] is None
    expected = [("file", message), *left_out]
    assert failed["errors"] == [{"field": field, "message": text} for field, text in expected]
    assert list(ArmyList.objects.values_list("pk", flat=True)) == [army_list.pk]


def test_roster_imports_count_against_the_list_import_rate_and_say_when_the_queue_is_down(
    client, army, settings
):
    """A roster is a list import: past the account's `list_import` rate the page and the API
    answer 429 with `Retry-After`; with the broker unreachable, 503; nothing is saved."""
    from django.core.cache import caches

    from tests.factories.throttle_rates import set_rates
    from tests.redis_server import point_celery_at

    user, _system, army_list = army
    exported = client.get(reverse("lists:export_rosz", args=[army_list.pk])).content
    settings.CACHES = {**settings.CACHES, settings.API_THROTTLE_CACHE: {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "roster-rate-tests"}}
    caches[settings.API_THROTTLE_CACHE].clear()
    set_rates(settings, list_import="0/hour")
    page = client.post(reverse("lists:import_rosz"),
                       {"system": "wh40k9", "file": SimpleUploadedFile("mine.rosz", exported)})
    assert page.status_code == 429 and int(page["Retry-After"]) > 0
    assert "You have started many imports lately" in page.content.decode()
    api = token_client(user)
    answer = api.post("/api/v1/battlescribe/rosters",
                      {"system": "wh40k9", "file": SimpleUploadedFile("list.rosz", exported)},
                      format="multipart")
    assert answer.status_code == 429 and int(answer["Retry-After"]) > 0

    # The job is a Postgres row, but a broker that does not take its message leaves nobody to
    # run it: the row is deleted again and page and API say the queue is down (issue 38).
    set_rates(settings, list_import="100/hour")
    with point_celery_at("redis://127.0.0.1:9/0"):
        page = client.post(reverse("lists:import_rosz"),
                           {"system": "wh40k9", "file": SimpleUploadedFile("mine.rosz", exported)})
        assert page.status_code == 503 and "Imports cannot be queued right now" in page.content.decode()
        assert page.context["chosen"] == "wh40k9"
        answer = api.post("/api/v1/battlescribe/rosters",
                          {"system": "wh40k9", "file": SimpleUploadedFile("list.rosz", exported)},
                          format="multipart")
        assert answer.status_code == 503
    assert list(ArmyList.objects.values_list("pk", flat=True)) == [army_list.pk]
    assert not BackgroundJob.objects.exists()


def test_an_engine_list_carries_custom_names_and_notes_through_its_rosz(client, army):
    """A list of a faction imported with its source is written by the engine: each selection
    keeps the unit's name and notes (`customName`, `<customNotes>`), and both imports of the
    file rebuild the same selections with them."""
    from armybuilder.lists.importers import Source
    from armybuilder.lists.imports import import_source
    from armybuilder.lists.services import army_list_unit_set_details, list_units_in_order

    user, system, army_list = army
    tactical, captain = list_units_in_order(army_list)
    army_list_unit_set_details(list_unit=tactical, custom_name="Red squad", notes="Left & right",
                               group="", expected_version=None)
    army_list_unit_set_details(list_unit=captain, custom_name="", notes="Warlord", group="",
                               expected_version=None)
    exported = client.get(reverse("lists:export_rosz", args=[army_list.pk])).content
    document = etree.fromstring(rosz_member(exported))
    SCHEMA.assertValid(document)
    ns = {"bs": "http://www.battlescribe.net/schema/rosterSchema"}
    units = document.findall("bs:forces/bs:force/bs:selections/bs:selection", ns)
    assert [(u.get("customName"), u.findtext("bs:customNotes", None, ns)) for u in units] == [
        ("Red squad", "Left & right"), (None, "Warlord")]
    uploaded = roster_import(owner=user, system=system, source=SourceFile("round-trip.rosz", exported))
    source = Source(name="round-trip.rosz", data=exported)
    paged = import_source(user=user, source=source, system_key=system.key)
    before = list_units_in_order(army_list)
    for imported in (uploaded.army_list, paged.army_list):
        after = list_units_in_order(imported)
        assert [(u.custom_name, u.notes) for u in after] == [("Red squad", "Left & right"), ("", "Warlord")]
        assert [(u.selection, u.points) for u in after] == [(u.selection, u.points) for u in before]
    assert uploaded.differences == []


def with_game_system(rosz: bytes, system_id: str, revision: str, name: str) -> bytes:
    """The exported roster as though BattleScribe wrote it under another game system."""
    ros = rosz_member(rosz)
    root = etree.fromstring(ros)
    root.set("gameSystemId", system_id)
    root.set("gameSystemRevision", revision)
    root.set("gameSystemName", name)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("round-trip.ros", etree.tostring(root, xml_declaration=True, encoding="UTF-8"))
    return buffer.getvalue()


@pytest.mark.parametrize(
    "game_system",
    [
        # BSData's 9th-edition game system: the edition the chosen system's rules are for
        ("28ec-711c-d87f-3aeb", "250", "Warhammer 40,000 9th Edition"),
        # the game system the system's imported catalogues came with (the test data's own)
        None,
        # a game system of no known edition, named as the system is
        ("hand-made-system", "1", "Warhammer 40.000 (9th ed.)"),
    ],
)
def test_a_roster_of_the_chosen_system_without_its_catalogues_names_the_system_once(
    client, army, django_user_model, game_system
):
    """A roster of the very system chosen, whose catalogues the player has not imported, was
    refused as "this roster is for Warhammer 40,000 9th Edition, and none of its units is in
    your catalogue of Warhammer 40,000, 9th edition: choose the roster's game system…": the
    same system twice, and advice to choose what was chosen. It says what is missing."""
    user, system, army_list = army
    exported = client.get(reverse("lists:export_rosz", args=[army_list.pk])).content
    if game_system is not None:
        exported = with_game_system(exported, *game_system)
    other = django_user_model.objects.create_user("someone")
    Faction.objects.filter(slug="bs-cat-marines").update(owner=other)  # not the player's to see
    with pytest.raises(BattleScribeError) as caught:
        roster_import(owner=user, system=system, source=SourceFile("mine.rosz", exported))
    assert caught.value.errors == [
        "mine.rosz: none of this roster's units is in your catalogues of Warhammer 40,000, 9th edition: "
        "import the roster's catalogues first."
    ]


@pytest.fixture
def realms(db, django_user_model):
    """Two catalogues of one game system imported with their source (lists of them are the
    engine's), and the player who imports a roster of the one into the other."""
    call_command("load_catalogue", verbosity=0)
    call_command("import_battlescribe", *[str(FILES / n) for n in ("realm.gst", "realm_ranks.cat",
                 "realm_undead.cat")], system="whfb6", verbosity=0)
    return django_user_model.objects.create_user("realm-player", password=PASSWORD)


REALM_REFUSAL = (
    "dust.ros: none of this roster's units is in your catalogues of Warhammer Fantasy Battle, 6th "
    "edition: import the roster's catalogues first."
)


def test_a_roster_of_another_catalogue_is_refused_by_the_general_import_of_an_engine_list(realms):
    """A roster of "Realm Undead" imported into "Realm Ranks" (a list of the roster engine) was
    rebuilt into an empty list, every entry dropped, and saved: it is refused as the matched
    route refuses a roster none of whose units it found, naming the file, and nothing is saved."""
    from armybuilder.lists.importers import ImportProblem, Source
    from armybuilder.lists.imports import import_source

    ranks = Faction.objects.get(name="Realm Ranks")
    data = (FILES / "realm_roster.ros").read_bytes()
    with pytest.raises(ImportProblem) as caught:
        import_source(user=realms, source=Source(name="dust.ros", data=data), faction=ranks)
    assert caught.value.errors[0] == ("file", REALM_REFUSAL)
    assert not ArmyList.objects.filter(owner=realms).exists()
    # the roster's own catalogue still takes it
    undead = Faction.objects.get(name="Realm Undead")
    kept = import_source(user=realms, source=Source(name="dust.ros", data=data), faction=undead)
    assert kept.saved and kept.units


def test_a_roster_of_another_catalogue_is_refused_by_the_roster_upload_of_an_engine_list(realms):
    """The roster upload picks the faction by the roster's catalogue name: a roster naming "Realm
    Ranks" whose entries are another catalogue's (other ids) became an empty list too."""
    data = (FILES / "realm_roster.ros").read_bytes().replace(
        b'catalogueName="Realm Undead"', b'catalogueName="Realm Ranks"'
    )
    with pytest.raises(BattleScribeError) as caught:
        roster_import(owner=realms, system=GameSystem.objects.get(key="whfb6"),
                      source=SourceFile("dust.ros", data))
    assert caught.value.errors == [REALM_REFUSAL]
    assert not ArmyList.objects.filter(owner=realms).exists()
