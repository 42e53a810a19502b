"""The words of the match page for the engine's codes, in the reader's language.

The thread stores structured data (event types, purposes, results, decision kinds); these
tables name them at render time, so a Spanish reader sees Spanish whoever posted.
"""

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from teams import advancement

ACTIONS: dict[str, Promise] = {
    "move": pgettext_lazy("action", "Move"),
    "block": pgettext_lazy("action", "Block"),
    "blitz": pgettext_lazy("action", "Blitz"),
    "pass": pgettext_lazy("action", "Pass"),
    "hand_off": pgettext_lazy("action", "Hand-off"),
    "foul": pgettext_lazy("action", "Foul"),
    "end_turn": _("End of turn"),
    "claim_blitz": _("Claim the Blitz"),
    "start_match": _("Start of the match"),
    "setup": _("Set-up"),
    "kick": _("Kick-off"),
    "concede": _("Concession"),
    "deadline_passed": _("The deadline passed"),
    "default_setup": _("The set-up deadline passed: the server set up by default"),
    "default_kick": _("The kick-off deadline passed: the server kicked to the centre"),
    "created": _("The match is created"),
    "dispute_raised": _("Dispute raised"),
    "blitz_contest": _("Blitz contest"),
    "vacation": _("A coach is away on holiday"),
    "bank_ran_out": _("A time bank ran out"),
    "closed": _("The match is closed; its dice seed is revealed"),
}

DECISIONS: dict[str, Promise] = {
    "reroll": _("Reroll?"),
    "block_die": _("Choose the block die"),
    "push": _("Choose the push square"),
    "follow_up": _("Follow up?"),
    "apothecary": _("Use the apothecary?"),
    "intercept": _("Try an interception?"),
    "reroll_approval": _("Approve the team reroll?"),
    "blitz_claim": _("The rival's side claims the Blitz"),
    "touchback": _("Touchback: who gets the ball?"),
    "dump_off": _("Dump-off?"),
    "pass_block": _("Pass Block?"),
    "kick_or_receive": _("Kick or receive?"),
    "high_kick": _("High Kick: who goes under the ball?"),
    "kick_off_return": _("Kick-Off Return?"),
    "break_tackle": _("Use Break Tackle (Strength for the dodge)?"),
    "wrestle": _("Wrestle (both placed prone) instead of Both Down?"),
    "agree_draw": _("Full time and a tie: agree to a draw? (If not, sudden-death overtime.)"),
}

BLOCK_FACES: dict[int, Promise] = {
    1: _("Attacker down"),
    2: _("Pushed"),
    3: _("Pushed"),
    4: _("Both down"),
    5: _("Defender stumbles"),
    6: _("Defender down"),
}

CHOICES: dict[Any, Promise] = {
    "team": _("Team reroll"),
    "none": _("No"),
    "approve": _("Approve"),
    "deny": _("Deny"),
    "grant": _("Grant"),
    "contest": _("Contest"),
    "kick": _("Kick"),
    "receive": _("Receive"),
    True: _("Yes"),
    False: _("No"),
}

PURPOSES: dict[str, Promise] = {
    "dodge": _("Dodge"),
    "gfi": _("Going For It"),
    "pickup": _("Pick-up"),
    "catch": _("Catch"),
    "pass": pgettext_lazy("roll", "Pass"),
    "armour": _("Armour"),
    "injury": _("Injury"),
    "casualty": _("Casualty"),
    "block": pgettext_lazy("roll", "Block"),
    "bounce": _("Bounce"),
    "scatter": _("Scatter"),
    "throw_in": _("Throw-in"),
    "weather": _("Weather"),
    "coin_toss": _("Coin toss"),
    "fans": _("Fans"),
    "kick_scatter": _("Kick scatter"),
    "kickoff_table": _("Kick-off table"),
    "heat": _("Sweltering heat"),
    "ko_recovery": _("KO recovery"),
    "shoot_out": _("Penalty shoot-out"),
    "interception": _("Interception"),
    "stand_up": _("Standing up"),
    "leap": _("Leap"),
    "foul": pgettext_lazy("roll", "Foul"),
    "blitz_contest": _("Blitz contest"),
    "cheering_fans": _("Cheering Fans"),
    "brilliant_coaching": _("Brilliant Coaching"),
    "throw_a_rock": _("Throw a Rock"),
    "pitch_invasion": _("Pitch Invasion"),
    "riot": _("Riot"),
    "random_player": _("Random player"),
    "breeze": _("Breeze"),
}

