"""Roster PDFs are rendered by the worker as durable jobs (a Postgres row, the PDF a row of its
output) found by the list's version; pages never wait on them."""

from __future__ import annotations

import re
import time

import pytest
from django.urls import reverse

from armybuilder.lists.sharing import army_list_share
from armybuilder.models import ArmyList
from armybuilder.roster import pdf_jobs
from tests.factories.army_lists import BRUTES, make_faction, make_list, make_unit, make_user

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


def test_a_200_unit_roster_renders_to_a_pdf() -> None:
    """A 200-unit list renders on the worker's path. Its time (target 5 s on an idle machine,
    hard bound `PDF_TIME_LIMIT` enforced by the worker) is measured by `bench/bench_pdf.py`,
    not asserted here: the shared test machine is slower under load."""
    pdf = pdf_jobs.roster_pdf_bytes(army_list=big_list(200), paper="a4")
    assert pdf.startswith(b"%PDF-")


@pytest.mark.django_db(transaction=True)
def test_the_page_answers_at_once_and_the_worker_fills_the_cache(client, fresh_rates,
                                                                 celery_worker_process) -> None:
    army_list = big_list(3)
    token = army_list_share(army_list=army_list, expected_version=army_list.version)
    url = reverse("lists:shared_roster_pdf", args=[token])

    first = client.get(url)  # answered before the worker has rendered anything
    deadline = time.monotonic() + 60
    response = first
    while response.status_code == 202 and time.monotonic() < deadline:
        time.sleep(0.2)
        response = client.get(url)

    assert first.status_code == 202
    assert first["Retry-After"] == "2"
    assert '<meta http-equiv="refresh" content="2">' in first.content.decode()
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF-")


def test_renders_are_rate_limited_per_address_through_share_links(client, fresh_rates) -> None:
    from tests.factories.throttle_rates import set_rates

    set_rates(fresh_rates, pdf="2/hour")
    lists = [big_list(1) for _ in range(3)]
    tokens = [army_list_share(army_list=a, expected_version=a.version) for a in lists]

    statuses = [client.get(reverse("lists:shared_roster_pdf", args=[t])).status_code for t in tokens]
    again = client.get(reverse("lists:shared_roster_pdf", args=[tokens[0]]))  # already queued: not counted

    assert statuses == [202, 202, 429]
    assert again.status_code == 202


def test_with_the_queue_down_the_pdf_is_a_quick_503_and_nothing_is_stored(client, fresh_rates) -> None:
    """Quick because the broker is tried once per request, not retried: counted, not timed
    (`bench/bench_faults.py` times it). The job's row is not kept: asking again queues it."""
    from armybuilder.models import BackgroundJob
    from tests.redis_server import connection_attempts, free_port, point_celery_at

    port = free_port()
    army_list = big_list(1)
    token = army_list_share(army_list=army_list, expected_version=army_list.version)

    with point_celery_at(f"redis://127.0.0.1:{port}/0"), connection_attempts(port) as attempts:
        response = client.get(reverse("lists:shared_roster_pdf", args=[token]))
        api = client.get(f"/api/v1/shared/{token}/export/pdf")

    assert response.status_code == 503
    assert attempts[:1] == [port] and len(attempts) <= 2  # one try per request: no retry loop to wait through
    assert api.status_code == 503 and api.json()["code"] == "unavailable"
    assert not BackgroundJob.objects.exists()
    assert client.get(reverse("lists:shared_roster_pdf", args=[token])).status_code == 202


