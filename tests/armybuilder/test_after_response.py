"""Work deferred to after the response (`armybuilder.after_response`): held while a request is
served and run when the server closes its response (Django's `request_started` and
`request_finished`, as the app wires them), once per key in its latest form; run at once
outside a request; a failure logged without stopping the rest."""

from __future__ import annotations

import logging
from typing import Any

from django.core.signals import request_finished, request_started

from armybuilder.after_response import defer


def test_outside_a_request_the_work_runs_at_once() -> None:
    done: list[str] = []
    defer(lambda: done.append("now"), key="k")
    assert done == ["now"]


def test_in_a_request_the_work_waits_for_the_response_and_runs_once_per_key() -> None:
    done: list[str] = []
    request_started.send(sender=None)
    try:
        defer(lambda: done.append("first of a"), key="a")
        defer(lambda: done.append("b"), key="b")
        defer(lambda: done.append("latest of a"), key="a")
        assert done == []
    finally:
        request_finished.send(sender=None)
    assert done == ["b", "latest of a"]
    defer(lambda: done.append("after"), key="a")  # the request is over: at once again
    assert done[-1] == "after"


def test_a_failure_is_logged_and_the_rest_still_runs(caplog: Any) -> None:
    done: list[str] = []

    def fail() -> None:
        raise RuntimeError("broken")

    request_started.send(sender=None)
    defer(fail, key="failing")
    defer(lambda: done.append("ran"), key="other")
    with caplog.at_level(logging.ERROR, logger="armybuilder.after_response"):
        request_finished.send(sender=None)
    assert done == ["ran"]
    assert "failing" in caplog.text and "broken" in caplog.text