RESULTS: dict[str, Promise] = {
    "success": _("success"),
    "failure": _("failure"),
    "used": pgettext_lazy("reroll", "used"),
    "denied": pgettext_lazy("reroll", "denied"),
    "hit": pgettext_lazy("bomb", "hit"),
    "broken": _("broken"),
    "holds": _("holds"),
    "stunned": _("stunned"),
    "ko": _("KO"),
    "casualty": _("casualty"),
    **advancement.CASUALTY_NAMES,
    "fine": _("fine"),
    "collapses": _("collapses"),
    "home": _("home"),
    "away": _("away"),
    "missed": _("missed"),
    "held": _("held"),
    "escaped": _("escaped"),
    "follows": _("follows"),
}

WEATHER: dict[str, Promise] = {
    "sweltering_heat": _("Sweltering heat"),
    "very_sunny": _("Very sunny"),
    "nice": _("Nice"),
    "pouring_rain": _("Pouring rain"),
    "blizzard": _("Blizzard"),
}

KICKOFF: dict[str, Promise] = {
    "get_the_ref": _("Get the Ref"),
    "riot": _("Riot"),
    "perfect_defence": _("Perfect Defence"),
    "high_kick": _("High Kick"),
    "cheering_fans": _("Cheering Fans"),
    "changing_weather": _("Changing Weather"),
    "brilliant_coaching": _("Brilliant Coaching"),
    "quick_snap": _("Quick Snap!"),
    "blitz": _("Blitz!"),
    "throw_a_rock": _("Throw a Rock"),
    "pitch_invasion": _("Pitch Invasion!"),
}

PHASES: dict[str, Promise] = {
    "pregame": _("Pre-match"),
    "setup": _("Set-up"),
    "kickoff": _("Kick-off"),
    "perfect_defence": _("Perfect Defence"),
    "quick_snap": _("Quick Snap!"),
    "blitz": _("Blitz!"),
    "play": _("Play"),
    "finished": _("Finished"),
}

STATES: dict[str, Promise] = {
    "standing": _("standing"),
    "prone": _("prone"),
    "stunned": _("stunned"),
    "reserves": _("reserves"),
    "ko": _("KO"),
    "casualty": _("casualty"),
    "sent_off": _("sent off"),
}

MODIFIERS: dict[str, Promise] = {
    "dodge": _("dodge"),
    "tackle_zones": _("tackle zones"),
    "pick_up": _("pick-up"),
    "pouring_rain": _("pouring rain"),
    "accurate": _("accurate"),
    "assists": _("assists"),
    "defensive_assists": _("defensive assists"),
    "range": _("range"),
    "fame": _("FAME"),
    "rerolls": _("rerolls"),
}

ERRORS: dict[str, Promise] = {
    "not_your_turn": _("It is not your turn."),
    "not_your_player": _("That player is not yours to move."),
    "player_cannot_act": _("That player cannot act now."),
    "path_illegal": _("That path is not possible."),
    "too_far": _("Too far."),
    "target_illegal": _("That target is not allowed."),
    "blitz_used": _("The Blitz of this turn is used."),
    "foul_used": _("Your side's foul of this turn is used."),
    "pass_used": _("The Pass of this turn is used."),
    "hand_off_used": _("The Hand-off of this turn is used."),
    "decision_pending": _("A decision must be answered first."),
    "no_decision_pending": _("No decision is awaited."),
    "choice_illegal": _("That is not one of the options."),
    "not_captain": _("Only the captain may do that."),
    "wrong_phase": _("That does not belong to this phase of the match."),
    "setup_illegal": _("That set-up breaks the rules."),
    "malformed": _("That declaration could not be read."),
    "notation": _("That is not a declaration in the notation."),
    "not_in_play": _("The match is not in play."),
    "not_in_match": _("Only the match's coaches and GM write here."),
    "empty": _("The post is empty."),
    "not_author": _("Only the author edits a post."),
    "not_editable": _("This post has no text to edit."),
    "edit_window": _("The time to edit this post is over."),
    "not_gm": _("Only a game master schedules matches."),
    "same_team": _("A team cannot play itself."),
    "league_prematch": _("A league match has its pre-match; only a friendly may skip it."),
}


