"""Tokens for apps: `POST /api/v1/auth/token` creates (or returns) one, `DELETE` revokes it.

A user has one token (DRF's `authtoken`); revoking it signs out every app holding it, and
the next `POST` issues a fresh one. The browser needs none of this: its session works.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from armybuilder.api.exceptions import ServiceUnavailable
from armybuilder.api.schema import error
from armybuilder.api.serializers import CredentialsSerializer, TokenSerializer
from armybuilder.api.throttling import PerIPThrottle, PerUserThrottle, SharedCacheThrottle
from armybuilder.login_limits import LoginAttemptThrottle, LoginStoreDown, login_failed


class LoginThrottle(SharedCacheThrottle):
    """Password attempts for a token, refused while the address (or the address and username)
    is over its count of failed attempts, shared with the HTML login forms
    (`armybuilder.login_limits`; the view counts a failure); fails closed (503)."""

    scope = "login"

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method != "POST":
            return True
        data = request.data if isinstance(request.data, dict) else {}
        counter = LoginAttemptThrottle()
        try:
            wait = counter.blocked(address=self.get_ident(request), username=str(data.get("username") or ""))
        except LoginStoreDown:
            raise ServiceUnavailable("Signing in is not possible right now; try again in a minute.") from None
        self.window_ends = counter.window_ends
        return wait is None


class TokenView(APIView):
    """Exchange a username and password for a token; revoke the token in use."""

    throttle_classes = [LoginThrottle, PerUserThrottle, PerIPThrottle]

    def get_permissions(self) -> list[permissions.BasePermission]:
        if self.request.method == "POST":
            return [permissions.AllowAny()]
        return [permissions.IsAuthenticated()]

    @extend_schema(
        tags=["auth"], operation_id="auth_token_create", request=CredentialsSerializer,
        responses={200: TokenSerializer,
                   400: error("Wrong username or password (`details.non_field_errors`), "
                              "or a missing field.")},
        auth=[{}],
        summary="Get an API token",
        description="Returns the account's token, creating it if it has none. Failed attempts are "
                    "limited per client address and username (`login` rate) and per client address "
                    "(`login_address` rate) to slow password guessing.",
    )
    def post(self, request: Request) -> Response:
        serializer = CredentialsSerializer(data=request.data, context={"request": request})
        if not serializer.is_valid():
            # Only a failed attempt counts against the login limits.
            data = request.data if isinstance(request.data, dict) else {}
            try:
                login_failed(request=request, username=data.get("username"))
            except LoginStoreDown:
                raise ServiceUnavailable(
                    "Signing in is not possible right now; try again in a minute.") from None
            raise ValidationError(serializer.errors)
        user = serializer.validated_data["user"]
        token, _ = Token.objects.get_or_create(user=user)
        body = {"token": token.key, "user_id": user.pk, "username": user.get_username()}
        return Response(TokenSerializer(body).data)

    @extend_schema(
        tags=["auth"], operation_id="auth_token_revoke", request=None,
        responses={204: OpenApiResponse(description="Revoked; apps using the token must sign in again.")},
        summary="Revoke the API token",
    )
    def delete(self, request: Request) -> Response:
        Token.objects.filter(user=request.user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)
