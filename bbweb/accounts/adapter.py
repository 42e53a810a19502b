"""bbweb's ways with django-allauth: its names rule (bbweb/accounts/names.py), and accounts made
by staff or a command (no e-mail address on record) trusted as they are, as before allauth."""

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from allauth.account.stages import EmailVerificationStage
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from django import forms
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from bbweb import throttle
from bbweb.accounts import names


class TrustedAccountsEmailStage(EmailVerificationStage):
    """allauth's mandatory check of the address at login, for the accounts that gave one to
    allauth: those made by staff or a command have none and log in as they did."""

    def handle(self) -> tuple[Any, bool]:
        user = self.login.user
        if user is not None and not EmailAddress.objects.filter(user_id=user.pk).exists():
            return None, True
        return super().handle()


class _Site:
    """What allauth's mails call the site: bbweb, at the address the request came to."""

    name = "bbweb"

    def __init__(self, domain: str) -> None:
        self.domain = domain

    def __str__(self) -> str:
        return self.name


class AccountAdapter(DefaultAccountAdapter):
    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        domain = self.request.get_host() if self.request is not None else "bbweb"
        super().send_mail(template_prefix, email, {"current_site": _Site(domain), **context})

    def get_client_ip(self, request: HttpRequest) -> str:
        """The address allauth's own limits count: the site's, through the trusted proxies."""
        return throttle.client_ip(request)

    def clean_username(self, username: str, shallow: bool = False) -> str:
        username = super().clean_username(username, shallow=shallow)
        if shallow:
            return username
        try:
            return names.check_name(username)
        except ValidationError as refused:
            raise forms.ValidationError(refused.messages[0]) from refused

    def get_login_stages(self) -> list[str]:
        stock = "allauth.account.stages.EmailVerificationStage"
        ours = f"{__name__}.TrustedAccountsEmailStage"
        return [ours if stage == stock else stage for stage in super().get_login_stages()]


class SocialAccountAdapter(DefaultSocialAccountAdapter):
    """A Discord account opens a bbweb account only under a name that passes the names rule:
    otherwise the sign-up form asks for one."""

    def is_auto_signup_allowed(self, request: HttpRequest, sociallogin: Any) -> bool:
        user: AbstractBaseUser = sociallogin.user
        try:
            names.check_name(str(getattr(user, "username", "") or ""))
        except ValidationError:
            return False
        return bool(super().is_auto_signup_allowed(request, sociallogin))
