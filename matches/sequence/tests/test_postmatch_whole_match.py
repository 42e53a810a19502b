"""A whole match of the demo league, from the pre-match sequence to the last improvement,
checked against figures worked out by hand from LRB5 and the house rules.

The match: every die of the match shows 3, every team turn is ended at once. Weather 3+3
nice; fans 3+3+5 = 11 (11,000) for the Reavers and 3+3+2 = 8 (8,000) for the Raiders, so the
Reavers' FAME is +1 and the Raiders' 0. It is 0-0 after overtime and the Reavers win the
shoot-out (more unused rerolls: the extra training and Cheering Fans every kick-off)."""

import pytest
from django.contrib.auth.models import AnonymousUser, User

from matches import services
from matches.models import Advancement, Match, PlayerMatchRecord, TeamMatchRecord
from matches.sequence.tests.driving import play_to_the_end
from matches.services import MatchError
from teams.models import Player, Team

pytestmark = pytest.mark.django_db


# The sequence's first two rolls are the weather's, read when the fixture made the match (with
# the fair dice): a test's script of the sequence's faces starts with two that nobody reads.
WEATHER_READ = [0, 0]


def test_a_whole_demo_match_leaves_rosters_treasuries_and_values_as_the_rules_give_them(
    prematch: Match,
    cast: dict[str, User],
    constant_dice: None,
    sequence_faces: list[int],
) -> None:
    match = prematch
    reavers, raiders = match.home_team, match.away_team
    # A season so far: the Reavers' sides hold gold; Johann and Grimgor have SPP.
    Team.objects.filter(pk=reavers.pk).update(captain_treasury=120_000, rival_treasury=60_000)
    Player.objects.filter(team=reavers, name="Johann Weiss").update(spp=3)
    Player.objects.filter(team=raiders, name="Grimgor").update(spp=14)

    # Both teams are worth 1,000,000: the home team decides first.
    services.transfer_petty_cash(match.pk, cast["alice"], side="captain", amount=100_000)
    services.transfer_petty_cash(match.pk, cast["bob"], side="rival", amount=0)
    services.transfer_petty_cash(match.pk, cast["carol"], side="captain", amount=0)
    services.transfer_petty_cash(match.pk, cast["dave"], side="rival", amount=0)
    home, away = (
        TeamMatchRecord.objects.get(match=match, key="home"),
        TeamMatchRecord.objects.get(match=match, key="away"),
    )
    # 1,100,000 against 1,000,000: the Raiders receive 100,000 of handicap money.
    assert (home.handicap, away.handicap) == (0, 100_000)
    services.buy_inducements(match.pk, cast["alice"], {"counts": {"extra_training": 1}})
    with pytest.raises(MatchError) as refused:
        services.buy_inducements(match.pk, cast["carol"], {"counts": {"wizard": 1}})
    assert refused.value.code == "illegal_inducements"
    services.buy_inducements(match.pk, cast["carol"], {"counts": {"bloodweiser_babes": 1}})

    match.refresh_from_db()
    assert match.status == Match.Status.IN_PLAY
    state = services.load_state(match)
    assert state.teams["home"].base_rerolls == 2 + 1  # the extra training

    # The sequence's own dice: the weather's two (read when the match was created, before this
    # script: the match's weather stands); the Raiders' winnings die 4 and fan factor 2D6 1+2; the
    # Reavers' winnings die 2 and fan factor 3D6 3+2+2; the Reavers' re-roll 5; Grimgor's
    # improvement roll 5+5, Johann's 6+6.
    sequence_faces.extend([*WEATHER_READ, 4, 1, 2, 2, 3, 2, 2, 5, 5, 5, 6, 6])
    match = play_to_the_end(match.pk)
    assert match.status == Match.Status.POST_MATCH
    assert (services.load_state(match).result or {}).get("winner") == "home"

    services.reroll_winnings(match.pk, cast["alice"], reroll=True)
    with pytest.raises(MatchError) as not_opposing:
        services.choose_mvp(match.pk, cast["alice"], team="home", mje="h3", pje="h4")
    assert not_opposing.value.code == "not_opposing_captain"
    services.choose_mvp(match.pk, cast["carol"], team="home", mje="h3", pje="h4")
    services.choose_mvp(match.pk, cast["alice"], team="away", mje="a3", pje="a7")

    grimgor = Advancement.objects.get(player__name="Grimgor")
    johann = Advancement.objects.get(player__name="Johann Weiss")
    assert (grimgor.dice, johann.dice) == ([5, 5], [6, 6])
    assert {"+MA", "+AV"} <= set(grimgor.options)
    assert "+ST" in johann.options and "Guard" in johann.options  # doubles: Strength
    with pytest.raises(MatchError):
        services.choose_advancement(grimgor.pk, cast["dave"], "+AV")  # Grimgor is carol's
    services.choose_advancement(grimgor.pk, cast["carol"], "+AV")
    services.choose_advancement(johann.pk, cast["alice"], "Guard")

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    reavers = Team.objects.prefetch_related("players").get(pk=reavers.pk)
    raiders = Team.objects.prefetch_related("players").get(pk=raiders.pk)

    # Reavers: (5 + FAME 1 + 1 for the win) x 10,000 = 70,000, no spiralling expenses at
    # 1,000,000. Sides worth 420,000 and 350,000: exact shares 38,182 and 31,818, the rival's
    # larger fraction takes the thousand left: 38,000 and 32,000. The captain's side paid
    # 100,000 of petty cash, all spent on the extra training.
    assert (reavers.captain_treasury, reavers.rival_treasury) == (
        120_000 - 100_000 + 38_000,
        60_000 + 32_000,
    )
    # Raiders: (4 + 0) x 10,000 = 40,000 at 410,000 to 340,000: exact 21,867 and 18,133, the
    # captain's larger fraction takes the thousand: 22,000 and 18,000. The babes cost 50,000
    # of the handicap money; the other 50,000 is lost.
    assert (raiders.captain_treasury, raiders.rival_treasury) == (22_000, 18_000)
    # Fan factor: the Reavers won and rolled 7 > 5 (+1); the Raiders lost with 3 (not < 2).
    assert (reavers.fan_factor, raiders.fan_factor) == (6, 2)

    johann_now = Player.objects.get(team=reavers, name="Johann Weiss")
    anna = Player.objects.get(team=reavers, name="Anna Vogel")
    grimgor_now = Player.objects.get(team=raiders, name="Grimgor")
    shagrat = Player.objects.get(team=raiders, name="Shagrat")
    assert (johann_now.spp, johann_now.gained) == (3 + 5, ["Guard"])
    assert (anna.spp, anna.gained) == (4, [])
    assert (grimgor_now.spp, grimgor_now.gained, grimgor_now.stat("AV")) == (14 + 5, ["+AV"], 10)
    assert shagrat.spp == 4
    # Values: +10,000 for the fan factor and +30,000 for a skill from a double category;
    # +30,000 for the AV increase.
    assert reavers.value == 1_000_000 + 10_000 + 30_000
    assert raiders.value == 1_000_000 + 30_000
    home, away = (
        TeamMatchRecord.objects.get(match=match, key="home"),
        TeamMatchRecord.objects.get(match=match, key="away"),
    )
    assert (home.winnings, home.captain_share, home.rival_share) == (70_000, 38_000, 32_000)
    assert (away.winnings, away.captain_share, away.rival_share) == (40_000, 22_000, 18_000)
    assert (home.value_after, away.value_after) == (1_040_000, 1_030_000)
    assert (home.fans, away.fans, home.fame, away.fame) == (11_000, 8_000, 1, 0)
    # The team history: every player who played has a line for this match.
    assert PlayerMatchRecord.objects.filter(match=match).count() == 22
    assert PlayerMatchRecord.objects.get(match=match, engine_id="h3").award == "mje"
    assert services.chain_is_intact(match)


