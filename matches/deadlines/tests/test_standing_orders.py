"""Standing orders answer a decision the moment it arises, and say so on the decision."""

import pytest
from django.contrib.auth.models import User

from matches import services
from matches.deadlines.tests.conftest import player, put
from matches.models import Decision, Match, StandingOrders
from matches.services import MatchError

pytestmark = pytest.mark.django_db


def test_a_failed_dodge_is_rerolled_at_once_by_the_coachs_order(
    in_play: Match, alice: User, dice: list[int]
) -> None:
    services.set_standing_orders(in_play.pk, alice, reroll_dodge=True)
    dice += [1, 5]  # the dodge fails; the team reroll succeeds
    outcome = services.declare(
        in_play.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]}
    )
    assert outcome.decision is None
    decision = Decision.objects.get(kind="reroll")
    assert (decision.answer, decision.answered_how) == ("team", "standing_order")
    assert decision.answered_by == alice
    in_play.refresh_from_db()
    state = services.load_state(in_play)
    assert state.players["h1"].state == "standing"
    assert state.teams["home"].rerolls == 1
    assert services.chain_is_intact(in_play)


def test_an_order_for_dodges_does_not_answer_a_failed_pick_up(
    match: Match, alice: User, dice: list[int]
) -> None:
    put(match, [player("h1", "K8"), player("a7", "T3")], ball={"at": "J8"})
    services.set_standing_orders(match.pk, alice, reroll_dodge=True)
    dice += [1]
    outcome = services.declare(match.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]})
    assert outcome.decision is not None and outcome.decision.kind == "reroll"


def test_the_captain_pre_approves_the_rivals_rerolls(
    in_play: Match, alice: User, bob: User, dice: list[int]
) -> None:
    services.set_standing_orders(in_play.pk, alice, approve_rival_rerolls=True)
    services.set_standing_orders(in_play.pk, bob, reroll_dodge=True)
    dice += [1, 6]
    outcome = services.declare(in_play.pk, bob, {"player": "h7", "action": "move", "path": ["J9"]})
    assert outcome.decision is None
    answered = Decision.objects.order_by("pk").values_list("kind", "answer", "answered_how")
    assert list(answered) == [
        ("reroll", "team", "standing_order"),
        ("reroll_approval", "approve", "standing_order"),
    ]


def test_the_defenders_block_die_preference_is_applied(
    match: Match, alice: User, carol: User, dice: list[int]
) -> None:
    put(
        match,
        [player("h1", "K8"), player("a1", "L8", st=4), player("a7", "T3")],
        teams={"home": {"rerolls": 0}},
    )
    services.set_standing_orders(match.pk, carol, block_die="pushed")
    dice += [1, 2]  # Gorbag, the stronger defender, would pick attacker down; the order: pushed
    outcome = services.declare(match.pk, alice, {"player": "h1", "action": "block", "target": "a1"})
    block = Decision.objects.get(kind="block_die")
    assert (block.answer, block.answered_how) == (2, "standing_order")
    assert outcome.decision is not None and outcome.decision.kind in ("push", "follow_up")


def test_the_block_die_order_is_not_used_when_the_coach_attacks(
    match: Match, carol: User, dice: list[int]
) -> None:
    put(
        match,
        [player("h1", "K8"), player("a1", "L8", st=4), player("a7", "T3")],
        active="away",
        turn={"home": 3, "away": 3},
        teams={"away": {"rerolls": 0}},
    )
    services.set_standing_orders(match.pk, carol, block_die="pushed")
    dice += [1, 2]
    outcome = services.declare(match.pk, carol, {"player": "a1", "action": "block", "target": "h1"})
    assert outcome.decision is not None and outcome.decision.kind == "block_die"


PASSING = [player("h1", "J8"), player("h2", "N8"), player("a1", "L8", ag=4), player("a7", "T3")]


