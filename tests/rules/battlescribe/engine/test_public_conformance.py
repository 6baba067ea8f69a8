"""The public WarHub/battlescribe-spec suite beside our own specs (issue 40): when a checkout of
its `specs/` folder is named by `BATTLESCRIBE_SPEC_DIR` (the suite is never committed here),
it must still pass at least 474 of its 480 specs, failing only the six the README explains.
Without it the test is skipped and says how to run it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rules.battlescribe.engine.conformance import run_suite

#: The public specs the README lists as not supported, and why.
KNOWN_FAILURES = {
    "wh40k-10e-create-army",
    "wh40k-10e-space-marines-army",
    "protocol-kitchen-sink",
    "collective-group-default-scaling",
    "modifier-repeat-cost-self-reference",
    "modifier-repeat-cost-mutual-reference",
}
MINIMUM_PASSED = 474


@pytest.mark.expected_skip(
    "the public suite is third-party data and never committed; BATTLESCRIBE_SPEC_DIR names a checkout")
def test_public_suite_still_passes_what_it_passed():
    folder = os.environ.get("BATTLESCRIBE_SPEC_DIR", "")
    if not folder or not Path(folder).is_dir():
        pytest.skip("set BATTLESCRIBE_SPEC_DIR to a WarHub/battlescribe-spec checkout's specs/ folder")
    suite = run_suite(Path(folder))
    failed = {r.id for r in suite.results if not r.passed}
    assert failed <= KNOWN_FAILURES
    assert suite.passed >= MINIMUM_PASSED
