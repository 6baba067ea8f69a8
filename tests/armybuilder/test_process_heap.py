"""The start-up heap of a server process is frozen once, by gunicorn's worker hook."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import ROOT

WORKER = """
import gc, runpy, sys
import django
django.setup()
hooks = runpy.run_path("gunicorn.conf.py")
assert gc.get_freeze_count() == 0
assert "armybuilder.lists.views" not in sys.modules
hooks["post_worker_init"](None)
views = vars(sys.modules["armybuilder.lists.views"])  # imported by the hook, with the URLconf
fresh = {"made": ["after the hook"]}
collected = {id(thing) for thing in gc.get_objects()}  # every generation but the permanent one
print(gc.get_freeze_count(), id(views) not in collected, id(fresh) in collected)
"""


def test_a_gunicorn_worker_freezes_django_the_urlconf_and_the_views_once_loaded():
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "armybuilder.settings"}
    result = subprocess.run(
        [sys.executable, "-c", WORKER], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
    frozen, views_frozen, fresh_collected = result.stdout.split()
    assert int(frozen) > 50_000  # Django, the apps and the engines: tens of thousands of objects
    assert views_frozen == "True"  # the views' namespace is in no generation a collection walks
    assert fresh_collected == "True"  # what a request makes afterwards still is
