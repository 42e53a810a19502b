"""After the final whistle: the winner's re-roll, the MVP awards, their defaults, injuries."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.utils import timezone

from matches import services
from matches.models import Match, PlayerMatchRecord, Post, Sequence, TeamMatchRecord
from matches.sequence.tests.driving import finish_now
from matches.services import MatchError, core
from teams.models import Player, Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(demo: tuple[Team, Team], cast: dict[str, User], sequence_faces: list[int]) -> Match:
    reavers, raiders = demo
    match = services.create_match(home=reavers, away=raiders, gm=cast["gm"], league=reavers.league)
    # away: winnings 3, fan factor 2D6 1+1; home: winnings 2, fan factor 3D6 6+6+6; re-roll 6
    sequence_faces.extend([3, 1, 1, 2, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1])
    return finish_now(match, winner="home", casualties={"h1": "minus_ma", "a9": "dead"})


@pytest.mark.parametrize(
    ("who", "code"),
    [
        ("anonymous", "not_in_match"),
        ("erin", "not_in_match"),
        ("gm", "not_in_match"),
        ("bob", "not_captain"),
        ("carol", "not_captain"),
    ],
)
def test_only_the_winner_s_captain_rerolls_the_winnings(
    finished: Match, cast: dict[str, User], who: str, code: str
) -> None:
    user = AnonymousUser() if who == "anonymous" else cast[who]
    with pytest.raises(MatchError) as refused:
        services.reroll_winnings(finished.pk, user, reroll=True)
    assert refused.value.code == code


def test_the_second_winnings_die_stands(finished: Match, cast: dict[str, User]) -> None:
    services.reroll_winnings(finished.pk, cast["alice"], reroll=True)
    record = TeamMatchRecord.objects.get(match=finished, key="home")
    assert record.winnings_dice == [2, 6]
    with pytest.raises(MatchError) as again:
        services.reroll_winnings(finished.pk, cast["alice"], reroll=True)
    assert again.value.code == "already_decided"


def test_awards_must_go_to_two_players_who_were_in_the_match(
    finished: Match, cast: dict[str, User]
) -> None:
    for mje, pje in (("h1", "h1"), ("a1", "h2"), ("h1", "h99")):
        with pytest.raises(MatchError) as refused:
            services.choose_mvp(finished.pk, cast["carol"], team="home", mje=mje, pje=pje)
        assert refused.value.code == "bad_choice"


def test_settling_credits_each_side_applies_injuries_and_finishes(
    finished: Match, cast: dict[str, User]
) -> None:
    services.reroll_winnings(finished.pk, cast["alice"], reroll=False)
    services.choose_mvp(finished.pk, cast["carol"], team="home", mje="h2", pje="h3")
    services.choose_mvp(finished.pk, cast["alice"], team="away", mje="a1", pje="a2")
    match = Match.objects.get(pk=finished.pk)
    assert match.status == Match.Status.FINISHED
    reavers = Team.objects.get(pk=match.home_team_id)
    raiders = Team.objects.get(pk=match.away_team_id)
    # Reavers: (2 + FAME 0 + 1) x 10,000 = 30,000 shared 420,000 : 350,000, exact 16,364 and
    # 13,636: the rival's larger fraction takes the thousand left, 16,000 + 14,000. Raiders:
    # (3 + 0) x 10,000 = 30,000 shared 410,000 : 340,000, exact 16,400 and 13,600: the same.
    assert (reavers.captain_treasury, reavers.rival_treasury) == (16_000, 14_000)
    assert (raiders.captain_treasury, raiders.rival_treasury) == (16_000, 14_000)
    assert (reavers.fan_factor, raiders.fan_factor) == (6, 2)
    karl = Player.objects.get(team=reavers, number=1)
    assert (karl.ma_loss, karl.miss_next_game, karl.stat("MA")) == (1, True, 6)
    assert Player.objects.get(team=raiders, number=9).status == Player.Status.DEAD
    assert PlayerMatchRecord.objects.get(match=match, engine_id="h1").injury == "minus_ma"
    # Karl misses the next match: the team is worth his 90,000 less, plus the fan factor.
    assert TeamMatchRecord.objects.get(match=match, key="home").value_after == (
        1_000_000 - 90_000 + 10_000
    )
    # The dead Black Orc Blocker (Azog, 80,000) no longer counts either.
    assert TeamMatchRecord.objects.get(match=match, key="away").value_after == 1_000_000 - 80_000
    steps = [
        p.summary["step"]
        for p in Post.objects.filter(match=match).order_by("number")
        if p.summary.get("step")
    ]
    assert steps == [
        "result",
        "winnings_dice",
        "winnings_reroll",
        "mvp",
        "mvp",
        "winnings",
        "fan_factor",
        "winnings",
        "fan_factor",
        "spp",
        "injuries",
        "team_values_after",
    ]


def test_missed_deadlines_keep_the_die_and_choose_random_eligible_players(
    finished: Match,
) -> None:
    later = timezone.now() + timedelta(days=2)
    assert services.expire_sequence_deadlines(later) == 1
    home = TeamMatchRecord.objects.get(match=finished, key="home")
    away = TeamMatchRecord.objects.get(match=finished, key="away")
    assert home.winnings_reroll is False
    # One-faced choices from the scripted sequence dice: the first eligible players.
    assert (home.mje, home.pje) == ("h1", "h2")
    assert away.mje.startswith("a") and away.pje.startswith("a") and away.mje != away.pje
    assert Sequence.objects.get(match=finished).step == Sequence.Step.DONE


def test_a_touchdown_the_gm_rewound_earns_no_spp(
    demo: tuple[Team, Team], cast: dict[str, User], sequence_faces: list[int]
) -> None:
    reavers, raiders = demo
    match = services.create_match(home=reavers, away=raiders, gm=cast["gm"], league=reavers.league)
    state = services.load_state(match)
    touchdowns_by = [("touchdown", {"player": "h2"}), ("touchdown", {"player": "h3"})]
    core.append_events(match, state, touchdowns_by, None)
    core.write_waiting(match)  # what the services' touch does with what was appended
    taken_back = match.events.get(type="touchdown", data__player="h3").number
    core.append_events(match, state, [("rewind", {"undone": [taken_back]})], None)
    core.write_waiting(match)
    match.save(update_fields=Match.HEADS)  # and the heads the events moved
    sequence_faces.extend([3, 1, 1, 2, 6, 6, 6, 6, 1, 1])
    finish_now(match, winner="home")
    touchdowns = dict(
        PlayerMatchRecord.objects.filter(match=match).values_list("engine_id", "touchdowns")
    )
    assert (touchdowns["h2"], touchdowns["h3"]) == (1, 0)


def test_the_gm_s_substitute_takes_the_post_match_steps_of_the_coach_replaced(
    finished: Match, cast: dict[str, User]
) -> None:
    services.replace_coach(finished.pk, cast["gm"], "away:captain", "erin")
    frank = User.objects.create_user("frank")
    services.replace_coach(finished.pk, cast["gm"], "home:captain", "frank")
    with pytest.raises(MatchError) as replaced:
        services.choose_mvp(finished.pk, cast["carol"], team="home", mje="h2", pje="h3")
    assert replaced.value.code == "not_in_match"
    with pytest.raises(MatchError):
        services.reroll_winnings(finished.pk, cast["alice"], reroll=False)
    services.choose_mvp(finished.pk, cast["erin"], team="home", mje="h2", pje="h3")
    services.reroll_winnings(finished.pk, frank, reroll=False)
    record = TeamMatchRecord.objects.get(match=finished, key="home")
    assert record.mvp_chosen and record.winnings_reroll is False
