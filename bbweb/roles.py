"""Site-wide roles. A game master (GM) may create leagues and rule in the matches they run."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group, User

GM_GROUP = "Game masters"


_MEMO = "_bbweb_is_game_master"


def is_game_master(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Asked several times for one request (the navigation, each panel of a page): the answer
    is kept on the user object, which lives as long as the request."""
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    memo = getattr(user, _MEMO, None)
    if memo is None:
        memo = Group.objects.filter(name=GM_GROUP, user__pk=user.pk).exists()
        setattr(user, _MEMO, memo)
    return bool(memo)


def remember_game_master(user: AbstractBaseUser, member: bool) -> None:
    """What ``is_game_master`` answers for this user object, already read with it."""
    setattr(user, _MEMO, member)


def make_game_master(user: User) -> None:
    """A GM manages its leagues, teams and players in the admin, hence staff status."""
    group, _ = Group.objects.get_or_create(name=GM_GROUP)
    group.user_set.add(user)
    setattr(user, _MEMO, True)
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
