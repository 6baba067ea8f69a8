"""The base layout and home page: htmx from static, navigation, translations, accessibility."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.utils import translation


@pytest.mark.django_db
def test_home_page_says_what_the_app_does_and_loads_htmx_locally(client):
    response = client.get("/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "army lists" in html
    assert '<nav class="navbar" aria-label="Main navigation">' in html
    assert "/static/django_htmx/htmx-2.min.js" in html
    # Every script and stylesheet is served from our own /static/, never a CDN. The
    # addresses are checked, not the whole page: a random CSRF token can spell "cdn".
    external = re.findall(r'<(?:script|link)[^>]*(?:src|href)="(https?:)?//[^"]*"', html)
    assert external == []
    assert finders.find("django_htmx/htmx-2.min.js")
    assert '<html lang="en">' in html
    assert 'href="#main"' in html  # skip link for keyboard users


@pytest.mark.django_db
def test_language_switch_changes_the_html_lang(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="pl")
    assert '<html lang="pl">' in response.content.decode()
    translation.activate("en")


def test_production_defaults_are_safe(monkeypatch):
    """With nothing set, DEBUG is off and cookies are secure (settings read again)."""
    import importlib

    import armybuilder.settings as settings_module

    monkeypatch.delenv("DEBUG", raising=False)
    monkeypatch.delenv("HTTPS", raising=False)
    monkeypatch.setenv("SECRET_KEY", "x" * 50)
    fresh = importlib.reload(settings_module)
    try:
        assert fresh.DEBUG is False
        assert fresh.SESSION_COOKIE_SECURE is True
        assert fresh.CSRF_COOKIE_SECURE is True
    finally:
        monkeypatch.undo()
        importlib.reload(settings_module)


def test_missing_secret_key_outside_debug_refuses_to_sign():
    """Outside DEBUG there is no fallback key: Django refuses to use an empty one."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    code = ("import django; django.setup(); from django.core import signing; "
            "signing.dumps('x')")
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr
