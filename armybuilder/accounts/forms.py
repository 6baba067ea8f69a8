"""The sign-up form: a username, an e-mail address for password resets, and a password."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from armybuilder.accounts.guests import GUEST_PREFIX


class SignupForm(UserCreationForm):
    """Django's user creation form plus the e-mail address a password reset is sent to."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].required = True
        self.fields["email"].help_text = _("Only used to send you a link when you forget your password.")
        self.fields["username"].widget.attrs.update({"autocomplete": "username", "autofocus": True})
        self.fields["email"].widget.attrs.update({"autocomplete": "email"})

    def clean_username(self) -> str:
        username = super().clean_username()
        if str(username).lower().startswith(GUEST_PREFIX):
            raise forms.ValidationError(
                _("Names starting with “%(prefix)s” are kept for visitors without an account."),
                params={"prefix": GUEST_PREFIX},
            )
        return username