def test_a_rendered_pdf_is_served_from_postgres_with_redis_gone(client, fresh_rates, settings,
                                                                inline_pdf_renders) -> None:
    """The PDF is the job's output row: the job cache (progress only) being down costs nothing."""
    from tests.redis_server import free_port

    army_list = big_list(2)
    token = army_list_share(army_list=army_list, expected_version=army_list.version)
    url = reverse("lists:shared_roster_pdf", args=[token])
    rendered = client.get(url)
    settings.CACHES = {**settings.CACHES, settings.PDF_CACHE: {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": f"redis://127.0.0.1:{free_port()}/0", "OPTIONS": {"socket_connect_timeout": 1}}}
    again = client.get(url)

    assert rendered.status_code == 200 and rendered.content.startswith(b"%PDF-")
    assert again.status_code == 200 and again.content == rendered.content

def test_an_edit_while_a_render_is_in_flight_queues_no_second_render(client, fresh_rates) -> None:
    from armybuilder.lists import services
    from tests.factories.throttle_rates import set_rates

    set_rates(fresh_rates, pdf="1/hour")
    army_list = big_list(1)
    token = army_list_share(army_list=army_list, expected_version=army_list.version)
    url = reverse("lists:shared_roster_pdf", args=[token])

    first = client.get(url)
    army_list.refresh_from_db()
    services.army_list_update(army_list=army_list, expected_version=army_list.version, name="Renamed")
    second = client.get(url)  # a new version, but the render in flight takes the list as it is then

    assert (first.status_code, second.status_code) == (202, 202)


STAGE_ORDER = list(pdf_jobs.STAGES)


@pytest.mark.django_db(transaction=True)
def test_the_render_reports_its_stages_and_pages_to_the_api_and_the_waiting_page(
        client, fresh_rates, celery_worker_process) -> None:
    """Progress from a real worker: the 202s go through the stages in order, count the pages
    WeasyPrint has laid out, and tell the time since queueing; the page's htmx poll shows the
    same and, once the PDF is there, sends the browser to it."""
    army_list = big_list(120)  # about a dozen pages: several seconds of layout to watch
    token = army_list_share(army_list=army_list, expected_version=army_list.version)
    api_url = f"/api/v1/shared/{token}/export/pdf"
    page_url = reverse("lists:shared_roster_pdf", args=[token])

    seen: list[dict] = []
    fragment = ""
    deadline = time.monotonic() + 120
    response = client.get(api_url)
    while response.status_code == 202 and time.monotonic() < deadline:
        seen.append(response.json())
        if not fragment and seen[-1]["stage"] == "laying_out" and seen[-1]["pages"]:
            poll = client.get(page_url, headers={"HX-Request": "true"})
            fragment = poll.content.decode() if poll.status_code == 200 else ""
        time.sleep(0.05)
        response = client.get(api_url)

    assert response.status_code == 200 and response.content.startswith(b"%PDF-")
    assert seen and seen[0]["stage"] == "queued" and seen[0]["retry_after"] >= 1
    stages = [STAGE_ORDER.index(body["stage"]) for body in seen]
    assert stages == sorted(stages), stages  # never goes back
    laying_out = [body["pages"] for body in seen if body["stage"] == "laying_out"]
    assert laying_out and max(laying_out) >= 2, seen
    assert laying_out == sorted(laying_out)
    elapsed = [body["elapsed_seconds"] for body in seen]
    assert elapsed == sorted(elapsed) and elapsed[-1] > 0
    assert 'id="pdf-status"' in fragment and 'hx-trigger="every 2s"' in fragment
    assert re.search(r'data-stage="(laying_out|writing)"', fragment) and " laid out" in fragment
    assert "<html" not in fragment  # the fragment alone, not the whole page

    done = client.get(page_url, headers={"HX-Request": "true"})
    assert done.status_code == 200 and done["HX-Redirect"] == page_url
    plain = client.get(page_url)
    assert plain.status_code == 200 and plain["Content-Type"] == "application/pdf"


def test_the_waiting_page_shows_the_stage_and_polls_with_htmx(client, fresh_rates) -> None:
    """Queued, no worker yet: the page (and its fragment) says so, in the reader's language."""
    army_list = big_list(1)
    token = army_list_share(army_list=army_list, expected_version=army_list.version)
    url = reverse("lists:shared_roster_pdf", args=[token])

    page = client.get(url)
    polled = client.get(url, headers={"HX-Request": "true"})
    polish = client.get(url, headers={"HX-Request": "true", "Accept-Language": "pl"})

    assert page.status_code == 202
    html = page.content.decode()
    assert f'hx-get="{url}"' in html and 'data-stage="queued"' in html and "Waiting for a worker" in html
    assert "Step 1 of 4" in html
    assert '<noscript><meta http-equiv="refresh" content="2"></noscript>' in html
    assert polled.status_code == 200 and "<html" not in polled.content.decode()
    assert 'data-stage="queued"' in polled.content.decode()
    assert "Krok 1 z 4" in polish.content.decode() or "Czekanie" in polish.content.decode()


def test_progress_written_by_the_render_is_what_a_request_reads(client, fresh_rates) -> None:
    """The handler counts WeasyPrint's page announcements into the job cache, only from its own
    thread, and a request reads them back as the running job's pending state."""
    import logging
    import threading
    from datetime import timedelta

    from armybuilder import jobs
    from armybuilder.models import BackgroundJob

    army_list = big_list(30)
    queued = pdf_jobs.pdf_request(army_list=army_list, paper="a4", language="en", requester="ip:1")
    job = BackgroundJob.objects.get(kind=pdf_jobs.KIND)
    BackgroundJob.objects.filter(pk=job.pk).update(created=job.created - timedelta(seconds=3))
    jobs.job_start(job.pk, worker="test@host")
    progress = pdf_jobs.RenderProgress(pdf_jobs.progress_key(job.pk), since=time.time(), bound=60, interval=0)
    announcer = logging.getLogger("weasyprint.progress")
    other = threading.Thread(target=announcer.info, args=("Step 5 - Creating layout - Page %d", 99))
    announcer.addHandler(progress)
    try:
        other.start()
        other.join()
    finally:
        announcer.removeHandler(progress)
    assert progress.pages == 0  # another thread's render is not this one's

    pdf = pdf_jobs.roster_pdf_bytes(army_list=army_list, paper="a4", progress=progress)
    state = pdf_jobs.pdf_request(army_list=army_list, paper="a4", language="en", requester="ip:1")

    assert (queued.state, queued.stage) == ("pending", "queued")
    assert pdf.startswith(b"%PDF-")
    assert state.state == "pending" and state.stage == "writing" and state.pages >= 2
    assert 3 <= state.elapsed < 60
    pdf_jobs.cache().delete(pdf_jobs.progress_key(job.pk))


def test_one_render_per_list_at_a_time_whatever_the_variant(client, fresh_rates) -> None:
    """While one variant of a list renders, another variant (paper, language) is told
    "pending" and queues nothing; it queues once that render has ended."""
    from armybuilder import jobs
    from armybuilder.models import BackgroundJob

    army_list = big_list(1)
    a4 = pdf_jobs.pdf_request(army_list=army_list, paper="a4", language="en", requester="ip:1")

    waiting = pdf_jobs.pdf_request(army_list=army_list, paper="letter", language="pl", requester="ip:1")

    assert (a4.state, waiting.state) == ("pending", "pending")
    (render,) = BackgroundJob.objects.filter(kind=pdf_jobs.KIND)  # nothing queued for the letter variant
    assert render.lock == pdf_jobs.list_lock_key(army_list=army_list)
    jobs.job_finish(render.pk, result={}, outputs=[jobs.Upload(name=pdf_jobs.PDF_NAME, data=b"%PDF-1.7 a4")])
    letter = pdf_jobs.pdf_request(army_list=army_list, paper="letter", language="pl", requester="ip:1")
    assert letter.state == "pending"
    assert BackgroundJob.objects.filter(kind=pdf_jobs.KIND).count() == 2
    ready = pdf_jobs.pdf_request(army_list=army_list, paper="a4", language="en", requester="ip:1")
    assert (ready.state, ready.pdf) == ("ready", b"%PDF-1.7 a4")


def test_a_version_is_rendered_in_a_bounded_number_of_variants(fresh_rates, inline_pdf_renders) -> None:
    """The work is bounded per list version, not per variant; a new version starts
    a new count."""
    from armybuilder.lists import services

    fresh_rates.PDF_RENDERS_PER_VERSION = 2
    army_list = big_list(1)
    first = pdf_jobs.pdf_request(army_list=army_list, paper="a4", language="en", requester="ip:1")
    second = pdf_jobs.pdf_request(army_list=army_list, paper="letter", language="en", requester="ip:1")
    with pytest.raises(pdf_jobs.PdfThrottled) as refused:
        pdf_jobs.pdf_request(army_list=army_list, paper="a4", language="pl", requester="ip:2")
    again = pdf_jobs.pdf_request(army_list=army_list, paper="a4", language="en", requester="ip:3")

    assert (first.state, second.state, again.state) == ("ready", "ready", "ready")  # rendered ones are served
    assert refused.value.wait == fresh_rates.PDF_CACHE_SECONDS
    services.army_list_update(army_list=army_list, expected_version=army_list.version, name="New")
    army_list.refresh_from_db()
    new_version = pdf_jobs.pdf_request(army_list=army_list, paper="a4", language="pl", requester="ip:2")
    assert new_version.state == "ready"


def test_the_cpu_time_limit_stops_a_busy_block_and_is_put_back_after() -> None:
    import signal

    with pytest.raises(pdf_jobs.CpuTimeExceeded), pdf_jobs.cpu_time_limit(1):
        deadline = time.process_time() + 30
        while time.process_time() < deadline:
            pass
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    with pdf_jobs.cpu_time_limit(1):
        time.sleep(1.2)  # waiting costs no CPU: a loaded server does not kill a render


def test_a_new_release_renders_the_pdf_again(settings, fresh_rates, inline_pdf_renders) -> None:
    """A PDF is kept by the list's version, and a deploy that changed the printed roster kept
    serving the old layout for a day to a list not edited since: the release is in the key."""
    army_list = big_list(2)
    settings.RELEASE = "release-1"
    first = pdf_jobs.pdf_key(army_list=army_list, paper="a4", language="en")
    settings.RELEASE = "release-2"
    second = pdf_jobs.pdf_key(army_list=army_list, paper="a4", language="en")
    assert first != second and "release-2" in second
    assert second.startswith(pdf_jobs.version_prefix(army_list=army_list))
