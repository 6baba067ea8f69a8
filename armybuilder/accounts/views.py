"""Sign-up and log-in: create the account or check the password, log the player in, hand
over the lists a guest built in this session (`guests`), and send them where they were going."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render, resolve_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from armybuilder.accounts.forms import SignupForm
from armybuilder.accounts.guests import guest_hand_over, is_guest

#: A new player's first stop: their (empty) lists page, with its "New list" button.
NEW_PLAYER_LANDING = "lists:mine"


def _next_url(request: HttpRequest) -> str:
    """The `next` parameter when it points at this site, else the page after logging in."""
    candidate = request.POST.get("next") or request.GET.get("next") or ""
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return resolve_url(NEW_PLAYER_LANDING)


@sensitive_post_parameters("password1", "password2")
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated and not is_guest(request.user):
        return HttpResponseRedirect(_next_url(request))
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        guest = request.user if is_guest(request.user) else None
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        if guest is not None:
            guest_hand_over(guest=guest, user=user)
        return HttpResponseRedirect(_next_url(request))
    status = 400 if request.method == "POST" else 200
    return render(
        request, "registration/signup.html", {"form": form, "next": _next_url(request)}, status=status
    )


class LoginView(auth_views.LoginView):
    """Django's log-in page; a guest may use it too (a player is sent on), and the lists the
    guest built in this session go to the account they log into."""

    redirect_authenticated_user = True

    def dispatch(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        # Only a player is sent on at once: a guest came here to log into their account.
        self.redirect_authenticated_user = not is_guest(request.user)
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        guest = self.request.user if is_guest(self.request.user) else None
        response = super().form_valid(form)
        if guest is not None:
            guest_hand_over(guest=guest, user=form.get_user())
        return response
