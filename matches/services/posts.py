"""posts: what coaches and the GM write in a match's thread (posts, edits), and the GM
closing a finished match."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from matches.models import Match, Post
from matches.record.markup import render_markdown
from matches.services import seasons
from matches.services.actors import AnyUser, actors_for, is_match_gm
from matches.services.core import (
    MatchError,
    already_done,
    load_state,
    locked_match,
    new_post,
    touch,
)
from matches.services.notices import notify_mentions

EDIT_WINDOW = timedelta(minutes=15)


def write_post(
    match_id: int, user: AnyUser, *, kind: str, text: str, idempotency_key: str = ""
) -> Post:
    """In-character or out-of-character text in the thread, by a coach or the match's GM."""
    if kind not in (Post.Kind.IN_CHARACTER, Post.Kind.OUT_OF_CHARACTER):
        raise MatchError("malformed", "A post is in character or out of character.")
    if not text.strip():
        raise MatchError("empty", "The post is empty.")
    with transaction.atomic():
        match = locked_match(match_id)
        replay = already_done(match, user, idempotency_key)
        if replay is not None:
            return replay.post
        if not actors_for(match, user) and not is_match_gm(match, user):
            raise MatchError("not_in_match", "Only the match's coaches and GM write here.")
        actors = actors_for(match, user)
        post = new_post(
            match,
            load_state(match),
            kind=kind,
            author=user,
            actor=actors[0] if actors else "",
            text=text,
            idempotency_key=idempotency_key,
        )
        touch(match)
        notify_mentions(match, post)
        return post


def edit_post(post_id: int, user: AnyUser, *, text: str) -> Post:
    """The author corrects the text of a post within the edit window; never a declaration,
    an answer or a roll. The first text is kept in the summary and the post shows "edited"."""
    if not text.strip():
        raise MatchError("empty", "The post is empty.")
    with transaction.atomic():
        post = Post.objects.select_for_update().filter(pk=post_id).first()
        if post is None:
            raise MatchError("no_post", "There is no such post.")
        match = locked_match(post.match_id)
        if not user.is_authenticated or post.author_id != user.pk:
            raise MatchError("not_author", "Only the author edits a post.")
        if post.kind in (Post.Kind.SYSTEM, Post.Kind.DECISION) or not post.text:
            raise MatchError("not_editable", "This post has no text to edit.")
        if timezone.now() - post.created_at > EDIT_WINDOW:
            raise MatchError("edit_window", "The time to edit this post is over.")
        post.summary = {
            **post.summary,
            "original": post.summary.get("original", post.text),
            "edited_at": timezone.now().isoformat(),
        }
        post.text = text
        post.html = render_markdown(text)
        post.save(update_fields=["summary", "text", "html"])
        touch(match)
        return post


def close_match(match_id: int, user: AnyUser) -> Match:
    """The GM closes a match after the final whistle; from then on its dice seed is public."""
    with transaction.atomic():
        match = locked_match(match_id)
        if not is_match_gm(match, user):
            raise MatchError("not_gm", "Only the match's game master closes it.")
        if match.status != Match.Status.POST_MATCH:
            raise MatchError("not_over", "The match is not over.")
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        seasons.after_finish(match)
        new_post(
            match,
            load_state(match),
            kind=Post.Kind.SYSTEM,
            summary={"message": "closed", "seed": match.dice_seed},
        )
        touch(match)
        return match
