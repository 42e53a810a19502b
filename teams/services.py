"""The only write path of teams: every change of a team, its players or its coaches is a
function here. Each checks who asks first and raises a specific TeamError, with a message for
the coach, before it changes anything; the checks and the change share one transaction with
the team's row locked, and gold moves by compare-and-set so a treasury never goes negative."""

from dataclasses import replace

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from bbweb import glossary
from bbweb.models import email_verified
from rules import gamedata
from teams import rosters
from teams.models import Invitation, League, MoveProposal, Player, Side, Team
from teams.transfer import TeamFile, team_file_problems

type Actor = User | AnonymousUser

NAME_MAX = 80


class TeamError(Exception):
    """A refused change; ``message`` says why, in the reader's language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotAllowed(TeamError):
    """The user may not make this change (the views answer 403)."""


class NotACoach(NotAllowed):
    pass


class NotTheCaptain(NotAllowed):
    pass


class NotYourSide(NotAllowed):
    pass


class NotTheRival(NotAllowed):
    pass


class NotTheInvitee(NotAllowed):
    pass


class EmailNotVerified(NotAllowed):
    pass


def check_email_verified(user: User) -> None:
    """An account made by sign-up joins no team and no league before its e-mail is confirmed."""
    if not email_verified(user):
        raise EmailNotVerified(
            _("Confirm your e-mail address first: follow the link we sent you at sign-up.")
        )


class IllegalTeam(TeamError):
    """The team breaks the rules; ``problems`` lists every reason."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(" ".join(problems))
        self.problems = problems


class RuleBroken(TeamError):
    pass


class NotEnoughGold(TeamError):
    pass


class AlreadyAnswered(TeamError):
    pass


# -- access ---------------------------------------------------------------------------------------


def _user(actor: Actor) -> User:
    if not isinstance(actor, User) or not actor.is_authenticated:
        raise NotACoach(_("Log in as one of the team's coaches first."))
    return actor


def _check_coach(actor: Actor, team: Team) -> User:
    user = _user(actor)
    if not team.is_coach(user):
        raise NotACoach(_("Only the coaches of %(team)s may change it.") % {"team": team.name})
    return user


def _check_captain(actor: Actor, team: Team) -> User:
    user = _check_coach(actor, team)
    if user.pk != team.captain_id:
        raise NotTheCaptain(_("Only the captain of %(team)s may do that.") % {"team": team.name})
    return user


def _check_side(actor: Actor, team: Team, side: str) -> User:
    user = _check_coach(actor, team)
    if side not in rosters.SIDES:
        raise RuleBroken(_("Unknown side “%(side)s”.") % {"side": side})
    if not team.controls(user, side):
        raise NotYourSide(_("You coach the other side: each side's coach manages its own players."))
    return user


def _lock(team: Team) -> Team:
    return Team.objects.select_for_update().get(pk=team.pk)


def _pay(team: Team, side: str, cost: int) -> None:
    field = "captain_treasury" if side == Side.CAPTAIN else "rival_treasury"
    paid = Team.objects.filter(pk=team.pk, **{f"{field}__gte": cost}).update(
        **{field: F(field) - cost}
    )
    if not paid:
        treasury = (
            _("the captain's treasury") if side == Side.CAPTAIN else _("the rival's treasury")
        )
        raise NotEnoughGold(
            _("Not enough gold: that costs %(cost)s and %(treasury)s holds %(left)s.")
            % {
                "cost": rosters.gp(cost),
                "treasury": treasury,
                "left": rosters.gp(team.treasury(side)),
            }
        )