def test_the_mvp_choice_is_refused_to_anyone_but_the_opposing_captain(
    prematch: Match, cast: dict[str, User], constant_dice: None, sequence_faces: list[int]
) -> None:
    for user, side in (
        ("alice", "captain"),
        ("bob", "rival"),
        ("carol", "captain"),
        ("dave", "rival"),
    ):
        services.transfer_petty_cash(prematch.pk, cast[user], side=side, amount=0)
    services.buy_inducements(prematch.pk, cast["alice"], {})
    services.buy_inducements(prematch.pk, cast["carol"], {})
    sequence_faces.extend([*WEATHER_READ, 4, 1, 2, 2, 3, 2, 2])
    match = play_to_the_end(prematch.pk)
    refusals: dict[str, tuple[User | AnonymousUser, str]] = {
        "anonymous": (AnonymousUser(), "not_in_match"),
        "another coach": (cast["erin"], "not_in_match"),
        "the team's own captain": (cast["alice"], "not_opposing_captain"),
        "the team's own rival": (cast["bob"], "not_opposing_captain"),
        "the opposing rival": (cast["dave"], "not_opposing_captain"),
        "the GM": (cast["gm"], "not_in_match"),
    }
    for who, (someone, code) in refusals.items():
        with pytest.raises(MatchError) as refused:
            services.choose_mvp(match.pk, someone, team="home", mje="h1", pje="h2")
        assert refused.value.code == code, who
    services.choose_mvp(match.pk, cast["carol"], team="home", mje="h1", pje="h2")
    assert PlayerMatchRecord.objects.get(match=match, engine_id="h1").award == "mje"
