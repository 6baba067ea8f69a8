"""`manage.py check --deploy` with production settings (HTTPS on) reports nothing (W005, W008, W021
and a one-hour HSTS were reported)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_check_deploy_is_clean_with_production_settings() -> None:
    env = {key: value for key, value in os.environ.items()
           if key not in {"DEBUG", "HTTPS", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS",
                          "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD",
                          # set by the browser tests' conftest for Playwright, never in a deployment
                          "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update({"SECRET_KEY": secrets.token_urlsafe(60), "ALLOWED_HOSTS": "armybuilder.example"})
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_hsts_lasts_a_year_and_plain_http_is_redirected_except_the_health_check() -> None:
    code = ("from django.conf import settings as s; print(s.SECURE_HSTS_SECONDS, s.SECURE_SSL_REDIRECT, "
            "s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD, s.SECURE_REDIRECT_EXEMPT)")
    env = {key: value for key, value in os.environ.items() if key not in {"DEBUG", "HTTPS"}}
    env.update({"SECRET_KEY": secrets.token_urlsafe(60), "DJANGO_SETTINGS_MODULE": "armybuilder.settings"})
    result = subprocess.run([sys.executable, "-c", f"import django; django.setup(); {code}"],
                            cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120, check=True)
    assert result.stdout.split(maxsplit=4) == ["31536000", "True", "True", "True", "['^healthz$']\n"]
