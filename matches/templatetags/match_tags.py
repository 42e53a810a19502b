"""Small helpers of the match page: option values, @mentions, the edit window."""

import json
import re
from typing import Any

from django import template
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from matches.models import Match, Post
from matches.record.mentions import match_people
from matches.services import EDIT_WINDOW
from matches.thread.page import ShownPost

register = template.Library()
_MENTION = re.compile(r"(?<![\w@/:.])@([\w.+-]+)")


@register.filter
def as_json(value: Any) -> str:
    """A decision option as the form sends it back (1, true, "team"...)."""
    return json.dumps(value)


@register.filter
def mentions(html: str, match: Match) -> SafeString:
    """The post's (already sanitised) HTML with the match's people highlighted where named."""
    known = {u.username.lower() for u in match_people(match)}

    def mark(found: re.Match[str]) -> str:
        name = found.group(1).rstrip(".")
        if name.lower() not in known:
            return found.group(0)
        return f'<span class="mention">@{escape(name)}</span>' + found.group(1)[len(name) :]

    parts = re.split(r"(<[^>]*>)", html)
    inside_code = 0
    for i, part in enumerate(parts):
        if part.startswith("<"):
            tag = part.lower()
            if tag.startswith(("<code", "<pre", "<a ")):
                inside_code += 1
            elif tag.startswith(("</code", "</pre", "</a>")):
                inside_code = max(0, inside_code - 1)
        elif not inside_code:
            parts[i] = _MENTION.sub(mark, part)
    return mark_safe("".join(parts))  # the input is sanitised; only spans are added


@register.filter
def editable_by(post: Post | ShownPost, user: Any) -> bool:
    return (
        user.is_authenticated
        and post.author_id == user.pk
        and bool(post.text)
        and post.kind not in (Post.Kind.SYSTEM, Post.Kind.DECISION)
        and timezone.now() - post.created_at <= EDIT_WINDOW
    )
