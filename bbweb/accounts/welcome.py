"""A new account's first page greets it as new: allauth's sign-up marks the session, the home
page reads the mark once."""

from typing import Any

from allauth.account.signals import user_signed_up
from django.dispatch import receiver
from django.http import HttpRequest

NEW_ACCOUNT = "bbweb_new_account"


@receiver(user_signed_up)
def _mark_new_account(sender: object, request: HttpRequest | None, **kwargs: Any) -> None:
    if request is not None and hasattr(request, "session"):
        request.session[NEW_ACCOUNT] = True
