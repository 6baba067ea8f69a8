"""The skip policy (tests/skip_policy.py): an undeclared skip fails a CI run, a declared one does not."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONFTEST = 'pytest_plugins = ["tests.skip_policy"]\n'
SKIPPING = """
import pytest

def test_runs():
    assert True

def test_skips():
    pytest.skip("no reason given")
"""
DECLARED = """
import pytest

@pytest.mark.expected_skip("needs hardware this machine lacks")
def test_skips():
    pytest.skip("declared")
"""


def run(pytester: pytest.Pytester, source: str, monkeypatch: pytest.MonkeyPatch, ci: str) -> pytest.RunResult:
    monkeypatch.setenv("CI", ci)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_sample=source)
    return pytester.runpytest_subprocess("-p", "no:django", "-p", "no:cacheprovider")


def test_an_undeclared_skip_fails_in_ci(pytester, monkeypatch):
    result = run(pytester, SKIPPING, monkeypatch, "true")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*unexpected skips (fails CI)*", "*test_sample.py::test_skips*"])


def test_an_undeclared_skip_is_reported_but_passes_outside_ci(pytester, monkeypatch):
    result = run(pytester, SKIPPING, monkeypatch, "")
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["*unexpected skips (would fail CI)*"])


def test_a_declared_skip_passes_in_ci(pytester, monkeypatch):
    result = run(pytester, DECLARED, monkeypatch, "true")
    assert result.ret == pytest.ExitCode.OK
    assert "unexpected skips" not in result.stdout.str()
