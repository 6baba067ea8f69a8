"""The navigation context processor: the links a visitor may follow, worked out only when shown."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory

from armybuilder.navigation import nav_links


def test_the_links_are_worked_out_when_a_template_shows_them_not_for_every_render():
    request = RequestFactory().get("/")
    context = nav_links(request)  # no user yet: nothing may have been read
    request.user = AnonymousUser()
    labels = [str(link["label"]) for link in context["nav_links"]]
    assert "Catalogue" in labels and "Gallery" in labels
    assert "My lists" not in labels  # members only
