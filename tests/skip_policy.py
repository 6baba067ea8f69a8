"""No test may skip silently in CI (issue 18.5).

A skip is allowed only on a test marked `@pytest.mark.expected_skip("why")`; any other skip
(or a module skipped at collection) fails the run when the `CI` environment variable is set,
and is listed at the end of the report either way, so a green CI means every test ran.
"""

from __future__ import annotations

import os

import pytest


def _ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


class SkipPolicy:
    """Collects undeclared skips and turns a passing CI run into a failing one if there are any."""

    def __init__(self) -> None:
        self.unexpected: list[str] = []

    def _note(self, report: pytest.TestReport | pytest.CollectReport) -> None:
        if report.skipped and not hasattr(report, "wasxfail") and "expected_skip" not in report.keywords:
            self.unexpected.append(report.nodeid or "<collection>")

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self._note(report)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        self._note(report)

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if self.unexpected and _ci() and exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if self.unexpected:
            verdict = "fails CI" if _ci() else "would fail CI"
            terminalreporter.section(f"unexpected skips ({verdict})", red=True)
            for nodeid in self.unexpected:
                terminalreporter.line(nodeid)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "expected_skip(reason): this test may skip (say why); any other skip fails CI")
    config.pluginmanager.register(SkipPolicy(), "skip-policy")
