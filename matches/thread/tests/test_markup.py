from matches.record.markup import render_markdown


def test_markdown_becomes_html() -> None:
    assert render_markdown("**Grom** runs *fast*") == (
        "<p><strong>Grom</strong> runs <em>fast</em></p>\n"
    )


def test_raw_html_in_a_post_is_shown_as_text_not_run() -> None:
    html = render_markdown("<script>alert(1)</script> <img src=x onerror=alert(1)>")
    assert "<script" not in html
    assert "<img" not in html
    assert "&lt;script&gt;" in html


def test_a_javascript_link_is_never_a_link() -> None:
    html = render_markdown("[click](javascript:alert(1)) <a href='javascript:alert(2)'>x</a>")
    assert "<a" not in html


def test_links_are_kept_with_a_safe_rel() -> None:
    html = render_markdown("[rules](https://example.org/lrb5)")
    assert 'href="https://example.org/lrb5"' in html
    assert 'rel="nofollow noopener noreferrer"' in html


def test_headings_never_outrank_the_page() -> None:
    assert render_markdown("# Big") == "<h3>Big</h3>\n"
