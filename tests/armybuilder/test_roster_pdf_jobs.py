"""Roster PDFs are rendered by the worker into a cache keyed by list version; pages never
wait on them (issue 17, item 1)."""

from __future__ import annotations

import time

import pytest
from django.urls import reverse

from armybuilder.models import ArmyList
from armybuilder.roster import pdf_jobs
from armybuilder.sharing import army_list_share
from tests.armybuilder.list_factories import BRUTES, make_faction, make_list, make_unit, make_user

pytestmark = pytest.mark.django_db


def big_list(units: int) -> ArmyList:
    faction = make_faction()
    infantry = make_unit(faction=faction, slug="infantry")
    brutes = make_unit(faction=faction, data=BRUTES, slug="brutes", with_options=False)
    return make_list(owner=make_user(), faction=faction, name="Horde", points_limit=100_000,
                     units=[infantry if i % 2 else brutes for i in range(units)])


@pytest.fixture
def fresh_rates(settings):
    """A private throttle store, so earlier runs' counters do not count."""
    settings.CACHES = {**settings.CACHES, settings.API_THROTTLE_CACHE: {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "pdf-throttle-tests"}}
    from django.core.cache import caches

    caches[settings.API_THROTTLE_CACHE].clear()
    return settings


def test_a_200_unit_roster_renders_within_the_render_time_limit(settings) -> None:
    """The issue's target is 5 s on an idle machine; the test holds the hard bound the worker
    enforces (`PDF_TIME_LIMIT`) and prints the figure (the shared CI machine is slower)."""
    army_list = big_list(200)
    started = time.perf_counter()

    pdf = pdf_jobs.roster_pdf_bytes(army_list=army_list, paper="a4")

    elapsed = time.perf_counter() - started
    print(f"200-unit roster PDF: {elapsed:.2f} s, {len(pdf) / 1024:.0f} KiB")
    assert pdf.startswith(b"%PDF-")
    assert elapsed <= settings.PDF_TIME_LIMIT


@pytest.mark.django_db(transaction=True)
def test_the_page_answers_at_once_and_the_worker_fills_the_cache(client, fresh_rates,
                                                                 celery_worker_process) -> None:
    army_list = big_list(3)
    token = army_list_share(army_list=army_list, expected_version=army_list.version)
    url = reverse("lists:shared_roster_pdf", args=[token])

    started = time.perf_counter()
    first = client.get(url)
    answered_in = time.perf_counter() - started
    deadline = time.monotonic() + 60
    response = first
    while response.status_code == 202 and time.monotonic() < deadline:
        time.sleep(0.2)
        response = client.get(url)

    assert first.status_code == 202 and answered_in < 1.0
    assert first["Retry-After"] == "2"
    assert '<meta http-equiv="refresh" content="2">' in first.content.decode()
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF-")


def test_renders_are_rate_limited_per_address_through_share_links(client, fresh_rates) -> None:
    from tests.estimates.conftest import set_rates

    set_rates(fresh_rates, pdf="2/hour")
    lists = [big_list(1) for _ in range(3)]
    tokens = [army_list_share(army_list=a, expected_version=a.version) for a in lists]

    statuses = [client.get(reverse("lists:shared_roster_pdf", args=[t])).status_code for t in tokens]
    again = client.get(reverse("lists:shared_roster_pdf", args=[tokens[0]]))  # already queued: not counted

    assert statuses == [202, 202, 429]
    assert again.status_code == 202


def test_with_the_job_store_down_the_pdf_is_a_quick_503(client, settings) -> None:
    from tests.redis_server import free_port

    settings.CACHES = {**settings.CACHES, settings.PDF_CACHE: {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": f"redis://127.0.0.1:{free_port()}/0", "OPTIONS": {"socket_connect_timeout": 1}}}
    army_list = big_list(1)
    token = army_list_share(army_list=army_list, expected_version=army_list.version)

    started = time.perf_counter()
    response = client.get(reverse("lists:shared_roster_pdf", args=[token]))
    api = client.get(f"/api/v1/shared/{token}/export/pdf")

    assert response.status_code == 503 and time.perf_counter() - started < 5
    assert api.status_code == 503 and api.json()["code"] == "unavailable"


def test_an_edit_while_a_render_is_in_flight_queues_no_second_render(client, fresh_rates) -> None:
    from armybuilder import services
    from tests.estimates.conftest import set_rates

    set_rates(fresh_rates, pdf="1/hour")
    army_list = big_list(1)
    token = army_list_share(army_list=army_list, expected_version=army_list.version)
    url = reverse("lists:shared_roster_pdf", args=[token])

    first = client.get(url)
    army_list.refresh_from_db()
    services.army_list_update(army_list=army_list, expected_version=army_list.version, name="Renamed")
    second = client.get(url)  # a new version, but the render in flight takes the list as it is then

    assert (first.status_code, second.status_code) == (202, 202)
