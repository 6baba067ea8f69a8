"""The start-up heap of a server process is frozen once, by gunicorn's worker hook."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import ROOT

WORKER = """
import gc, runpy
import django
django.setup()
hooks = runpy.run_path("gunicorn.conf.py")
assert gc.get_freeze_count() == 0
hooks["post_worker_init"](None)
frozen = gc.get_freeze_count()
import armybuilder.lists.views  # imported by the hook (the URLconf), so already frozen
print(frozen, gc.get_freeze_count() == frozen)
"""


def test_a_gunicorn_worker_freezes_django_the_urlconf_and_the_views_once_loaded():
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "armybuilder.settings"}
    result = subprocess.run(
        [sys.executable, "-c", WORKER], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
    frozen, unchanged = result.stdout.split()
    assert int(frozen) > 50_000  # Django, the apps and the engines: tens of thousands of objects
    assert unchanged == "True"
