"""Lists opened through a share link: `/api/v1/shared/{token}`, no account needed.

The token is the whole permission (`armybuilder.lists.sharing`): whoever has it may read the
list, export or print it, and — signed in — fork it. A revoked or unknown token is a 404.
Nothing here can change the list.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, permissions, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from armybuilder.api.lists import list_response
from armybuilder.api.schema import ETAG_HEADER, IF_NONE_MATCH, NOT_MODIFIED
from armybuilder.api.serializers import ArmyListSerializer
from armybuilder.lists.selectors import army_list_by_share_token, army_list_get_for_user
from armybuilder.lists.services import army_list_fork
from armybuilder.models import ArmyList

TAGS = ["shared lists"]
#: What `armybuilder.lists.sharing` makes (`secrets.token_urlsafe`); anything else cannot match.
TOKEN_PATTERN = r"[-A-Za-z0-9_]{1,64}"


class SharedListLookupMixin:
    """The list a share token opens, or 404."""

    kwargs: dict[str, str]

    def get_shared_list(self) -> ArmyList:
        army_list = army_list_by_share_token(token=self.kwargs["token"])
        if army_list is None:
            raise exceptions.NotFound(_("No list is shared with this link (it may have been revoked)."))
        return army_list


class SharedListViewSet(SharedListLookupMixin, viewsets.GenericViewSet):
    """Read a shared list; fork it into your own lists."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    serializer_class = ArmyListSerializer

    @extend_schema(tags=TAGS, summary="Read a shared list", parameters=[ETAG_HEADER, IF_NONE_MATCH],
                   responses={200: ArmyListSerializer, **NOT_MODIFIED})
    def retrieve(self, request: Request, token: str) -> Response:
        """The list the link points at, read-only; no account needed."""
        return list_response(request, self.get_shared_list())

    @extend_schema(tags=TAGS, summary="Fork a shared list into your own lists", request=None,
                   parameters=[ETAG_HEADER], responses={201: ArmyListSerializer})
    def fork(self, request: Request, token: str) -> Response:
        """A private copy in your own lists (needs an account)."""
        copy = army_list_fork(army_list=self.get_shared_list(), user=request.user)
        copy = army_list_get_for_user(user=request.user, list_id=copy.pk)
        return list_response(request, copy, status_code=status.HTTP_201_CREATED)
