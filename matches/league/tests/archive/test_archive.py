"""A league's export imported into an empty database: every match verifies, and every page of
the league, of its teams, their histories, their players and their matches reads the same."""

import difflib
import json
import random
import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import CommandError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.test import Client
from django.urls import reverse

from matches import services
from matches.models import Match, Post
from matches.sequence.tests.driving import through_the_pre_match
from matches.verification.exports import export_match, verify
from teams.models import League, Player, Team
from tools.demo_matches import play

pytestmark = pytest.mark.django_db

Doc = dict[str, Any]


@pytest.fixture
def played(season: list[Match], cast: dict[str, User]) -> League:
    """A first season played and closed, the second one open with a match in play (a post, a
    dispute and a substitute coach in it) and Erin's team gone from the league."""
    first = season[0].league
    assert first is not None
    gm = cast["gm"]
    services.close_season(first.pk, gm)
    kept = list(Team.objects.filter(league=first).exclude(captain=cast["erin"]))
    services.open_next_season(first.pk, gm, [team.pk for team in kept])
    fixture = services.generate_round_robin(first.pk, gm)[0]
    match = services.start_fixture(fixture.pk, gm)
    through_the_pre_match(match)
    play(match, random.Random(3), turns=2)
    home = match.home_team
    services.write_post(match.pk, home.captain, kind=Post.Kind.IN_CHARACTER, text="**Onwards!**")
    services.raise_dispute(match.pk, home.captain, reason="That dodge was mine.", event_number=3)
    services.replace_coach(match.pk, gm, actor="home:rival", username="erin")
    return first


def pages(league: League) -> list[str]:
    """Every page of the league: its seasons, records and all-time table, each team's page and
    history, each player's page, each match's page, record, replay and forum thread."""
    urls = [reverse("gm:leagues"), reverse("gm:league", args=[league.pk])]
    for number in league.seasons.values_list("number", flat=True):
        urls.append(reverse("gm:league", args=[league.pk]) + f"?season={number}")
    urls += [
        reverse("gm:all_time", args=[league.pk]),
        reverse("history:records", args=[league.pk]),
    ]
    teams = Team.objects.filter(seasons__season__league=league).distinct().order_by("pk")
    for team in teams:
        urls += [reverse("teams:detail", args=[team.pk]), reverse("history:team", args=[team.pk])]
    for player in Player.objects.filter(team__in=teams).order_by("pk"):
        urls.append(reverse("history:player", args=[player.pk]))
    for match in Match.objects.filter(league=league).order_by("pk"):
        for name in ("detail", "verify", "replay", "forum"):
            urls.append(reverse(f"matches:{name}", args=[match.pk]))
    return urls


# A CSRF token is new for each session, a CSP nonce for each response.
PER_RESPONSE = re.compile(
    r'(csrfmiddlewaretoken" value="|"X-CSRFToken": "|csrf-token" content="|nonce="|Nonce": ")[^"]+'
)


def read(urls: list[str], user: str | None = None) -> dict[str, str]:
    """Each page's HTML, its CSRF tokens and CSP nonces blanked."""
    client = Client()
    if user is not None:
        client.force_login(User.objects.get(username=user))
    found = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        found[url] = PER_RESPONSE.sub(r"\1", response.content.decode())
    return found


def assert_same(after: dict[str, str], before: dict[str, str]) -> None:
    """Page by page, the first lines that differ."""
    assert after.keys() == before.keys()
    differ = []
    for url, page in before.items():
        diff = difflib.unified_diff(page.splitlines(), after[url].splitlines(), lineterm="", n=0)
        differ += [url, *list(diff)[2:8]] if page != after[url] else []
    assert not differ, "\n".join(differ)


def empty_the_database() -> None:
    """Every table emptied (inside the test's transaction, which puts them back after), and
    the cache: the pages are rendered again from what the import wrote."""
    connection.check_constraints()  # the checks still pending would hold TRUNCATE back
    call_command("flush", interactive=False)
    cache.clear()


def export(league: League, path: Path) -> Doc:
    call_command("export_league", str(league.pk), str(path), stderr=StringIO())
    doc: Doc = json.loads(path.read_text(encoding="utf-8"))
    return doc


def test_the_export_imported_into_an_empty_database_gives_the_same_pages(
    played: League, tmp_path: Path
) -> None:
    league = played
    urls = pages(league)
    gm_urls = [reverse("gm:league", args=[league.pk]), reverse("gm:season", args=[league.pk])]
    before, before_gm = read(urls), read(gm_urls, "gm")
    path = tmp_path / "league.json"
    doc = export(league, path)
    assert doc["format"] == "bbweb-league/1"
    assert {person["username"] for person in doc["people"]} == {
        "gm",
        "alice",
        "bob",
        "carol",
        "dave",
        "erin",
    }
    assert "password" not in path.read_text() and "email" not in path.read_text()

    empty_the_database()
    assert not League.objects.exists() and not User.objects.exists()
    out = StringIO()
    call_command("import_league", str(path), stdout=out)
    assert "4 matches" in out.getvalue()

    assert_same(read(urls), before)
    assert_same(read(gm_urls, "gm"), before_gm)
    finished = 0
    for match in Match.objects.select_related("gm", "league", "home_team", "away_team"):
        result = verify(json.loads(json.dumps(export_match(match), cls=DjangoJSONEncoder)))
        assert not result.problems, (match.pk, result.problems)
        finished += result.ok
    assert finished == 3
    assert User.objects.get(username="alice").has_usable_password() is False


