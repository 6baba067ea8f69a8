"""Word from the worker that a list's matchups landed (`armybuilder.estimates.gauntlet_signal`),
through the real Redis: a panel request waiting for it answers with the figures as soon as they
are stored, not at its next poll (issue 42); the waits are bounded per process."""

from __future__ import annotations

import threading

import pytest
from django.core.cache import caches
from django.urls import reverse

from armybuilder.estimates import gauntlet_signal
from armybuilder.estimates.gauntlet_live import compute_matchups, compute_missing, missing_matchups
from armybuilder.estimates.gauntlet_panel import gauntlet_state
from armybuilder.estimates.gauntlet_signal import announce, landed, landings
from tests.factories.army_lists import make_faction, make_list, make_unit, make_user

pytestmark = pytest.mark.django_db

#: Long enough never to end a wait that works; a wait that fails ends the test this late.
PATIENCE_S = 30.0


@pytest.fixture(autouse=True)
def empty_job_cache():
    caches["jobs"].clear()


@pytest.fixture
def army():
    faction = make_faction()
    return make_list(owner=make_user(), faction=faction, name="Signalled", units=[make_unit(faction=faction)])


def test_a_waiting_request_hears_each_batch_the_worker_stores(army):
    inputs, missing, todo = missing_matchups(army)
    assert missing
    with landings(army.pk) as wait:
        assert landed(missing) == 0
        worker = threading.Thread(target=compute_matchups, args=(inputs.system, todo, missing),
                                  kwargs={"landed": lambda: announce(army.pk)})
        worker.start()
        try:
            assert wait(PATIENCE_S)  # word came (a lost word would leave it waiting, then False)
        finally:
            worker.join()
        while landed(missing) < len(missing):  # more batches may still be on their way
            assert wait(PATIENCE_S)
    assert gauntlet_state(army, queue=False).state == "ready"


def test_word_for_another_list_wakes_no_one(army):
    with landings(army.pk) as wait:
        announce(army.pk + 1000)
        assert not wait(0.2)
        announce(army.pk)
        assert wait(PATIENCE_S)


def test_each_process_lets_only_a_few_requests_wait(army):
    held = [landings(army.pk) for _ in range(gauntlet_signal.WAITERS_PER_PROCESS)]
    for waiting in held:
        waiting.__enter__()
    try:
        with landings(army.pk) as wait:  # no slot left: it does not subscribe, so hears nothing
            announce(army.pk)
            assert wait is gauntlet_signal._never and not wait(PATIENCE_S)
    finally:
        for waiting in held:
            waiting.__exit__(None, None, None)
    with landings(army.pk) as wait:  # the slots are back
        announce(army.pk)
        assert wait(PATIENCE_S)


def test_the_panel_answers_with_the_figures_its_own_job_stored(client, army, inline_pdf_renders, settings):
    """Celery runs inline here: the job the request queued ran inside it, after its first look
    found the list computing; the request heard the job's word and looked again."""
    settings.GAUNTLET_PANEL_WAIT_MS = PATIENCE_S * 1000
    client.force_login(army.owner)
    page = client.get(reverse("lists:gauntlet", args=[army.pk])).content.decode()
    assert 'data-state="ready"' in page.split("<h2")[0] and "hx-trigger" not in page.split("<h2")[0]
    settings.GAUNTLET_PANEL_WAIT_MS = 0  # without the wait, the same first request is still computing
    caches["jobs"].clear()
    page = client.get(reverse("lists:gauntlet", args=[army.pk])).content.decode()
    assert 'data-state="computing"' in page.split("<h2")[0]


def test_a_whole_gauntlet_computing_is_answered_at_once_with_its_progress(client, army, inline_pdf_renders,
                                                                          settings, monkeypatch):
    """Only an edit's few matchups are waited for: past `MAX_COUNTED` missing (a whole
    gauntlet, seconds of work) the first answer shows the progress at once and the panel polls."""
    from armybuilder.estimates import gauntlet_panel

    settings.GAUNTLET_PANEL_WAIT_MS = PATIENCE_S * 1000
    monkeypatch.setattr(gauntlet_panel, "MAX_COUNTED", 1)  # this small gauntlet counts as whole
    client.force_login(army.owner)
    page = client.get(reverse("lists:gauntlet", args=[army.pk])).content.decode()
    assert 'data-state="computing"' in page.split("<h2")[0] and "?poll=1" in page.split("<h2")[0]


@pytest.mark.django_db(transaction=True)
def test_a_wait_ends_when_the_list_changes_under_it(army):
    """A request waiting for an edit's matchups stops at the first word after a newer edit (the
    page asked again for that one, and the newer job speaks on the same channel), not at its
    deadline: waits do not pile up while a player clicks on."""
    from django.db import connection

    from armybuilder.estimates.gauntlet_panel import gauntlet_state_landed
    from armybuilder.lists import services
    from armybuilder.models import ArmyList
    from tests.factories.army_lists import BRUTES

    compute_missing(army)
    army.refresh_from_db()
    services.army_list_add_unit(army_list=army, unit=make_unit(faction=army.faction, data=BRUTES,
                                                               with_options=False),
                                options={}, expected_version=army.version)
    answers = []

    def ask() -> None:
        try:
            waiting = ArmyList.objects.select_related("system").get(pk=army.pk)
            answers.append(gauntlet_state_landed(waiting, seconds=3600))  # only the edit ends it
        finally:
            connection.close()

    asker = threading.Thread(target=ask, daemon=True)
    asker.start()
    redis = gauntlet_signal._client()
    while asker.is_alive() and not dict(redis.pubsub_numsub(gauntlet_signal.channel(army.pk))).get(
            gauntlet_signal.channel(army.pk).encode()):
        asker.join(0.01)  # until it listens
    army.refresh_from_db()
    services.army_list_add_unit(army_list=army, unit=make_unit(faction=army.faction), options={},
                                expected_version=army.version)
    announce(army.pk)
    asker.join(PATIENCE_S)
    assert not asker.is_alive() and answers and answers[0].state == "computing"
