"""The login counter's username key: any text a client sends makes a short, cache-safe key,
and one account is counted as one however its name is cased or padded."""

import warnings

from django.core.cache import cache
from django.core.cache.backends.base import CacheKeyWarning
from hypothesis import given
from hypothesis import strategies as st

from armybuilder.login_limits import MAX_USERNAME_KEY, username_key


@given(st.text(max_size=400))
def test_any_username_makes_a_short_key_memcached_would_accept(username):
    key = username_key(username)
    assert len(key) == 32 and key.isalnum()
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheKeyWarning)
        cache.validate_key(f"throttle_login_user_{key}:1")


def test_one_account_is_one_counter_whatever_its_case_or_padding():
    assert username_key("  Alice ") == username_key("alice")
    assert username_key("alice") != username_key("alicf")


def test_names_differing_only_past_the_cut_share_a_counter():
    stem = "a" * MAX_USERNAME_KEY
    assert username_key(stem + "x") == username_key(stem + "y")