def refusal(path: Path) -> str:
    """import_league's one line of refusal (manage.py exits with status 1 on it)."""
    with pytest.raises(CommandError) as refused:
        call_command("import_league", str(path), stdout=StringIO())
    message = str(refused.value)
    assert "\n" not in message and message.startswith(f"{path} is not imported: ")
    return message.removeprefix(f"{path} is not imported: ")


def nothing_written() -> bool:
    return not (User.objects.exists() or League.objects.exists() or Match.objects.exists())


def first_finished(doc: Doc) -> int:
    return next(i for i, r in enumerate(doc["records"]) if r["match"]["status"] == "finished")


def an_event_edited(doc: Doc) -> None:
    doc["records"][first_finished(doc)]["events"][4]["data"]["faces"] = [6]


def an_event_row_edited(doc: Doc) -> None:
    match_id = doc["records"][first_finished(doc)]["match"]["id"]
    row = [e for e in doc["tables"]["events"] if e["match_id"] == match_id][1]
    row["turn"] = 9


def a_post_rewritten(doc: Doc) -> None:
    record = doc["records"][first_finished(doc)]
    record["posts"][0]["text"] = "Nothing happened."
    post = next(p for p in doc["tables"]["posts"] if p["match_id"] == record["match"]["id"])
    post["text"] = "Nothing happened."


def a_team_renamed(doc: Doc) -> None:
    doc["tables"]["teams"][0]["name"] = "Someone Else's Team"


def a_number_out_of_range(doc: Doc) -> None:
    doc["tables"]["players"][0]["number"] = 500


def a_column_unknown(doc: Doc) -> None:
    doc["tables"]["seasons"][0]["sponsor"] = "Bugman's"


def a_team_missing(doc: Doc) -> None:
    doc["tables"]["teams"] = doc["tables"]["teams"][1:]


def a_record_missing(doc: Doc) -> None:
    doc["records"].pop()


def not_a_league(doc: Doc) -> None:
    doc["format"] = "bbweb-match/1"


EDITS = {
    an_event_edited: "does not verify: event 5: its hash does not match its content",
    an_event_row_edited: "its rows do not give the 'events' its record holds",
    a_post_rewritten: "does not verify: the file's receipt",
    a_team_renamed: "its rows do not give the 'teams' its record holds",
    a_number_out_of_range: "player_number_1_to_99",  # the check it fails
    a_column_unknown: "has columns this bbweb does not know: ['sponsor']",
    a_team_missing: "the file's rows do not hold together",
    a_record_missing: "the file's records are not those of its matches, one each",
    not_a_league: "the file is not a bbweb-league/1 document",
}


def test_a_malformed_or_edited_file_is_refused_in_one_line_and_writes_nothing(
    played: League, tmp_path: Path
) -> None:
    good = export(played, tmp_path / "league.json")
    name = played.name
    empty_the_database()
    for edit, expected in EDITS.items():
        doc = json.loads(json.dumps(good))
        edit(doc)
        path = tmp_path / f"{edit.__name__}.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        assert expected in refusal(path), edit.__name__
        assert nothing_written(), edit.__name__

    call_command("import_league", str(tmp_path / "league.json"), stdout=StringIO())
    assert refusal(tmp_path / "league.json") == f"the league {name} is already here"
    good["tables"]["leagues"][0]["name"] = "Another League"
    (tmp_path / "renamed.json").write_text(json.dumps(good), encoding="utf-8")
    assert refusal(tmp_path / "renamed.json").startswith("this database already holds leagues")
    assert League.objects.get().name == name


def test_the_gms_download_keeps_the_dice_to_come_and_only_the_gm_has_it(
    played: League, cast: dict[str, User], tmp_path: Path
) -> None:
    url = reverse("gm:league_export", args=[played.pk])
    assert Client().get(url).status_code == 302  # to the login page
    coach = Client()
    coach.force_login(cast["alice"])
    assert coach.get(url).status_code == 403
    gm = Client()
    gm.force_login(cast["gm"])
    response = gm.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="liga-del-foro-')
    doc = json.loads(response.content)
    seeds = {row["status"]: row["dice_seed"] for row in doc["tables"]["matches"]}
    assert seeds["in_play"] == "" and len(seeds["finished"]) == 64

    path = tmp_path / "download.json"
    path.write_bytes(response.content)
    empty_the_database()
    match_id = next(r["id"] for r in doc["tables"]["matches"] if r["status"] == "in_play")
    assert refusal(path).startswith(f"match {match_id} is not finished and the file holds no seed")
    assert nothing_written()