def _clean_name(name: str, what: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise RuleBroken(_("%(what)s needs a name.") % {"what": what})
    if len(name) > NAME_MAX:
        raise RuleBroken(_("A name has at most %(max)d characters.") % {"max": NAME_MAX})
    return name


def _name_taken(name: str, league: League | None) -> bool:
    return league is not None and Team.objects.filter(league=league, name__iexact=name).exists()


def _free_number(team: Team) -> int:
    taken = {p.number for p in team.roster()}
    return next(n for n in range(1, rosters.NUMBER_MAX + 1) if n not in taken)


def _default_name(position: gamedata.Position, number: int) -> str:
    return f"{position.title} {number}"


# -- creating a team ------------------------------------------------------------------------------


def starting_treasury(league: League | None) -> int:
    return league.starting_treasury if league else gamedata.team_building().treasury


def _numbered(plan: rosters.TeamPlan) -> tuple[rosters.PlannedPlayer, ...]:
    """Give every unnumbered player the lowest free number, in the plan's order."""
    taken = {p.number for p in plan.players if p.number is not None}
    free = (n for n in range(1, rosters.NUMBER_MAX + 1) if n not in taken)
    return tuple(p if p.number is not None else replace(p, number=next(free)) for p in plan.players)


@transaction.atomic
def create_team(
    actor: Actor,
    plan: rosters.TeamPlan,
    *,
    name: str,
    league: League | None = None,
    rival_username: str = "",
) -> Team:
    """A new team for the actor as its captain, paid from the starting treasury; what is left
    is shared between the sides in proportion to their players' value. A rival named here is
    invited; until the invitation is accepted the captain holds both sides."""
    captain = _user(actor)
    check_email_verified(captain)
    name = _clean_name(name, _("A team"))
    budget = starting_treasury(league)
    problems = rosters.plan_problems(plan, budget)
    if _name_taken(name, league):
        problems.append(
            _("%(league)s already has a team called %(name)s.") % {"league": league, "name": name}
        )
    invitee = None
    if rival_username.strip():
        invitee = User.objects.filter(username__iexact=rival_username.strip()).first()
        if invitee is None:
            problems.append(_("There is no coach called “%(name)s”.") % {"name": rival_username})
        elif invitee.pk == captain.pk:
            problems.append(_("The captain cannot also be the rival coach."))
    if problems:
        raise IllegalTeam(problems)
    team = _build(plan, name=name, league=league, captain=captain, rival=None, budget=budget)
    if invitee is not None:
        Invitation.objects.create(team=team, user=invitee)
    return team


def _build(
    plan: rosters.TeamPlan,
    *,
    name: str,
    league: League | None,
    captain: User,
    rival: User | None,
    budget: int,
) -> Team:
    totals = rosters.plan_totals(plan)
    captain_gold, rival_gold = rosters.share_by_value(
        budget - totals.total, totals.captain_value, totals.rival_value
    )
    team = Team.objects.create(
        name=name,
        race=gamedata.race(plan.race).id,
        league=league,
        captain=captain,
        rival=rival,
        rerolls=plan.rerolls,
        fan_factor=plan.fan_factor,
        assistant_coaches=plan.assistant_coaches,
        cheerleaders=plan.cheerleaders,
        apothecary=plan.apothecary,
        captain_treasury=captain_gold,
        rival_treasury=rival_gold,
    )
    Player.objects.bulk_create(
        Player(
            team=team,
            number=p.number,
            name=p.name.strip() or _default_name(gamedata.position(p.position), p.number),
            position=p.position,
            side=p.side,
        )
        for p in _numbered(plan)
        if p.number is not None
    )
    return team


# -- between matches ------------------------------------------------------------------------------


@transaction.atomic
def hire_player(
    actor: Actor,
    team: Team,
    *,
    position: str,
    side: str,
    name: str = "",
    number: int | None = None,
) -> Player:
    """A rookie for the actor's own side, paid from that side's treasury."""
    _check_side(actor, team, side)
    team = _lock(team)
    _check_not_frozen(team)
    race = team.race_data
    try:
        pos = race.position(position)
    except gamedata.UnknownPosition:
        raise RuleBroken(
            _("A %(race)s team has no position “%(position)s”.")
            % {"race": race.name, "position": position}
        ) from None
    roster = team.roster()
    limit = gamedata.team_building().players_max
    if len(roster) >= limit:
        raise RuleBroken(_("The roster is full: %(max)d players at most.") % {"max": limit})
    if sum(1 for p in roster if p.position == pos.id) >= pos.max_qty:
        raise RuleBroken(
            _("The team already has %(max)d %(position)s, the most it may have.")
            % {"max": pos.max_qty, "position": glossary.position_name(pos)}
        )
    if number is None:
        number = _free_number(team)
    elif not 1 <= number <= rosters.NUMBER_MAX:
        raise RuleBroken(_("Player numbers go from 1 to %(max)d.") % {"max": rosters.NUMBER_MAX})
    elif any(p.number == number for p in roster):
        raise RuleBroken(_("Number %(number)d is taken.") % {"number": number})
    name = _clean_name(name, _("A player")) if name.strip() else _default_name(pos, number)
    _pay(team, side, pos.cost)
    return Player.objects.create(team=team, number=number, name=name, position=pos.id, side=side)


class RosterFrozen(TeamError):
    """A team's roster waits while the team has a match under way."""


# A team with a match in these states keeps its roster as the match knows it: the post-match
# sequence pays winnings by the sides' shares, which a hire after the final whistle changed.
_UNDER_WAY = ("pre_match", "in_play", "post_match")


def _check_not_frozen(team: Team) -> None:
    playing = team.home_matches.filter(status__in=_UNDER_WAY).exists()
    if playing or team.away_matches.filter(status__in=_UNDER_WAY).exists():
        raise RosterFrozen(
            _(
                "%(team)s has a match under way: hiring, firing and moving players wait until "
                "its post-match sequence is over."
            )
            % {"team": team.name}
        )


def _check_on_roster(player: Player) -> None:
    if player.status not in Player.ON_ROSTER:
        raise RuleBroken(_("%(player)s is no longer on the roster.") % {"player": player.name})


@transaction.atomic
def fire_player(actor: Actor, player: Player) -> None:
    """The player leaves the team (no refund); only the coach of the player's side fires."""
    _check_side(actor, player.team, player.side)
    _check_not_frozen(_lock(player.team))
    player.refresh_from_db()
    _check_on_roster(player)
    player.status = Player.Status.FIRED
    player.save(update_fields=["status"])
    MoveProposal.objects.filter(player=player, status=MoveProposal.Status.PENDING).update(
        status=MoveProposal.Status.REFUSED, answered_at=timezone.now()
    )


@transaction.atomic
def rename_player(actor: Actor, player: Player, name: str) -> None:
    _check_side(actor, player.team, player.side)
    _check_on_roster(player)
    player.name = _clean_name(name, _("A player"))
    player.save(update_fields=["name"])


@transaction.atomic
def buy_reroll(actor: Actor, team: Team) -> int:
    """One more team reroll at double the roster price, from the captain's treasury."""
    _check_captain(actor, team)
    team = _lock(team)
    most = gamedata.team_building().max_rerolls
    if team.rerolls >= most:
        raise RuleBroken(_("A team has at most %(max)d team rerolls.") % {"max": most})
    price = team.race_data.reroll_cost_after_creation
    _pay(team, Side.CAPTAIN, price)
    Team.objects.filter(pk=team.pk).update(rerolls=F("rerolls") + 1)
    return price


@transaction.atomic
def buy_staff(actor: Actor, team: Team, item: str) -> int:
    """An assistant coach, a cheerleader or the apothecary, from the captain's treasury."""
    _check_captain(actor, team)
    team = _lock(team)
    rules = gamedata.team_building()
    change: dict[str, object]
    if item == "assistant_coach":
        price = rules.assistant_coach_cost
        change = {"assistant_coaches": F("assistant_coaches") + 1}
    elif item == "cheerleader":
        price, change = rules.cheerleader_cost, {"cheerleaders": F("cheerleaders") + 1}
    elif item == "apothecary":
        if not team.race_data.apothecary_allowed:
            raise RuleBroken(
                _("%(race)s teams may not have an apothecary.") % {"race": team.race_data.name}
            )
        if team.apothecary:
            raise RuleBroken(_("The team already has its apothecary."))
        price, change = rules.apothecary_cost, {"apothecary": True}
    else:
        raise RuleBroken(_("Unknown purchase “%(item)s”.") % {"item": item})
    _pay(team, Side.CAPTAIN, price)
    Team.objects.filter(pk=team.pk).update(**change)
    return price


@transaction.atomic
def propose_move(actor: Actor, player: Player) -> MoveProposal | None:
    """The captain proposes to move the player to the other side. The rival must agree; while
    the team has no rival the captain holds both sides and the move happens at once."""
    _check_captain(actor, player.team)
    team = _lock(player.team)
    _check_not_frozen(team)
    player.refresh_from_db()
    _check_on_roster(player)
    to_side = Side.RIVAL if player.side == Side.CAPTAIN else Side.CAPTAIN
    if team.rival_id is None:
        player.side = to_side
        player.save(update_fields=["side"])
        return None
    if MoveProposal.objects.filter(player=player, status=MoveProposal.Status.PENDING).exists():
        raise RuleBroken(
            _("A move of %(player)s already waits for the rival's answer.")
            % {"player": player.name}
        )
    return MoveProposal.objects.create(player=player, to_side=to_side)


def _answer_move(actor: Actor, proposal: MoveProposal, status: str) -> None:
    team = proposal.player.team
    user = _check_coach(actor, team)
    if user.pk != team.rival_id:
        raise NotTheRival(_("Only the rival coach answers a proposed move."))
    answered = MoveProposal.objects.filter(
        pk=proposal.pk, status=MoveProposal.Status.PENDING
    ).update(status=status, answered_at=timezone.now())
    if not answered:
        raise AlreadyAnswered(_("That move was already answered."))


@transaction.atomic
def accept_move(actor: Actor, proposal: MoveProposal) -> None:
    _answer_move(actor, proposal, MoveProposal.Status.ACCEPTED)
    _check_not_frozen(proposal.player.team)  # after who may answer; raising undoes the answer
    player = proposal.player
    player.refresh_from_db()
    _check_on_roster(player)
    player.side = proposal.to_side
    player.save(update_fields=["side"])


@transaction.atomic
def refuse_move(actor: Actor, proposal: MoveProposal) -> None:
    _answer_move(actor, proposal, MoveProposal.Status.REFUSED)


# -- the rival coach ------------------------------------------------------------------------------


@transaction.atomic
def invite_rival(actor: Actor, team: Team, username: str) -> Invitation:
    """Invite a user to coach the rival's side; a newer invitation replaces a pending one."""
    captain = _check_captain(actor, team)
    team = _lock(team)
    if team.rival_id is not None:
        raise RuleBroken(_("%(team)s already has a rival coach.") % {"team": team.name})
    invitee = User.objects.filter(username__iexact=username.strip()).first()
    if invitee is None:
        raise RuleBroken(_("There is no coach called “%(name)s”.") % {"name": username})
    if invitee.pk == captain.pk:
        raise RuleBroken(_("The captain cannot also be the rival coach."))
    team.invitations.filter(status=Invitation.Status.PENDING).update(
        status=Invitation.Status.WITHDRAWN, answered_at=timezone.now()
    )
    return Invitation.objects.create(team=team, user=invitee)


def _answer_invitation(actor: Actor, invitation: Invitation, status: str) -> User:
    user = _user(actor)
    if user.pk != invitation.user_id:
        raise NotTheInvitee(_("Only the invited coach answers an invitation."))
    answered = Invitation.objects.filter(pk=invitation.pk, status=Invitation.Status.PENDING).update(
        status=status, answered_at=timezone.now()
    )
    if not answered:
        raise AlreadyAnswered(_("That invitation was already answered or withdrawn."))
    return user


@transaction.atomic
def accept_invitation(actor: Actor, invitation: Invitation) -> None:
    """The invited user becomes the rival coach and takes over the rival's side."""
    check_email_verified(_user(actor))
    user = _answer_invitation(actor, invitation, Invitation.Status.ACCEPTED)
    joined = Team.objects.filter(pk=invitation.team_id, rival__isnull=True).update(rival=user)
    if not joined:
        raise RuleBroken(_("The team already has a rival coach."))


@transaction.atomic
def decline_invitation(actor: Actor, invitation: Invitation) -> None:
    _answer_invitation(actor, invitation, Invitation.Status.DECLINED)


# -- import ---------------------------------------------------------------------------------------


def _coach(username: str | None, create: bool, problems: list[str]) -> User | None:
    if not username:
        return None
    user = User.objects.filter(username=username).first()
    if user is None and create:
        user = User(username=username)
        user.set_unusable_password()
        user.save()
    if user is None:
        problems.append(_("Unknown coach “%(name)s”.") % {"name": username})
    return user


@transaction.atomic
def import_team(
    team_file: TeamFile,
    *,
    new: bool = False,
    create_coaches: bool = False,
    league: League | None = None,
) -> Team:
    """Create the team a file describes, or raise IllegalTeam naming every problem.

    With ``new`` the file must be a legal new team within the starting treasury, and what is
    left is shared between the sides in proportion to their players' value (the file's
    treasury is ignored); otherwise the file's treasury and players' records are kept.
    """
    budget = starting_treasury(league) if new else None
    problems = team_file_problems(team_file, budget=budget)
    captain = _coach(team_file.captain, create_coaches, problems)
    rival = _coach(team_file.rival, create_coaches, problems)
    if captain is not None and rival is not None and captain.pk == rival.pk:
        problems.append(_("The captain cannot also be the rival coach."))
    if _name_taken(team_file.name, league):
        problems.append(
            _("%(league)s already has a team called %(name)s.")
            % {"league": league, "name": team_file.name}
        )
    if problems or captain is None:
        raise IllegalTeam(problems)  # leaving the transaction undoes any coach created above
    if new and budget is not None:
        return _build(
            team_file.plan(),
            name=team_file.name,
            league=league,
            captain=captain,
            rival=rival,
            budget=budget,
        )
    team = Team.objects.create(
        name=team_file.name,
        race=gamedata.race(team_file.race).id,
        league=league,
        captain=captain,
        rival=rival,
        rerolls=team_file.rerolls,
        fan_factor=team_file.fan_factor,
        assistant_coaches=team_file.assistant_coaches,
        cheerleaders=team_file.cheerleaders,
        apothecary=team_file.apothecary,
        captain_treasury=team_file.captain_treasury,
        rival_treasury=team_file.rival_treasury,
    )
    Player.objects.bulk_create(
        Player(
            team=team,
            number=p.number,
            name=p.name,
            position=p.position,
            side=p.side,
            spp=p.spp,
            skills=[
                g if g in gamedata.STAT_INCREASES else gamedata.skill(g).name for g in p.skills
            ],
            status=p.status,
            **p.injury_fields(),
        )
        for p in team_file.players
    )
    return team


# -- journeymen -----------------------------------------------------------------------------------


def _journeyman_position(team: Team) -> gamedata.Position:
    """The race's cheapest 0-16 position (LRB5: journeymen come from it, with Loner)."""
    return min((p for p in team.race_data.positions if p.max_qty == 16), key=lambda p: p.cost)


@transaction.atomic
def add_journeymen(team: Team) -> list[Player]:
    """Free journeymen for a team that cannot field 11 players in its next match; they go to
    the side with fewer players (the captain's when equal). The server calls this before a
    match: no coach asks for it."""
    team = _lock(team)
    roster = [p for p in team.players.all() if p.status in Player.ON_ROSTER]
    available = [p for p in roster if not p.miss_next_game]
    wanted = gamedata.team_building().players_min - len(available)
    limit = gamedata.team_building().players_max - len(roster)
    pos = _journeyman_position(team)
    added: list[Player] = []
    for _step in range(max(0, min(wanted, limit))):
        sides = [p.side for p in roster + added]
        side = Side.RIVAL if sides.count(Side.RIVAL) < sides.count(Side.CAPTAIN) else Side.CAPTAIN
        taken = {p.number for p in roster + added}
        number = next(n for n in range(1, rosters.NUMBER_MAX + 1) if n not in taken)
        added.append(
            Player.objects.create(
                team=team,
                number=number,
                name=_default_name(pos, number),
                position=pos.id,
                side=side,
                status=Player.Status.JOURNEYMAN,
            )
        )
    return added


@transaction.atomic
def release_journeymen(team: Team) -> int:
    """Journeymen nobody hired after their match leave the team before the next one."""
    return Player.objects.filter(team=team, status=Player.Status.JOURNEYMAN).update(
        status=Player.Status.RETIRED
    )


@transaction.atomic
def hire_journeyman(actor: Actor, player: Player) -> int:
    """The coach of the journeyman's side hires him for good at the position's price, paid
    from that side's treasury."""
    _check_side(actor, player.team, player.side)
    team = _lock(player.team)
    player.refresh_from_db()
    if player.status != Player.Status.JOURNEYMAN:
        raise RuleBroken(_("%(player)s is not a journeyman.") % {"player": player.name})
    roster = team.roster()
    hired = sum(
        1 for p in roster if p.position == player.position and p.status == Player.Status.ACTIVE
    )
    if hired >= player.position_data.max_qty:
        raise RuleBroken(
            _("The team already has %(max)d %(position)s, the most it may have.")
            % {
                "max": player.position_data.max_qty,
                "position": glossary.position_name(player.position_data),
            }
        )
    price = player.position_data.cost
    _pay(team, player.side, price)
    player.status = Player.Status.ACTIVE
    player.save(update_fields=["status"])
    return price
