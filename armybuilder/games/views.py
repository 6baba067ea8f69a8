"""Play-mode pages: my games and the start form, the play page, its taps, the odds, the log.

Views only translate HTTP into the services' calls (the API makes the same). Every tap is a
small form that posts and redirects back without JavaScript; with htmx it posts in place and
the board comes back as one fragment (`games/_board.html`). A game of somebody else is a 404.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from armybuilder.games import selectors, services
from armybuilder.games.models import Game
from armybuilder.games.play_state import GameActionError
from armybuilder.games.rules_reference import game_rules_reference
from armybuilder.lists.selectors import army_lists_owned_by
from armybuilder.offline import mark_offline_copy

#: Own lists the start form offers.
LISTS_OFFERED = 100


def _game(request: HttpRequest, game_id: Any) -> Game:
    game = selectors.game_get_for_user(user=request.user, game_id=game_id)
    if game is None:
        raise Http404(_("No such game, or it is not yours."))
    return game


def _int(value: Any) -> int | None:
    text = str(value if value is not None else "").strip()
    return int(text) if text.lstrip("-").isdigit() and len(text) < 9 else None


def _start_context(request: HttpRequest, errors: dict[str, list[str]] | None = None) -> dict[str, Any]:
    lists = army_lists_owned_by(user=request.user, summary=True).select_related("system")[:LISTS_OFFERED]
    return {
        "lists": lists,
        "errors": errors or {},
        "data": request.POST if request.method == "POST" else {},
        "games": selectors.games_of(user=request.user)[: selectors.GAMES_SHOWN],
    }


@login_required
@require_GET
def game_list(request: HttpRequest) -> HttpResponse:
    """The player's games and the form to start one."""
    return render(request, "games/games.html", _start_context(request))


@login_required
@require_POST
def start(request: HttpRequest) -> HttpResponse:
    """Start a game from two lists: each one of the player's, or behind a share link."""
    errors: dict[str, list[str]] = {}
    sources = []
    for field in ("first", "second"):
        try:
            sources.append(
                services.army_source(
                    user=request.user,
                    list_id=_int(request.POST.get(f"{field}_list")),
                    link=str(request.POST.get(f"{field}_link", ""))[:500],
                    field=field,
                )
            )
        except services.GameStartError as exc:
            errors.update(exc.errors)
    if not errors:
        try:
            game = services.game_start(
                user=request.user,
                first=sources[0],
                second=sources[1],
                name=str(request.POST.get("name", ""))[:200],
            )
        except services.GameStartError as exc:
            errors.update(exc.errors)
        else:
            return redirect("games:play", game_id=game.pk)
    return render(request, "games/games.html", _start_context(request, errors), status=400)


def _board_response(
    request: HttpRequest,
    game: Game,
    *,
    status: int = 200,
    error: str = "",
    odds: dict[str, Any] | None = None,
) -> HttpResponse:
    state = services.game_state(game=game)
    context = {
        **selectors.game_board(game=game, state=state),
        "error": error,
        "odds": odds,
        "state_json": json.dumps(state.as_dict()),
    }
    template = "games/_board.html" if request.htmx else "games/play.html"
    return render(request, template, context, status=status)


@login_required
@require_GET
def play(request: HttpRequest, game_id: Any) -> HttpResponse:
    """The play page; the service worker may keep it (the player's own game) for play offline."""
    return mark_offline_copy(_board_response(request, _game(request, game_id)))


def _action_of(post: Any) -> dict[str, Any]:
    """A tap's form as an action: the op and its fields, numbers as numbers."""
    action: dict[str, Any] = {"op": str(post.get("op", ""))[:16]}
    for key in ("side", "unit", "model", "delta"):
        if key in post:
            action[key] = _int(post.get(key))
    if "state" in post:
        action["state"] = str(post.get("state"))[:64]
        action["on"] = post.get("on") == "1"
    if "value" in post:
        value = str(post.get("value"))[:64]
        action["value"] = _int(value) if action["op"] == "battle_round" else value
    return action


@login_required
@require_POST
def act(request: HttpRequest, game_id: Any) -> HttpResponse:
    """One tap (or undo) of the play page."""
    game = _game(request, game_id)
    try:
        game, _state = services.game_act(game=game, action=_action_of(request.POST))
    except GameActionError as exc:
        if not request.htmx:
            from django.contrib import messages

            messages.error(request, str(exc))
            return redirect("games:play", game_id=game.pk)
        return _board_response(request, game, status=400, error=str(exc))
    if not request.htmx:
        return redirect("games:play", game_id=game.pk)
    return _board_response(request, game)


@login_required
@require_POST
def odds(request: HttpRequest, game_id: Any) -> HttpResponse:
    """The odds of a fight as it stands: one of the first army's units and one of the second's."""
    game = _game(request, game_id)
    attacker = [0, _int(request.POST.get("mine"))]
    defender = [1, _int(request.POST.get("theirs"))]
    mode = str(request.POST.get("mode", ""))[:16] or None
    try:
        answer = services.game_odds(
            game=game, user=request.user, attacker=attacker, defender=defender, mode=mode
        )
    except GameActionError as exc:
        return render(request, "games/_odds.html", {"error": str(exc), "game": game}, status=400)
    except services.OddsLimited as exc:
        response = render(request, "games/_odds.html", {"error": str(exc), "game": game}, status=429)
        response["Retry-After"] = str(int(exc.wait))
        return response
    if not request.htmx:
        return _board_response(request, game, odds=answer)
    return render(request, "games/_odds.html", {"odds": answer, "game": game})


@login_required
@require_GET
def odds_job(request: HttpRequest, game_id: Any, estimate_id: Any) -> HttpResponse:
    """One way of a fight worked out on the worker, as it stands: the play page polls this
    fragment (htmx) until the figures replace the pending state."""
    game = _game(request, game_id)
    direction = services.odds_job_direction(game=game, user=request.user, estimate_id=str(estimate_id))
    if direction is None:
        raise Http404(_("No such odds in this game."))
    return render(request, "games/_odds_direction.html", {"d": direction, "game": game})


@login_required
@require_POST
def finish(request: HttpRequest, game_id: Any) -> HttpResponse:
    game = _game(request, game_id)
    try:
        services.game_finish(game=game, result=str(request.POST.get("result", ""))[:16])
    except GameActionError as exc:
        from django.contrib import messages

        messages.error(request, str(exc))
    return redirect("games:play", game_id=game.pk)


@login_required
@require_GET
def log_text(request: HttpRequest, game_id: Any) -> HttpResponse:
    """The game's log as plain text, to keep or send."""
    game = _game(request, game_id)
    response = HttpResponse(
        "\n".join(selectors.game_log_lines(game=game)) + "\n", content_type="text/plain; charset=utf-8"
    )
    filename = slugify(game.name)[:60] or "game"
    response["Content-Disposition"] = f'attachment; filename="{filename}-log.txt"'
    return response


@login_required
@require_GET
def rules_reference(request: HttpRequest, game_id: Any) -> HttpResponse:
    """Every special rule, ability and item the two armies use, with its text; printable."""
    game = _game(request, game_id)
    return mark_offline_copy(
        render(request, "games/rules.html", {"game": game, "sections": game_rules_reference(game=game)})
    )
