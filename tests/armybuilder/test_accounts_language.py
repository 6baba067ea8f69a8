"""The interface language sticks (issue 14, point 4): per account, per browser, and from
Accept-Language on a first visit; URLs carry no language, so a link is shareable; the API
answers in the language of its request's Accept-Language."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from armybuilder.accounts.models import PlayerProfile
from tests.factories.army_lists import PASSWORD, make_user

#: The "Designer" navigation link, in each language: proof of the page's language.
DESIGNER = {"en": ">Designer<", "pl": ">Projektant<", "cs": ">Návrhář<", "ru": ">Конструктор<"}

pytestmark = pytest.mark.django_db


def language_of(response) -> str:
    """The language a page was rendered in, checked three ways (header, <html lang>, text)."""
    language = response["Content-Language"]
    body = response.content.decode()
    assert f'<html lang="{language}">' in body
    assert DESIGNER[language] in body
    return language


def switch(client: Client, language: str, next_url: str = "/") -> None:
    response = client.post(reverse("set_language"), {"language": language, "next": next_url})
    assert response.status_code == 302
    assert response["Location"] == next_url


@pytest.mark.parametrize(("header", "expected"), [
    ("pl-PL,pl;q=0.9,en;q=0.5", "pl"), ("cs", "cs"), ("ru-RU", "ru"), ("de-DE,de;q=0.9", "en"), ("", "en"),
])
def test_a_first_visit_follows_accept_language(client, header, expected):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=header)
    assert language_of(response) == expected
    assert "Accept-Language" in response["Vary"]


def test_the_switcher_sets_a_cookie_that_beats_accept_language(client):
    switch(client, "cs", next_url="/catalogue/")
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "cs"
    assert language_of(client.get("/catalogue/", HTTP_ACCEPT_LANGUAGE="ru")) == "cs"


def test_a_signed_in_players_choice_is_saved_on_the_account_and_follows_them(client):
    player = make_user("polyglot", password=PASSWORD)
    client.force_login(player)
    switch(client, "ru")
    assert PlayerProfile.objects.get(user=player).language == "ru"

    # Another browser, which asks for Polish and has no cookie: the account wins at login.
    elsewhere = Client()
    assert elsewhere.login(username="polyglot", password=PASSWORD)
    response = elsewhere.get("/", HTTP_ACCEPT_LANGUAGE="pl")
    assert language_of(response) == "ru"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"  # the browser remembers it too

    # After logging out that browser keeps the player's language (its cookie).
    elsewhere.post(reverse("logout"))
    assert language_of(elsewhere.get("/", HTTP_ACCEPT_LANGUAGE="pl")) == "ru"


def test_logging_in_through_the_form_restores_the_saved_language(client):
    player = make_user("returning", password=PASSWORD)
    PlayerProfile.objects.create(user=player, language="cs")
    response = client.post(reverse("login"), {"username": "returning", "password": PASSWORD},
                           HTTP_ACCEPT_LANGUAGE="ru", follow=True)
    assert language_of(response) == "cs"


def test_a_player_without_a_saved_choice_follows_the_browser(client):
    client.force_login(make_user())
    assert language_of(client.get("/", HTTP_ACCEPT_LANGUAGE="pl")) == "pl"
    assert not PlayerProfile.objects.exists()


def test_an_unknown_language_is_refused_and_changes_nothing(client):
    player = make_user()
    client.force_login(player)
    response = client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert response.status_code == 302
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
    assert not PlayerProfile.objects.filter(user=player).exists()


def test_urls_are_the_same_in_every_language(client):
    """No /pl/ prefix: the link a Czech player shares opens the same page for a Russian one."""
    assert reverse("rules:systems") == "/catalogue/"
    for language in ("pl", "cs", "ru"):
        response = Client().get("/catalogue/", HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200
        assert language_of(response) == language


@pytest.mark.parametrize(("language", "message", "missing"), [
    ("pl", "Nie ma takiego punktu końcowego.", "Dane wejściowe są nieprawidłowe."),
    ("cs", "Takový koncový bod neexistuje.", "Vstup není platný."),
    ("ru", "Такой конечной точки нет.", "Входные данные некорректны."),
])
def test_api_errors_speak_the_language_of_accept_language(client, language, message, missing):
    switch(client, "en")  # a browser cookie saying English does not override the API header
    response = client.get("/api/v1/no-such-thing", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "message": message, "details": {}}
    assert response["Content-Language"] == language

    response = client.post("/api/v1/points/price", data={}, content_type="application/json",
                           HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    assert response.json()["message"] == missing


def test_api_errors_default_to_english(client):
    response = client.get("/api/v1/no-such-thing")
    assert response.json()["message"] == "No such endpoint."
