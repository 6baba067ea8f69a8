"""The BattleScribe upload page, with a real signed-in user on Postgres."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from rules.models import Faction
from tests.rules.battlescribe.files import FILES, GRIMDARK, MALFORMED

PASSWORD = "a-long-test-password"


@pytest.fixture
def player(db, django_user_model, client):
    call_command("load_catalogue", verbosity=0)
    user = django_user_model.objects.create_user("player", password=PASSWORD)
    assert client.login(username="player", password=PASSWORD)
    return user


def test_page_needs_sign_in(client, db):
    response = client.get(reverse("rules:battlescribe_upload"))
    assert response.status_code == 302 and "login" in response["Location"]


def test_upload_imports_into_own_faction(client, player):
    page = client.get(reverse("rules:battlescribe_upload"))
    assert page.status_code == 200 and b'id="bs-progress"' in page.content
    files = [SimpleUploadedFile(n, (FILES / n).read_bytes()) for n in GRIMDARK]
    response = client.post(reverse("rules:battlescribe_upload"), {"system": "wh40k9", "files": files})
    assert response.status_code == 200
    faction = Faction.objects.get(owner=player, slug="bs-cat-marines")
    html = response.content.decode()
    assert reverse("rules:faction", args=["wh40k9", faction.slug]) in html
    assert "<td>Tactical Squad</td><td>77</td><td>5</td><td>5</td>" in html
    assert "Steady Aim" in html  # the warnings are shown
    # the owner sees the faction's page
    assert client.get(reverse("rules:faction", args=["wh40k9", faction.slug])).status_code == 200


def test_bad_upload_is_400_and_imports_nothing(client, player):
    files = [SimpleUploadedFile("grimdark.gst", (FILES / "grimdark.gst").read_bytes()),
             SimpleUploadedFile("broken.cat", MALFORMED)]
    response = client.post(reverse("rules:battlescribe_upload"), {"system": "wh40k9", "files": files})
    assert response.status_code == 400
    assert "broken.cat: line 3, column 43: malformed XML" in response.content.decode()
    assert not Faction.objects.filter(owner=player).exists()


def test_imported_faction_shared_like_homebrew(client, player, django_user_model):
    files = [SimpleUploadedFile(n, (FILES / n).read_bytes()) for n in GRIMDARK]
    client.post(reverse("rules:battlescribe_upload"), {"system": "wh40k9", "files": files})
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
