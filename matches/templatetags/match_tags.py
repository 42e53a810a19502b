"""Small helpers of the match page: option values, @mentions, the edit window."""

import hashlib
import json
import re
from typing import Any

from django import template
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from matches import labels
from matches.models import Match, Post
from matches.record.mentions import match_people
from matches.services import EDIT_WINDOW
from matches.thread.page import ShownPost, ThreadPage, TurnGroup, cached_html

register = template.Library()
_MENTION = re.compile(r"(?<![\w@/:.])@([\w.+-]+)")


@register.filter
def as_json(value: Any) -> str:
    """A decision option as the form sends it back (1, true, "team"...)."""
    return json.dumps(value)


@register.filter
def player_links(text: str, match: Match) -> SafeString:
    """A post's headline (plain text) escaped, each rostered player named in it ("#3 Gorbag")
    a link to its career page. One pass over the longest names first, so that a name inside
    another ("#1 Karl" in "#1 Karl Fleischer") never links twice."""
    return mark_safe(_linked(str(escape(text)), match))  # the text escaped, the links our own


@register.filter
def player_links_in_html(html: SafeString, match: Match) -> SafeString:
    """``player_links`` over HTML the server wrote itself (a roll's line: escaped text in
    plain spans), whose text holds the names escaped as ``player_links`` looks for them."""
    return mark_safe(_linked(str(html), match))  # escaped by its writer, the links our own


def _linked(escaped: str, match: Match) -> str:
    links = {
        str(escape(f"#{info['number']} {info['name']}")): reverse("history:player", args=[pk])
        for info in match.lineup.values()
        if (pk := info.get("pk")) is not None and "number" in info and "name" in info
    }
    if not links:
        return escaped
    pattern = re.compile("|".join(re.escape(n) for n in sorted(links, key=len, reverse=True)))
    return pattern.sub(lambda m: f'<a href="{links[m.group(0)]}">{m.group(0)}</a>', escaped)


@register.filter
def event_name(code: Any) -> str:
    """A system post's or an event's code (``created``, ``deadline_passed``) in the reader's
    language."""
    return labels.event_name(code)


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


@register.simple_tag(takes_context=True)
def thread_reader(context: template.Context, page: ThreadPage) -> str:
    """What a page of the thread's HTML depends on besides the page itself: nothing for a reader
    who may edit none of its posts (every spectator and most coaches share one copy); for an
    author within the edit window, who they are, which posts and their CSRF secret (the edit
    forms carry a token valid for that secret alone)."""
    user: Any = context.get("user")
    mine = [pv.number for group in page.groups for pv in group.posts if editable_by(pv, user)]
    if not mine:
        return ""
    request = context.get("request")
    secret = request.META.get("CSRF_COOKIE", "") if request is not None else ""
    digest = hashlib.sha256(secret.encode()).hexdigest()[:16]
    return f"{user.pk}:{','.join(map(str, mine))}:{digest}"


@register.simple_tag(takes_context=True)
def thread_posts(context: template.Context, group: TurnGroup) -> SafeString:
    """A turn's posts as articles, each around its cached fragment; an author's own posts in
    the edit window carry the edit form. Written here rather than as a template loop: a page
    of the thread has forty posts, and the loop cost as much as the rest of the page."""
    user = context.get("user")
    unseen = (context.get("catch_up") or {}).get("first")
    return format_html_join(
        "",
        '<article class="post kind-{}{}" id="post-{}" data-testid="post-{}">{}{}{}</article>',
        (
            (
                pv.kind,
                " unseen" if pv.number == unseen else "",
                pv.number,
                pv.number,
                _unseen_mark() if pv.number == unseen else "",
                pv.html,
                _edit_form(context, pv, user),
            )
            for pv in group.posts
        ),
    )


def _unseen_mark() -> SafeString:
    return format_html(
        '<p class="unseen-mark small" data-testid="unseen-mark">{}</p>',
        _("New since your last visit"),
    )


def _edit_form(context: template.Context, pv: ShownPost, user: Any) -> SafeString | str:
    if not editable_by(pv, user):
        return ""
    form = template.Engine.get_default().get_template("matches/_post_edit.html")
    with context.push(pv=pv):
        return form.render(context)


@register.tag("cachedhtml")
def cached_html_tag(parser: template.base.Parser, token: template.base.Token) -> "CachedHtml":
    """``{% cachedhtml fact... %}…{% endcachedhtml %}``: the block rendered once for its facts
    (the first of which names what it is: a thread page's key, say), as Django's ``{% cache %}``
    does, but through the thread's caches, which a page outlives when they are down."""
    facts = [parser.compile_filter(bit) for bit in token.split_contents()[1:]]
    if not facts:
        raise template.TemplateSyntaxError("cachedhtml needs the facts its block depends on")
    nodelist = parser.parse(("endcachedhtml",))
    parser.delete_first_token()
    return CachedHtml(nodelist, facts)


class CachedHtml(template.Node):
    def __init__(self, nodelist: template.NodeList, facts: list[Any]) -> None:
        self.nodelist = nodelist
        self.facts = facts

    def render(self, context: template.Context) -> SafeString:
        facts = [str(fact.resolve(context)) for fact in self.facts]
        if not facts[0]:  # nothing names it: never shared
            return self.nodelist.render(context)
        key = hashlib.sha256(json.dumps(facts).encode()).hexdigest()[:32]
        return cached_html(f"block:{key}", lambda: self.nodelist.render(context))
