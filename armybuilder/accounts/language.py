"""The interface language: which one a request gets, and how a choice is remembered.

Precedence, most specific first:

1. a signed-in player's saved choice (`PlayerProfile.language`), copied into the session
   at login so that no request pays a query for it;
2. the browser's `django_language` cookie, set by the language switcher (and kept in step
   with the account's choice, so it survives logging out);
3. `Accept-Language` on a first visit (Django's `LocaleMiddleware` handles 2 and 3).

URLs carry no language prefix, so a link is the same page in every language. API requests
(`/api/`) answer in the language of their `Accept-Language` header when they send one: a
script states its language per request, whatever cookie a browser session carries.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from armybuilder.accounts.models import PlayerProfile

#: Session key holding the signed-in player's saved language.
SESSION_KEY = "account_language"
API_PREFIX = "/api/"


def supported_language(code: str | None) -> str | None:
    """`code` (or its base language) when the site offers it, else None."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def accept_language(request: HttpRequest) -> str | None:
    """The first language of `Accept-Language` the site offers, or None."""
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    for code, _quality in parse_accept_lang_header(header):
        if code == "*":
            break
        language = supported_language(code)
        if language:
            return language
    return None


def player_language_save(*, user: object, language: str) -> None:
    """Remember `language` on the account (service: the switcher and the API both call it)."""
    PlayerProfile.objects.update_or_create(user=user, defaults={"language": language})


class AccountLanguageMiddleware:
    """Applies the account's language over LocaleMiddleware's choice (placed after it).

    Also keeps the language cookie equal to the account's choice, so the browser stays in
    that language after logging out.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chosen = None
        if request.path.startswith(API_PREFIX):
            chosen = accept_language(request)
        session = getattr(request, "session", None)
        account = supported_language(session.get(SESSION_KEY)) if session is not None else None
        if chosen is None and account:
            chosen = account
        if chosen and chosen != translation.get_language():
            translation.activate(chosen)
            request.LANGUAGE_CODE = chosen
        response = self.get_response(request)
        if account and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != account:
            _set_language_cookie(response, account)
        return response


def _set_language_cookie(response: HttpResponse, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's switcher (cookie, redirect to `next`), plus the account for a signed-in player."""
    response = django_set_language(request)
    language = supported_language(request.POST.get("language"))
    if language and language == request.POST.get("language"):
        if request.user.is_authenticated:
            player_language_save(user=request.user, language=language)
            request.session[SESSION_KEY] = language
        elif hasattr(request, "session"):
            request.session.pop(SESSION_KEY, None)
    return response


@receiver(user_logged_in, dispatch_uid="account-language-on-login")
def _language_on_login(sender: object, request: HttpRequest | None, user: object, **kwargs: object) -> None:
    """At login, the account's saved language (if any) becomes the session's."""
    if request is None or not hasattr(request, "session"):
        return
    saved = PlayerProfile.objects.filter(user=user).values_list("language", flat=True).first()
    if saved:
        request.session[SESSION_KEY] = saved
    else:
        request.session.pop(SESSION_KEY, None)
