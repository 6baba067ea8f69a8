"""Games over the API (`/api/v1/games`): start a game from two lists, read it and its state,
tap (one action) or sync the taps made offline, ask the odds of a fight as it stands, finish it.

Every endpoint calls what the pages call (`games.services`, `games.selectors`). A game is its
owner's alone: another player's game is a 404. A refused tap is a 400 naming its field; a sync
from an older version than the game's is a 409 (take the game's actions, replay yours on top,
sync again); too many odds in a minute are a 429 with `Retry-After`.
"""

from __future__ import annotations

from typing import Any

from django.urls import path, reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import exceptions, generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from armybuilder.api.exceptions import Conflict
from armybuilder.api.schema import error
from armybuilder.games import selectors, services
from armybuilder.games.models import Game
from armybuilder.games.play_state import GameActionError
from rules.systems.registry import get_system

TAGS = ["games"]
RESULT_HELP = "`first`, `second` or `draw` once the game is finished; empty while it is played."


def _refused(exc: Exception) -> exceptions.ValidationError:
    return exceptions.ValidationError(getattr(exc, "errors", {"game": [str(exc)]}))


def _game_or_404(request: Request, game_id: Any) -> Game:
    game = selectors.game_get_for_user(user=request.user, game_id=game_id)
    if game is None:
        raise exceptions.NotFound(_("No such game, or it is not yours."))
    return game


# --- Bodies ------------------------------------------------------------------------------


class ArmyChoiceSerializer(serializers.Serializer):
    """One army of a new game: one of your lists by id, or any list or locked version by its
    share link (or the link's token)."""

    list = serializers.IntegerField(required=False, min_value=1, help_text="Id of one of your lists.")
    link = serializers.CharField(
        required=False,
        max_length=500,
        allow_blank=True,
        help_text="Share link of a list or a locked version (`…/lists/shared/<token>/`).",
    )


class GameCreateRequestSerializer(serializers.Serializer):
    first = ArmyChoiceSerializer()
    second = ArmyChoiceSerializer()
    name = serializers.CharField(required=False, max_length=200, allow_blank=True)


class GameActionSerializer(serializers.Serializer):
    """One tap: `op` and the fields it takes (`lose`/`wound`: side, unit, model; `state`: side,
    unit, state, on; `battle_round`: value (a number); `phase`: value (a phase key); `vp`: side, delta;
    `undo`: nothing)."""

    op = serializers.ChoiceField(choices=["lose", "wound", "state", "battle_round", "phase", "vp", "undo"])
    side = serializers.IntegerField(required=False, min_value=0, max_value=1)
    unit = serializers.IntegerField(required=False, min_value=0)
    model = serializers.IntegerField(required=False, min_value=0)
    state = serializers.CharField(required=False, max_length=64)
    on = serializers.BooleanField(required=False)
    value = serializers.CharField(
        required=False, max_length=64, help_text="The round (a whole number) or the phase's key."
    )
    delta = serializers.IntegerField(required=False)

    def to_action(self) -> dict[str, Any]:
        action = dict(self.validated_data)
        if action.get("op") == "battle_round" and "value" in action:
            text = str(action["value"])
            action["value"] = int(text) if text.isdigit() and len(text) < 6 else text
        return action


class GameSyncRequestSerializer(serializers.Serializer):
    seen = serializers.IntegerField(
        min_value=0, help_text="How many of the game's actions the client has seen."
    )
    actions = GameActionSerializer(many=True, help_text="The client's taps since then, in order.")


@extend_schema_field({"type": "object", "additionalProperties": True})
class ObjectField(serializers.JSONField):
    pass


@extend_schema_field({"type": "array", "items": {"type": "object", "additionalProperties": True}})
class ObjectListField(serializers.JSONField):
    pass


