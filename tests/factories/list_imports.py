"""Following a list import's job to its end, from the page's redirect or the API's 202
(`armybuilder.lists.import_jobs`); with Celery's eager mode the job has ended already."""

from __future__ import annotations

import time
from typing import Any


def page_result(client: Any, posted: Any, *, seconds: float = 90) -> Any:
    """The import job's page once the job ended (the post redirected to it): the report, the
    editor's redirect, or the form with the problems."""
    assert posted.status_code == 302, posted.content
    location = posted["Location"]
    assert location.startswith("/lists/import/jobs/"), location
    deadline = time.monotonic() + seconds
    page = client.get(location)
    while page.status_code == 200 and b'id="list-import-pending"' in page.content:
        assert time.monotonic() < deadline, "the import did not end"
        time.sleep(0.1)
        page = client.get(location)
    return page


def api_result(client: Any, queued: Any, *, seconds: float = 90) -> Any:
    """The import job's last answer (200: done or failed) after the POST's 202."""
    assert queued.status_code == 202, queued.content
    assert queued["Location"] == queued.json()["url"]
    deadline = time.monotonic() + seconds
    answer = client.get(queued["Location"])
    while answer.status_code == 202:
        assert time.monotonic() < deadline, "the import did not end"
        assert answer["Retry-After"] == "2"
        time.sleep(0.1)
        answer = client.get(queued["Location"])
    return answer
