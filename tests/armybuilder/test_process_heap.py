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


HELD_BACK = """
import gc, runpy
import django
django.setup()
hooks = runpy.run_path("gunicorn.conf.py")
full = []
gc.callbacks.append(lambda phase, info: phase == "stop" and info["generation"] == 2 and full.append(1))

def request(objects):
    # Lists, not small dicts: Python does not track a dict holding only numbers, and untracked
    # objects never move the collector's counts.
    kept = [[n] for n in range(objects)]  # a request making many long-lived containers
    return len(kept)

request(400_000)
before = len(full)  # Python's own thresholds: full collections start inside the request
hooks["post_worker_init"](None)
full.clear()
request(400_000)
inside = len(full)  # held back: none inside the request
hooks["post_request"](None, None, {}, None)
after = len(full)  # the one that was due runs once the response is out
hooks["post_request"](None, None, {}, None)
again = len(full)  # and none is due right after it
print(before, inside, after, again)
"""


def test_a_gunicorn_worker_runs_full_collections_after_responses_not_inside_requests():
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "armybuilder.settings"}
    result = subprocess.run(
        [sys.executable, "-c", HELD_BACK],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    before, inside, after, again = map(int, result.stdout.split())
    assert before >= 1  # without the hooks, a request this size meets a full collection
    assert inside == 0
    assert after == 1
    assert again == 1
