"""The evaluation cache (`engine.evalcache`): an eager value is recomputed when what it read
changes (and stops the propagation when its result is unchanged); a lazy one only becomes
dirty, passes the dirtiness on, and is recomputed when read."""

from __future__ import annotations

from rules.battlescribe.engine.evalcache import MISSING, EvalCache


class Counted:
    def __init__(self) -> None:
        self.calls: dict[str, int] = {}

    def bump(self, name: str) -> None:
        self.calls[name] = self.calls.get(name, 0) + 1


def test_a_lazy_aggregate_waits_to_be_read_and_an_unchanged_value_stops_propagation():
    cache = EvalCache()
    state = {"a": 1, "b": 10}
    seen = Counted()

    def leaf(name):
        def compute():
            seen.bump(name)
            cache.read(("bucket", name))
            return state[name] // 10 if name == "b" else state[name]

        return compute

    def total():
        seen.bump("total")
        return cache.get("a", leaf("a")) + cache.get("b", leaf("b"))

    def report():
        seen.bump("report")
        return f"total {cache.get('total', total, lazy=True)}"

    assert cache.get("report", report, lazy=True) == "total 2"
    state["a"] = 5
    cache.invalidate([("bucket", "a")])
    cache.get("b", leaf("b"))  # a read settles the cache: the eager leaf is recomputed ...
    assert seen.calls == {"report": 1, "total": 1, "a": 2, "b": 1}  # ... the lazy ones are not
    assert cache.get("report", report, lazy=True) == "total 6"
    assert seen.calls == {"report": 2, "total": 2, "a": 2, "b": 1}
    state["b"] = 12  # b // 10 stays 1: the change stops at b
    cache.invalidate([("bucket", "b")])
    assert cache.get("report", report, lazy=True) == "total 6"
    assert seen.calls == {"report": 2, "total": 2, "a": 2, "b": 2}


def test_a_computation_given_as_a_function_and_its_arguments_is_recomputed_like_a_closure():
    cache = EvalCache()
    state = {"n": 2}
    calls: list[tuple[str, int]] = []

    def scaled(name: str, factor: int) -> int:
        calls.append((name, factor))
        cache.read(("bucket", name))
        return state[name] * factor

    assert cache.get("x3", (scaled, "n", 3)) == 6
    assert cache.get("x3", (scaled, "n", 3)) == 6  # kept
    state["n"] = 5
    cache.invalidate([("bucket", "n")])
    # The eager value is recomputed by the next read's settle, from the function and arguments
    # it keeps, before any caller passes them again.
    assert cache.peek("x3") is MISSING  # dirty
    assert cache.get("other", lambda: 0) == 0
    assert cache.peek("x3") == 15
    assert calls == [("n", 3), ("n", 3)]


def test_a_read_while_pulling_recomputes_only_what_it_depends_on_and_sees_what_a_settle_would():
    cache = EvalCache()
    state = {"a": 1, "b": 2}
    seen = Counted()

    def leaf(name):
        def compute():
            seen.bump(name)
            cache.read(("bucket", name))
            return state[name]

        return compute

    def doubled():
        seen.bump("doubled")
        return 2 * cache.get("a", leaf("a"))

    def plus_one():  # a value that reads a value that reads the bucket
        seen.bump("plus_one")
        return cache.get("doubled", doubled) + 1

    assert cache.get("plus_one", plus_one) == 3
    assert cache.get("b", leaf("b")) == 2
    state["a"], state["b"] = 5, 7
    cache.invalidate([("bucket", "a"), ("bucket", "b")])
    with cache.pulling():
        # Two levels above the changed bucket, and not dirty itself: the read walks down to
        # the dirty leaf, recomputes it and what changed with it, and leaves b pending.
        assert cache.peek("plus_one") is MISSING
        assert cache.get("plus_one", plus_one) == 11
        assert cache.peek("plus_one") == 11
        assert seen.calls == {"plus_one": 2, "doubled": 2, "a": 2, "b": 1}
        state["a"] = 6
        cache.invalidate([("bucket", "a")])  # a change inside the scope is seen by the next read
        assert cache.get("plus_one", plus_one) == 13
    assert seen.calls == {"plus_one": 3, "doubled": 3, "a": 3, "b": 1}
    assert cache.get("other", lambda: 0) == 0  # out of the scope, a read settles what is pending
    assert seen.calls["b"] == 2
    assert cache.peek("b") == 7


def test_a_value_whose_dependency_did_not_change_is_kept_while_pulling():
    cache = EvalCache()
    state = {"a": 12}
    seen = Counted()

    def tens():
        seen.bump("tens")
        cache.read(("bucket", "a"))
        return state["a"] // 10

    def label():
        seen.bump("label")
        return f"{cache.get('tens', tens)} tens"

    assert cache.get("label", label) == "1 tens"
    state["a"] = 15
    cache.invalidate([("bucket", "a")])
    with cache.pulling():
        assert cache.get("label", label) == "1 tens"
    assert seen.calls == {"tens": 2, "label": 1}  # the unchanged count stopped there