class OddsRequestSerializer(serializers.Serializer):
    attacker = serializers.ListField(
        child=serializers.IntegerField(min_value=0),
        min_length=2,
        max_length=2,
        help_text="[side, unit] of the attacking unit.",
    )
    defender = serializers.ListField(
        child=serializers.IntegerField(min_value=0),
        min_length=2,
        max_length=2,
        help_text="[side, unit] of the unit attacked (the other army).",
    )
    mode = serializers.CharField(
        required=False,
        max_length=16,
        help_text="An attack mode the current phase allows (default: its first).",
    )
    situation = ObjectField(
        required=False,
        help_text="The attacker's situation: fields of the system's situation schema "
        "(`/api/v1/systems/{key}/situation-schema`), defaults for the rest; the blow back is asked "
        "in the mode alone.",
    )


class GameFinishRequestSerializer(serializers.Serializer):
    result = serializers.ChoiceField(choices=Game.Result.values)


class GameSerializer(serializers.ModelSerializer):
    """A game: both armies as they started (units in the unit format), the state as it stands,
    the actions so far, and what the system tracks in play (its states and phases)."""

    url = serializers.SerializerMethodField()
    result = serializers.CharField(read_only=True, help_text=RESULT_HELP)
    state = serializers.SerializerMethodField()
    play = serializers.SerializerMethodField()
    armies = ObjectListField()
    actions = ObjectListField()

    class Meta:
        model = Game
        fields = [
            "id",
            "url",
            "name",
            "system",
            "version",
            "result",
            "finished",
            "created",
            "updated",
            "armies",
            "actions",
            "state",
            "play",
        ]
        read_only_fields = fields

    def get_url(self, game: Game) -> str:
        return self.context["request"].build_absolute_uri(reverse("api:game-detail", args=[game.pk]))

    @extend_schema_field(ObjectField)
    def get_state(self, game: Game) -> dict[str, Any]:
        return services.game_state(game=game).as_dict()

    @extend_schema_field(ObjectField)
    def get_play(self, game: Game) -> dict[str, Any]:
        play = get_system(game.system).play
        return {
            "wounds_field": play.wounds_field,
            "states": [
                {"key": s.key, "label": _(s.label), "can_attack": s.can_attack, "out_of_play": s.out_of_play}
                for s in play.states
            ],
            "phases": [{"key": p.key, "label": _(p.label), "modes": list(p.modes)} for p in play.phases],
        }


class GameSummarySerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    result = serializers.CharField(read_only=True, help_text=RESULT_HELP)

    class Meta:
        model = Game
        fields = ["id", "url", "name", "system", "version", "result", "finished", "created", "updated"]
        read_only_fields = fields

    def get_url(self, game: Game) -> str:
        return self.context["request"].build_absolute_uri(reverse("api:game-detail", args=[game.pk]))


class OddsSerializer(serializers.Serializer):
    mode = serializers.CharField()
    battle_round = serializers.IntegerField()
    phase = serializers.CharField()
    directions = ObjectListField(
        help_text="Each way of the fight: attacker, defender, status (`done`, `queued`, "
        "`running`, `refused`), reason, result (the estimate), summary, "
        "estimate (the job's id when it runs on the worker), situation (the one estimated: "
        "the one asked, with what the units' marked states set, such as a shaken defender)."
    )


# --- Views -------------------------------------------------------------------------------


def _game_response(request: Request, game: Game, status_code: int = status.HTTP_200_OK) -> Response:
    return Response(GameSerializer(game, context={"request": request}).data, status=status_code)


class GameListView(generics.ListAPIView):
    """Your games, most recently played first; POST starts one."""

    serializer_class = GameSummarySerializer

    def get_queryset(self) -> Any:
        return selectors.games_of(user=self.request.user)

    @extend_schema(tags=TAGS, operation_id="games_list", summary="Your games")
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        tags=TAGS,
        operation_id="games_create",
        summary="Start a game of two lists",
        request=GameCreateRequestSerializer,
        responses={201: GameSerializer, 400: error("A list that cannot be read or played, by its side.")},
    )
    def post(self, request: Request) -> Response:
        incoming = GameCreateRequestSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        try:
            first, second = (
                services.army_source(
                    user=request.user,
                    list_id=data[side].get("list"),
                    link=data[side].get("link", ""),
                    field=side,
                )
                for side in ("first", "second")
            )
            game = services.game_start(
                user=request.user, first=first, second=second, name=data.get("name", "")
            )
        except services.GameStartError as exc:
            raise _refused(exc) from None
        return _game_response(request, game, status.HTTP_201_CREATED)


