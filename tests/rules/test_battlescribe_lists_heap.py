"""The engine data a server process loads is set aside from full collections
(`rules.battlescribe_lists._set_aside_long_lived`)."""

from __future__ import annotations

import gc

import pytest

from rules import battlescribe_lists


@pytest.fixture
def gc_calls(monkeypatch):
    """The collector's calls, recorded instead of made (the test process's heap is left alone)."""
    calls: list[str] = []
    for name in ("unfreeze", "collect", "freeze"):
        monkeypatch.setattr(gc, name, lambda *args, name=name: calls.append(name))
    return calls


def test_a_process_that_froze_its_start_up_heap_freezes_what_it_loads_after_collecting(monkeypatch, gc_calls):
    monkeypatch.setattr(gc, "get_freeze_count", lambda: 150_000)
    battlescribe_lists._set_aside_long_lived()
    # Unfrozen and collected first: what died since the last freeze is freed, not kept for ever.
    assert gc_calls == ["unfreeze", "collect", "freeze"]


def test_a_process_that_froze_nothing_is_left_as_it_is(monkeypatch, gc_calls):
    monkeypatch.setattr(gc, "get_freeze_count", lambda: 0)
    battlescribe_lists._set_aside_long_lived()
    assert gc_calls == []
