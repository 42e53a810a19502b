"""Rulesets: plain LRB5 and the forum's split-team house rules, as hooks on one object."""

from __future__ import annotations

from .state import SIDES, MatchState, Player, Team

_CAN_ACT = frozenset(("standing", "prone"))


class LRB5:
    """Plain LRB5: a team is one coach; either side string acts for all its players."""

    name = "lrb5"
    split_team = False

    def controls(self, team: str, side: str, player: Player) -> bool:
        return player.team == team

    def sides(self) -> tuple[str, ...]:
        return ("captain",)

    def side_of(self, side: str) -> str:
        return "captain"

    def blitz_free(self, team: Team, side: str) -> bool:
        return not team.blitz_used

    def foul_free(self, team: Team, side: str) -> bool:
        return sum(team.fouls_used.values()) < 1

    def foul_key(self, side: str) -> str:
        return "captain"

    def reroll_needs_approval(self, side: str) -> bool:
        return False

    def decider(self, team: str, side: str) -> str:
        return f"{team}:{self.side_of(side)}"

    def captain(self, team: str) -> str:
        return f"{team}:captain"

    def may_claim_blitz(self) -> bool:
        return False

    def accepts(self, to: str, actor: str) -> bool:
        """May ``actor`` answer a decision addressed to ``to``?"""
        return to.split(":")[0] == actor.split(":")[0]

    def turn_over(self, state: MatchState, team: str) -> bool:
        """Both sides ended (a side with no player counts as ended), or every player of the
        team able to act has acted."""
        ended = state.teams[team].ended
        players = state.players.values()
        # (this runs after every action: the away team's players, usually listed last, are
        # looked for from the end)
        if ended:
            split = self.split_team
            for p in players if team == "home" else reversed(players):
                if p.team == team and (p.side if split else "captain") not in ended:
                    break  # a side plays on
            else:
                return True
        for p in players if team == "home" else reversed(players):
            if p.team == team and not p.acted and p.at is not None and p.state in _CAN_ACT:
                return False
        return True


class SplitTeam(LRB5):
    """House rules 1, 2 and 5 of seed 000: two coaches per team."""

    name = "split_team"
    split_team = True

    def controls(self, team: str, side: str, player: Player) -> bool:
        return player.team == team and player.side == side

    def sides(self) -> tuple[str, ...]:
        return SIDES

    def side_of(self, side: str) -> str:
        return side

    def blitz_free(self, team: Team, side: str) -> bool:
        return not team.blitz_used and team.blitz_side == side

    def foul_free(self, team: Team, side: str) -> bool:
        return team.fouls_used.get(side, 0) < 1

    def foul_key(self, side: str) -> str:
        return side

    def reroll_needs_approval(self, side: str) -> bool:
        return side == "rival"

    def may_claim_blitz(self) -> bool:
        return True

    def accepts(self, to: str, actor: str) -> bool:
        return to == actor


class SplitTeamFreeRerolls(SplitTeam):
    """House rule 5 as seed 000 words it: either side uses the team rerolls as soon as it
    needs them, with no approval by the captain (a league's choice)."""

    name = "split_team_free_rerolls"

    def reroll_needs_approval(self, side: str) -> bool:
        return False


_LRB5 = LRB5()
_SPLIT = SplitTeam()
_SPLIT_FREE_REROLLS = SplitTeamFreeRerolls()


def ruleset_for(state: MatchState) -> LRB5:
    if not state.house_rules:
        return _LRB5
    return _SPLIT_FREE_REROLLS if state.rerolls_free else _SPLIT