def test_never_intercept(match: Match, alice: User, carol: User, dice: list[int]) -> None:
    put(match, PASSING, ball={"carrier": "h1"})
    services.set_standing_orders(match.pk, carol, intercept="never")
    dice += [3, 3]
    outcome = services.declare(match.pk, alice, {"player": "h1", "action": "pass", "target": "h2"})
    assert outcome.decision is None
    assert Decision.objects.get(kind="intercept").answer == "none"


def test_always_intercept_with_the_named_player(
    match: Match, alice: User, carol: User, dice: list[int]
) -> None:
    put(match, PASSING, ball={"carrier": "h1"})
    services.set_standing_orders(match.pk, carol, intercept="always", intercept_player="a1")
    dice += [6, 6, 6]
    services.declare(match.pk, alice, {"player": "h1", "action": "pass", "target": "h2"})
    assert Decision.objects.get(kind="intercept").answer == "a1"
    match.refresh_from_db()
    assert services.load_state(match).carrier == "a1"


def test_only_a_captain_pre_approves_rerolls(in_play: Match, bob: User) -> None:
    with pytest.raises(MatchError) as refused:
        services.set_standing_orders(in_play.pk, bob, approve_rival_rerolls=True)
    assert refused.value.code == "not_captain"


def test_the_interceptor_must_be_one_of_the_coachs_players(in_play: Match, dave: User) -> None:
    with pytest.raises(MatchError) as refused:
        services.set_standing_orders(in_play.pk, dave, intercept="always", intercept_player="a1")
    assert refused.value.code == "not_your_player"
    services.set_standing_orders(in_play.pk, dave, intercept="always", intercept_player="a7")
    assert StandingOrders.objects.get(user=dave).intercept_player == "a7"


def test_a_spectator_gives_no_standing_orders(in_play: Match, gm: User) -> None:
    with pytest.raises(MatchError) as refused:
        services.set_standing_orders(in_play.pk, gm, reroll_gfi=True)
    assert refused.value.code == "not_in_match"


# -- the decisions a block raises: the block dice's reroll, Wrestle, Break Tackle -------------

ONE_DIE = [player("h1", "K8"), player("a1", "L8"), player("a7", "T3")]  # 3 against 3: one die


def _block(match: Match, alice: User) -> services.Outcome:
    return services.declare(match.pk, alice, {"player": "h1", "action": "block", "target": "a1"})


def test_without_orders_a_block_showing_pushed_is_not_offered_again(
    match: Match, alice: User, dice: list[int]
) -> None:
    put(match, ONE_DIE)
    dice += [2]
    outcome = _block(match, alice)
    reroll = Decision.objects.get(kind="reroll")
    assert (reroll.answer, reroll.answered_how) == ("none", "standing_order")
    assert outcome.decision is not None and outcome.decision.kind in ("push", "follow_up")


def test_without_orders_the_coach_is_asked_when_his_attacker_would_go_down(
    match: Match, alice: User, dice: list[int]
) -> None:
    put(match, ONE_DIE)
    dice += [1]
    outcome = _block(match, alice)
    assert outcome.decision is not None and outcome.decision.kind == "reroll"
    assert not Decision.objects.filter(answered_how="standing_order").exists()


def test_ask_me_on_every_block(match: Match, alice: User, dice: list[int]) -> None:
    put(match, ONE_DIE)
    services.set_standing_orders(match.pk, alice, block_reroll="ask")
    dice += [2]
    outcome = _block(match, alice)
    assert outcome.decision is not None and outcome.decision.kind == "reroll"


def test_reroll_at_once_when_the_attacker_would_go_down(
    match: Match, alice: User, dice: list[int]
) -> None:
    put(match, ONE_DIE)
    services.set_standing_orders(match.pk, alice, block_reroll="when_down")
    dice += [1, 6]  # attacker down, re-rolled: defender down
    outcome = _block(match, alice)
    reroll = Decision.objects.get(kind="reroll")
    assert (reroll.answer, reroll.answered_how) == ("team", "standing_order")
    assert outcome.decision is not None and outcome.decision.kind == "push"  # Defender Down


