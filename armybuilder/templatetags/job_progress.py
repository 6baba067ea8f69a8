"""What the estimate progress partial can honestly say about a job that has not finished.

A list-against-list job reports after every matchup, so its progress is a count ("7 of 18
matchups"); a unit-against-unit job is one computation that reports only when it ends, so
a bar for it could only sit at 0 % — it is shown as indeterminate, with the time it has
waited or run, which is true and moves.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

register = template.Library()


@register.simple_tag
def job_progress(estimate: Any) -> dict[str, Any]:
    """`{steps, done, seconds, queued}`: `steps` is None when the job cannot count its steps."""
    inputs = estimate.inputs or {}
    steps = None
    if estimate.kind == "list_vs_list":
        try:
            steps = 2 * len(inputs["list_a"]["units"]) * len(inputs["list_b"]["units"])
        except (KeyError, TypeError):
            steps = None
    queued = estimate.status == "queued"
    since = estimate.created if queued or estimate.started is None else estimate.started
    seconds = max(0, int((timezone.now() - since).total_seconds())) if since else 0
    done = round(float(estimate.progress or 0) * steps) if steps else 0
    return {"steps": steps if not queued else None, "done": done, "seconds": seconds, "queued": queued}
