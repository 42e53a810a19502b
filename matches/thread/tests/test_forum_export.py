"""A turn and the match report in the forum's own format: the exact text, and a coach's
text that cannot break out of the quote it sits in."""

from matches.thread.forum_export import (
    ZERO_WIDTH_SPACE,
    ForumPost,
    ForumReport,
    ForumTurn,
    ReportPlayer,
    ReportTeam,
    bbcode_escape,
    bbcode_report,
    bbcode_turn,
    markdown_escape,
    markdown_report,
    markdown_turn,
)

URL = "https://bbweb.example/matches/1/"
TURN = ForumTurn(
    match="Reikland Reavers v Orcland Raiders",
    title="Half 1, turn 3 of Reikland Reavers",
    url=URL + "#post-40",
    posts=(
        ForumPost(
            40,
            "alice",
            "#7 Hans Richter Move → J8",
            ("Dodge · #7 Hans Richter [4] 3+ → success",),
            "Go, *Hans*!",
        ),
        ForumPost(41, "", "End of the turn", (), ""),
    ),
)
REPORT = ForumReport(
    home=ReportTeam("Reikland Reavers", 2, "Win", "60,000 gp"),
    away=ReportTeam("Orcland Raiders", 1, "Loss", "50,000 gp"),
    facts=("League: Liga del Foro", "Game master: gm"),
    players=(ReportPlayer("Reikland Reavers", "#7 Hans Richter", "2 TD, MVP", 11, ""),),
    receipt="abc123",
    url=URL,
)


def test_a_turn_reads_as_phpbb_quotes_one_per_post() -> None:
    assert bbcode_turn(TURN) == (
        "[b]Reikland Reavers v Orcland Raiders[/b]\n"
        "[size=120][b]Half 1, turn 3 of Reikland Reavers[/b][/size]\n"
        "\n"
        '[quote="alice"][b]#40[/b] #7 Hans Richter Move → J8\n'
        "[list]\n"
        "[*]Dodge · #7 Hans Richter [4] 3+ → success\n"
        "[/list]\n"
        "Go, *Hans*![/quote]\n"
        "[quote][b]#41[/b] End of the turn[/quote]\n"
        "[url=https://bbweb.example/matches/1/#post-40]On the match page[/url]\n"
    )


def test_a_turn_reads_as_markdown_blockquotes_one_per_post() -> None:
    assert markdown_turn(TURN) == (
        "**Reikland Reavers v Orcland Raiders**\n"
        "\n"
        "### Half 1, turn 3 of Reikland Reavers\n"
        "\n"
        "> **#40** · *alice* · \\#7 Hans Richter Move → J8\n"
        "> - Dodge · \\#7 Hans Richter \\[4\\] 3\\+ → success\n"
        ">\n"
        "> Go, *Hans*!\n"
        "\n"
        "> **#41** · End of the turn\n"
        "\n"
        "[On the match page](<https://bbweb.example/matches/1/#post-40>)\n"
    )


def test_the_report_reads_as_bbcode_and_as_markdown() -> None:
    assert bbcode_report(REPORT) == (
        "[size=150][b]Reikland Reavers 2 - 1 Orcland Raiders[/b][/size]\n"
        "League: Liga del Foro\n"
        "Game master: gm\n"
        "\n"
        "[list]\n"
        "[*]Reikland Reavers: Win, winnings 60,000 gp\n"
        "[*]Orcland Raiders: Loss, winnings 50,000 gp\n"
        "[/list]\n"
        "\n"
        "[b]Players[/b]\n"
        "[list]\n"
        "[*]#7 Hans Richter (Reikland Reavers), 2 TD, MVP, 11 SPP\n"
        "[/list]\n"
        "\n"
        "Receipt: abc123\n"
        "[url=https://bbweb.example/matches/1/]On the match page[/url]\n"
    )
    assert markdown_report(REPORT) == (
        "## Reikland Reavers 2 \\- 1 Orcland Raiders\n"
        "\n"
        "League: Liga del Foro  \n"
        "Game master: gm  \n"
        "\n"
        "- Reikland Reavers: Win, winnings 60,000 gp\n"
        "- Orcland Raiders: Loss, winnings 50,000 gp\n"
        "\n"
        "**Players**\n"
        "\n"
        "- \\#7 Hans Richter \\(Reikland Reavers\\), 2 TD, MVP, 11 SPP\n"
        "\n"
        "Receipt: `abc123`  \n"
        "[On the match page](<https://bbweb.example/matches/1/>)\n"
    )


def test_bbcode_in_a_post_cannot_close_the_quote_or_open_a_link() -> None:
    post = ForumPost(9, "carol", "", (), "Ha! [/quote][url=https://evil.example]click[/url] [b]x")
    turn = ForumTurn("A v B", "Half 1, turn 1 of A", URL, (post,))
    text = bbcode_turn(turn)
    z = ZERO_WIDTH_SPACE
    assert f"Ha! [{z}/quote][{z}url=https://evil.example]click[{z}/url] [{z}b]x[/quote]" in text
    assert text.count("[/quote]") == 1  # only the export's own
    assert "[url=https://evil" not in text


def test_names_are_escaped_too_but_dice_brackets_stay_readable() -> None:
    assert bbcode_escape("[b]Bold Boyz[/b] [4][5] [*]") == (
        f"[{ZERO_WIDTH_SPACE}b]Bold Boyz[{ZERO_WIDTH_SPACE}/b] [4][5] [{ZERO_WIDTH_SPACE}*]"
    )
    assert markdown_escape("**Orcs** [x](y) #1 <b>") == (
        "\\*\\*Orcs\\*\\* \\[x\\]\\(y\\) \\#1 \\<b\\>"
    )


def test_markdown_in_a_post_stays_inside_its_quote_and_raw_html_is_shown() -> None:
    post = ForumPost(3, "bob", "", (), "line one\n\n# big\n<script>alert(1)</script>")
    text = markdown_turn(ForumTurn("A v B", "T", URL, (post,)))
    assert "> line one\n>\n> # big\n> &lt;script>alert(1)&lt;/script>\n" in text
    assert "<script" not in text
