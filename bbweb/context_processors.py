from django.http import HttpRequest

from bbweb.roles import is_game_master


def roles(request: HttpRequest) -> dict[str, object]:
    return {"is_game_master": is_game_master(request.user)}