# The record's event types, for the lines that name an event rather than tell it (the GM's
# dispute page, and the thread's events no sentence describes).
EVENTS: dict[str, Promise] = {
    "action": _("Action"),
    "always_hungry": _("Always hungry"),
    "ball_and_chain": _("Ball and chain"),
    "bite": _("Bite"),
    "blitz_granted": _("Blitz granted"),
    "blitz_turn": _("Blitz turn"),
    "block_result": _("Block result"),
    "block_wasted": _("Block wasted"),
    "bomb": _("Bomb"),
    "bomb_hit": _("Caught in the bomb's blast"),
    "chainsaw_attack": _("Chainsaw attack"),
    "decay": _("Decay"),
    "diving_catch": _("Diving catch"),
    "diving_tackle": _("Diving tackle"),
    "draw_agreed": _("Draw agreed"),
    "draw_declined": _("Draw declined"),
    "drive_start": _("Start of the drive"),
    "end_side": _("End of a side's part of the turn"),
    "eaten": _("Eaten"),
    "explosion": _("Explosion"),
    "extra_reroll": _("Extra team reroll"),
    "feeds_on_spectator": _("Feeds on a spectator"),
    "final_whistle": _("Final whistle"),
    "half_end": _("End of the half"),
    "half_start": _("Start of the half"),
    "hypnotised": _("Hypnotised"),
    "igor": _("Igor"),
    "kickback": _("The chainsaw kicks back"),
    "knocked_down": _("Knocked down"),
    "landed_on": _("Landed on"),
    "master_chef": _("Halfling Master Chef"),
    "no_setup": _("Nobody to set up"),
    "not_seen": _("Not seen"),
    "nurgles_rot": _("Nurgle's Rot"),
    "piling_on": _("Piling on"),
    "quick_snap_step": _("Quick Snap step"),
    "raise_dead": _("Raise the dead"),
    "rock": _("Hit by a thrown rock"),
    "rock_fans": _("Throw a Rock: the fans' roll"),
    "safe_throw": _("Safe throw"),
    "secret_weapon": _("Secret weapon"),
    "sent_off": _("Sent off"),
    "setup_complete": _("Set-up complete"),
    "stab": _("Stab"),
    "stand_firm": _("Stand firm"),
    "strip_ball": _("Strip ball"),
    "take_root": _("Take root"),
    "throw": _("Throw"),
    "throw_team_mate": _("Throw team-mate"),
    "touchdown": _("Touchdown"),
    "turn_start": _("Start of the turn"),
    "turnover": _("Turnover"),
    "decision": _("Decision"),
    "declaration": _("Declaration"),
    "match_created": _("The match is created"),
    "dispute_raised": _("Dispute raised"),
    "dismissed": _("Dispute dismissed"),
    "upheld": _("Dispute upheld"),
    "rewind": _("Play taken back"),
    "granted_reroll": _("Roll made again"),
    "correction": _("Correction"),
    "award": _("Match awarded"),
    "match_ended": _("Match ended by the GM"),
    "deadline_extended": _("Deadline extended"),
    "deadline_set": _("Deadline set"),
    "paused": _("Match paused"),
    "resumed": _("Match resumed"),
    "locked": _("Match locked"),
    "unlocked": _("Match unlocked"),
    "coach_replaced": _("Coach replaced"),
    "match_closed": _("Match closed"),
    "sequence_team_values": _("Team values"),
    "sequence_petty_cash": _("Petty cash"),
    "sequence_inducements": _("Inducements"),
    "sequence_handicap": _("Handicap money"),
    "sequence_weather": _("Weather"),
    "sequence_fans": _("Fans"),
    "sequence_star_clash": _("Star clash"),
    "sequence_kick_off": _("Kick-off"),
    "sequence_result": _("Result"),
    "sequence_winnings": _("Winnings"),
    "sequence_winnings_dice": _("Winnings die"),
    "sequence_winnings_reroll": _("Winnings die rolled again"),
    "sequence_fan_factor": _("Fan factor"),
    "sequence_mvp": _("MVP"),
    "sequence_spp": _("SPP"),
    "sequence_injuries": _("Injuries"),
    "sequence_improvement_rolls": _("Improvement rolls"),
    "sequence_advancement": _("Advancement"),
    "sequence_team_values_after": _("Team values after the match"),
    "sequence_journeymen": _("Journeymen"),
}


def label(table: dict[Any, Promise], key: Any) -> str:
    """The translated name, or the code made readable when the table lacks it."""
    found = table.get(key)
    if found is not None:
        return str(found)
    return str(key).replace("_", " ")


# What a GM did to a league, for its audit log (the rulings are named as events).
AUDIT: dict[str, Promise] = {
    "fixture_added": _("Fixture added"),
    "fixture_started": _("Fixture started"),
    "league_created": _("League created"),
    "league_updated": _("League settings changed"),
    "round_robin": _("Round robin scheduled"),
}


def event_name(code: Any) -> str:
    """An event type's name: the record's own table first, then what was rolled, declared or
    asked under that code."""
    for table in (EVENTS, AUDIT, PURPOSES, ACTIONS, DECISIONS, RESULTS, KICKOFF, WEATHER):
        if code in table:
            return str(table[code])
    return label({}, code)
