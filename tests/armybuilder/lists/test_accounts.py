"""Accounts: sign up, log in, log out, change and reset a password."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.urls import reverse

from tests.factories.army_lists import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def test_sign_up_logs_the_new_player_in_and_opens_their_lists(client):
    response = client.get(reverse("signup"))
    assert response.status_code == 200
    assert '<label for="id_username"' in response.content.decode()
    response = client.post(
        reverse("signup"),
        {"username": "newbie", "email": "newbie@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302 and response["Location"] == reverse("lists:mine")
    assert User.objects.get(username="newbie").email == "newbie@example.com"
    assert client.get(reverse("lists:mine")).status_code == 200


def test_sign_up_errors_are_shown_with_400(client):
    make_user("taken")
    response = client.post(
        reverse("signup"),
        {"username": "taken", "email": "not-an-email", "password1": "short", "password2": "other"},
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "already exists" in html and "valid email" in html
    assert not User.objects.filter(email="not-an-email").exists()


def test_sign_up_only_follows_next_within_the_site(client):
    response = client.post(
        reverse("signup") + "?next=https://evil.example/",
        {"username": "safe", "email": "safe@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response["Location"] == reverse("lists:mine")


def test_log_in_and_log_out(client):
    make_user("player", password=PASSWORD)
    response = client.post(reverse("login"), {"username": "player", "password": PASSWORD})
    assert response.status_code == 302
    assert "Log out" in client.get("/").content.decode()
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert "Log in" in client.get("/").content.decode()


def test_lists_pages_need_a_login(client):
    response = client.get(reverse("lists:mine"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_password_change(client):
    user = make_user("changer", password=PASSWORD)
    client.force_login(user)
    assert client.get(reverse("password_change")).status_code == 200
    response = client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "a new long pass 42",
            "new_password2": "a new long pass 42",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("a new long pass 42")


def test_password_reset_mails_a_link_that_sets_a_new_password(client):
    user = make_user("forgetful", password=PASSWORD)
    response = client.post(reverse("password_reset"), {"email": "forgetful@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    response = client.get(link, follow=True)
    assert "Choose a new password" in response.content.decode()
    response = client.post(
        response.redirect_chain[-1][0],
        {"new_password1": "brand new pass 42", "new_password2": "brand new pass 42"},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("brand new pass 42")
