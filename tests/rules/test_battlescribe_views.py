"""The BattleScribe upload page, with a real signed-in user on Postgres.

The import itself runs as a job (`rules.battlescribe_jobs`); here Celery's eager mode runs it
inside the post, so the redirect leads to a finished job. `test_battlescribe_jobs.py` runs it
on a real worker."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from rules.models import Faction
from tests.rules.battlescribe.files import FILES, GRIMDARK, MALFORMED

PASSWORD = "a-long-test-password"


@pytest.fixture
def player(db, django_user_model, client, inline_pdf_renders):
    call_command("load_catalogue", verbosity=0)
    user = django_user_model.objects.create_user("player", password=PASSWORD)
    assert client.login(username="player", password=PASSWORD)
    return user


@pytest.fixture
def fresh_rates(settings):
    """A private throttle store, so earlier runs' counters do not count."""
    settings.CACHES = {**settings.CACHES, settings.API_THROTTLE_CACHE: {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "import-throttle-tests"}}
    from django.core.cache import caches

    caches[settings.API_THROTTLE_CACHE].clear()
    return settings


def upload(client, names=GRIMDARK, extra=()):
    files = [SimpleUploadedFile(n, (FILES / n).read_bytes()) for n in names]
    files += [SimpleUploadedFile(n, data) for n, data in extra]
    return client.post(reverse("rules:battlescribe_upload"), {"system": "wh40k9", "files": files})


def test_page_needs_sign_in(client, db):
    response = client.get(reverse("rules:battlescribe_upload"))
    assert response.status_code == 302 and "login" in response["Location"]


def test_upload_queues_the_import_and_its_page_shows_the_units(client, player):
    page = client.get(reverse("rules:battlescribe_upload"))
    assert page.status_code == 200 and b'id="bs-progress"' in page.content
    response = upload(client)
    assert response.status_code == 302
    assert response["Location"].startswith("/catalogue/battlescribe/jobs/")
    job_page = client.get(response["Location"])
    assert job_page.status_code == 200
    faction = Faction.objects.get(owner=player, slug="bs-cat-marines")
    html = job_page.content.decode()
    assert 'data-state="done"' in html and "hx-get" not in html  # done: no more polling
    assert reverse("rules:faction", args=["wh40k9", faction.slug]) in html
    assert "<td>Tactical Squad</td><td>77</td><td>5</td><td>5</td>" in html
    assert "Steady Aim" in html  # the warnings are shown
    # the owner sees the faction's page
    assert client.get(reverse("rules:faction", args=["wh40k9", faction.slug])).status_code == 200


def test_bad_files_fail_the_job_naming_the_file_and_import_nothing(client, player):
    response = upload(client, ("grimdark.gst",), [("broken.cat", MALFORMED)])
    job_page = client.get(response["Location"], headers={"HX-Request": "true"})
    html = job_page.content.decode()
    assert job_page.status_code == 200 and 'data-state="failed"' in html
    assert "<html" not in html  # the htmx poll gets the fragment alone
    assert "broken.cat: line 3, column 43: malformed XML" in html
    assert not Faction.objects.filter(owner=player).exists()


def test_what_can_be_told_at_once_is_a_400_without_a_job(client, player):
    response = client.post(reverse("rules:battlescribe_upload"), {"system": "wh40k9"})
    assert response.status_code == 400
    assert "files: choose a game system file and its catalogues." in response.content.decode()


def test_an_import_above_the_entry_bound_is_refused_naming_the_limit(client, player, monkeypatch):
    monkeypatch.setattr("rules.battlescribe_import.MAX_IMPORT_ENTRIES", 5)
    html = client.get(upload(client)["Location"]).content.decode()
    assert "Nothing was imported" in html
    assert "one import takes at most 5" in html
    assert not Faction.objects.filter(owner=player).exists()


def test_imports_per_account_are_rate_limited(client, player, fresh_rates):
    from tests.factories.throttle_rates import set_rates

    set_rates(fresh_rates, battlescribe_import="2/hour")
    statuses = [upload(client).status_code for _ in range(3)]
    assert statuses == [302, 302, 429]
    refused = upload(client)
    assert "You have started many imports lately" in refused.content.decode()
    assert int(refused["Retry-After"]) > 0


def test_a_job_is_shown_only_to_its_uploader(client, player, django_user_model):
    location = upload(client)["Location"]
    django_user_model.objects.create_user("friend", password=PASSWORD)
    friend = client.__class__()
    assert friend.login(username="friend", password=PASSWORD)
    assert friend.get(location).status_code == 404


def test_imported_faction_shared_like_homebrew(client, player, django_user_model):
    upload(client)
    faction = Faction.objects.get(owner=player, slug="bs-cat-marines")
    unit_page = reverse("rules:unit", args=["wh40k9", faction.slug, "bs-se-tactical"])
    page = client.get(unit_page)
    assert page.status_code == 200 and "Plasma gun" in page.content.decode()
    django_user_model.objects.create_user("friend", password=PASSWORD)
    friend = client.__class__()
    assert friend.login(username="friend", password=PASSWORD)
    assert friend.get(unit_page).status_code == 404
    client.post(reverse("rules:homebrew_share", args=[faction.pk]), {"shared": "1"})
    assert friend.get(unit_page).status_code == 200
