"""Posts are Markdown; what reaches the page is rendered, then sanitised to a small allow-list."""

import nh3
from markdown_it import MarkdownIt

# The longest post, in characters, on the page and through the API (a post is rendered into
# the page of every reader: a 2.4 MB post made a 6.9 MB page).
POST_TEXT_MAX = 20_000

_markdown = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
_markdown.enable("strikethrough").enable("table")

_ALLOWED_TAGS = {
    "p",
    "br",
    "strong",
    "em",
    "del",
    "s",
    "code",
    "pre",
    "blockquote",
    "ul",
    "ol",
    "li",
    "a",
    "hr",
    "h3",
    "h4",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
}
_ALLOWED_ATTRIBUTES = {"a": {"href", "title"}}


def render_markdown(text: str) -> str:
    """Safe HTML for a coach's post. Headings are demoted so a post never outranks the page."""
    html = _markdown.render(text)
    html = html.replace("<h1>", "<h3>").replace("</h1>", "</h3>")
    html = html.replace("<h2>", "<h4>").replace("</h2>", "</h4>")
    return nh3.clean(
        html,
        tags=_ALLOWED_TAGS,
        attributes=_ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="nofollow noopener noreferrer",
    )