class GameDetailView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="games_retrieve",
        summary="A game, its state and its actions",
        responses={200: GameSerializer, 404: error("No such game of yours.")},
    )
    def get(self, request: Request, game_id: Any) -> Response:
        return _game_response(request, _game_or_404(request, game_id))


class GameActionView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="games_actions_create",
        summary="One tap (or undo)",
        request=GameActionSerializer,
        responses={200: GameSerializer, 400: error("The game cannot take this tap, by field.")},
    )
    def post(self, request: Request, game_id: Any) -> Response:
        game = _game_or_404(request, game_id)
        incoming = GameActionSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        try:
            game, _state = services.game_act(game=game, action=incoming.to_action())
        except GameActionError as exc:
            raise _refused(exc) from None
        return _game_response(request, game)


class GameSyncView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="games_sync_create",
        summary="Send the taps made offline",
        request=GameSyncRequestSerializer,
        responses={
            200: GameSerializer,
            400: error("A tap the game cannot take: none is kept."),
            409: error("The game has actions the client has not seen: read it and sync again."),
        },
    )
    def post(self, request: Request, game_id: Any) -> Response:
        game = _game_or_404(request, game_id)
        incoming = GameSyncRequestSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        actions = [GameActionSerializer(data=item) for item in request.data.get("actions", [])]
        for item in actions:
            item.is_valid(raise_exception=True)
        try:
            game, _state = services.game_sync(
                game=game,
                base=incoming.validated_data["seen"],
                actions=[item.to_action() for item in actions],
            )
        except GameActionError as exc:
            raise _refused(exc) from None
        except services.GameConflict:
            raise Conflict(
                _("The game has actions this client has not seen: read it and sync again.")
            ) from None
        return _game_response(request, game)


class GameOddsView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="games_odds_create",
        summary="The odds of a fight as it stands",
        description="The exact estimate of the attacker on the defender and back, with the survivors "
        "as they are now, in a mode the phase allows. Cheap fights are answered at once; "
        "others run on the worker (`status` queued, `estimate` names the job: "
        "`/api/v1/estimates/{id}`). Rated per minute.",
        request=OddsRequestSerializer,
        responses={
            200: OddsSerializer,
            400: error("A unit or mode the fight cannot take."),
        },
    )
    def post(self, request: Request, game_id: Any) -> Response:
        game = _game_or_404(request, game_id)
        incoming = OddsRequestSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        try:
            answer = services.game_odds(
                game=game,
                user=request.user,
                attacker=data["attacker"],
                defender=data["defender"],
                mode=data.get("mode"),
                situation=data.get("situation"),
            )
        except GameActionError as exc:
            raise _refused(exc) from None
        except services.OddsLimited as exc:
            raise exceptions.Throttled(wait=exc.wait, detail=str(exc)) from None
        return Response(OddsSerializer(answer).data)


class GameFinishView(APIView):
    @extend_schema(
        tags=TAGS,
        operation_id="games_finish_create",
        summary="Finish the game with its result",
        request=GameFinishRequestSerializer,
        responses={200: GameSerializer, 400: error("Already finished, or not a result.")},
    )
    def post(self, request: Request, game_id: Any) -> Response:
        game = _game_or_404(request, game_id)
        incoming = GameFinishRequestSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        try:
            game = services.game_finish(game=game, result=incoming.validated_data["result"])
        except GameActionError as exc:
            raise _refused(exc) from None
        return _game_response(request, game)


urlpatterns = [
    path("games", GameListView.as_view(), name="game-list"),
    path("games/<uuid:game_id>", GameDetailView.as_view(), name="game-detail"),
    path("games/<uuid:game_id>/actions", GameActionView.as_view(), name="game-actions"),
    path("games/<uuid:game_id>/sync", GameSyncView.as_view(), name="game-sync"),
    path("games/<uuid:game_id>/odds", GameOddsView.as_view(), name="game-odds"),
    path("games/<uuid:game_id>/finish", GameFinishView.as_view(), name="game-finish"),
]
