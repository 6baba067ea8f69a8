"""Account URLs (mounted under `accounts/`): `signup` plus django.contrib.auth's named views
(`login`, `logout`, `password_change`, `password_change_done`, `password_reset`,
`password_reset_done`, `password_reset_confirm`, `password_reset_complete`)."""

from django.urls import include, path

from armybuilder.accounts import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("", include("django.contrib.auth.urls")),
]