def test_never_reroll_block_dice(match: Match, alice: User, dice: list[int]) -> None:
    put(match, ONE_DIE)
    services.set_standing_orders(match.pk, alice, block_reroll="never")
    dice += [1, 1, 1]  # attacker down; his armour holds
    _block(match, alice)
    assert Decision.objects.get(kind="reroll").answer == "none"
    match.refresh_from_db()
    state = services.load_state(match)
    assert state.players["h1"].state == "prone"
    assert state.teams["home"].rerolls == 2


WRESTLER = [player("h1", "K8", skills=["Wrestle"]), player("a1", "L8"), player("a7", "T3")]


def test_without_orders_the_wrestler_wrestles_rather_than_go_down(
    match: Match, alice: User, dice: list[int]
) -> None:
    put(match, WRESTLER)
    dice += [4]  # Both Down
    outcome = _block(match, alice)
    wrestle = Decision.objects.get(kind="wrestle")
    assert (wrestle.answer, wrestle.answered_how) == (True, "standing_order")
    assert outcome.decision is None
    match.refresh_from_db()
    state = services.load_state(match)
    assert (state.players["h1"].state, state.players["a1"].state) == ("prone", "prone")


def test_a_wrestler_ordered_never_to_wrestle_goes_down(
    match: Match, alice: User, dice: list[int]
) -> None:
    put(match, WRESTLER)
    services.set_standing_orders(match.pk, alice, wrestle="never")
    dice += [4, 1, 1, 1, 1]  # Both Down; both armours hold
    _block(match, alice)
    assert Decision.objects.get(kind="wrestle").answer is False


def test_the_defenders_wrestle_is_answered_by_his_own_coachs_orders(
    match: Match, alice: User, carol: User, dice: list[int]
) -> None:
    put(
        match,
        [player("h1", "K8"), player("a1", "L8", skills=["Wrestle"]), player("a7", "T3")],
        teams={"home": {"rerolls": 0}},
    )
    services.set_standing_orders(match.pk, carol, wrestle="ask")
    dice += [4]  # Both Down: the attacker would go down, with no reroll to offer
    outcome = _block(match, alice)
    assert outcome.decision is not None and outcome.decision.kind == "wrestle"


def test_when_nobody_would_go_down_wrestling_is_asked_whatever_the_order(
    match: Match, alice: User, dice: list[int]
) -> None:
    put(
        match,
        [
            player("h1", "K8", skills=["Wrestle", "Block"]),
            player("a1", "L8", skills=["Block"]),
            player("a7", "T3"),
        ],
    )
    dice += [4]
    outcome = _block(match, alice)
    assert outcome.decision is not None and outcome.decision.kind == "wrestle"


BREAKER = [
    player("h1", "K8", st=4, skills=["Break Tackle"]),
    player("a1", "L8"),
    player("a7", "T3"),
]


def test_without_orders_break_tackle_saves_the_dodge_and_the_reroll_is_kept(
    match: Match, alice: User, dice: list[int]
) -> None:
    put(match, BREAKER)
    dice += [2]  # 3 with the dodge's +1: short of AG 3's 4+, enough for ST 4's 3+
    outcome = services.declare(match.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]})
    assert outcome.decision is None
    used = Decision.objects.get(kind="break_tackle")
    assert (used.answer, used.answered_how) == (True, "standing_order")
    match.refresh_from_db()
    state = services.load_state(match)
    assert state.players["h1"].state == "standing"
    assert state.teams["home"].rerolls == 2


def test_break_tackle_ask_me(match: Match, alice: User, dice: list[int]) -> None:
    put(match, BREAKER)
    services.set_standing_orders(match.pk, alice, break_tackle="ask")
    dice += [2]
    outcome = services.declare(match.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]})
    assert outcome.decision is not None and outcome.decision.kind == "break_tackle"


def test_an_unknown_order_for_a_block_decision_is_refused(match: Match, alice: User) -> None:
    with pytest.raises(MatchError) as refused:
        services.set_standing_orders(match.pk, alice, wrestle="sometimes")
    assert refused.value.code == "malformed"
