"""A 3-LIVE-BB player's condition (seed 002, "Vauriotesti", "Kuolema", "Tuomarit").

A condition is a small value: functions return a new one. The ladder a referee reads is
standing < down < stunned < injured < seriously injured < critically injured < dead, but a
player can be down *and* injured, so the parts are kept apart and :attr:`Condition.state`
names the worst of them."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum, StrEnum


class Damage(IntEnum):
    NONE = 0
    INJURED = 1  # -1 in every challenge, may not run or stride
    SERIOUSLY_INJURED = 2  # crawls: always on the ground, kicked as one lying down
    CRITICALLY_INJURED = 3  # carried off the field
    DEAD = 4


class Card(StrEnum):
    NONE = ""
    YELLOW = "yellow"  # out until the next stoppage (the end of the drive)
    RED = "red"  # out for the rest of the match, unless bribed


LADDER = (
    "standing",
    "down",
    "stunned",
    "injured",
    "seriously_injured",
    "critically_injured",
    "dead",
)

# Stunned "for the next round": the round it happens in and the whole round after it.
STUN_ROUNDS = 2


class IllegalChange(ValueError):
    """A change the rules do not allow in this condition (a stunned player standing up...)."""


@dataclass(frozen=True)
class Condition:
    down: bool = False
    stunned: int = 0  # rounds left, counted down at each round's end
    damage: Damage = Damage.NONE
    card: Card = Card.NONE
    crowd: bool = False  # ran off the field and was beaten: out for the rest of the drive

    @property
    def state(self) -> str:
        """The worst rung of the ladder (cards and the crowd are apart: see :attr:`out`)."""
        if self.damage:
            return LADDER[self.damage + 2]
        if self.stunned:
            return "stunned"
        return "down" if self.down else "standing"

    @property
    def out(self) -> str:
        """Why the player is not on the field: "dead", "carried_off", "red", "yellow", "crowd",
        or "" when he plays."""
        if self.damage == Damage.DEAD:
            return "dead"
        if self.damage == Damage.CRITICALLY_INJURED:
            return "carried_off"
        if self.card:
            return str(self.card)
        return "crowd" if self.crowd else ""

    @property
    def modifier(self) -> int:
        """Added to every challenge's level: -1 for any injury."""
        return -1 if self.damage >= Damage.INJURED else 0

    @property
    def lying(self) -> bool:
        """Kicked as one lying down: down, or seriously injured (crawls)."""
        return self.down or self.damage >= Damage.SERIOUSLY_INJURED

    @property
    def can_stride(self) -> bool:
        return not self.out and not self.lying and not self.stunned and not self.damage

    @property
    def can_attack(self) -> bool:
        """Bash, tackle or kick: standing on his feet and not stunned."""
        return not self.out and not self.lying and not self.stunned

    @property
    def must_dodge(self) -> bool:
        """A stunned player always dodges in a bash, and without his dodging skills."""
        return bool(self.stunned)


def knock_down(c: Condition) -> Condition:
    """Beaten in a bash or a tackle (or kicked): on the ground and stunned; the injury tests
    follow (:func:`hurt`)."""
    return replace(c, down=True, stunned=STUN_ROUNDS)


def fall(c: Condition) -> Condition:
    """Fell on his own (a failed stride, a landing): on the ground until the next round."""
    return replace(c, down=True)


def stand_up(c: Condition) -> Condition:
    if c.stunned or c.damage >= Damage.SERIOUSLY_INJURED or c.out:
        raise IllegalChange("a stunned or seriously injured player cannot stand up")
    return replace(c, down=False)


def hurt(c: Condition, levels: int) -> Condition:
    """One attack's damage: ``levels`` injury tests won in a row. Three at once kill, and so do
    two on a player already critically injured; otherwise critical is the bottom."""
    if levels < 0:
        raise ValueError("damage is not negative")
    if c.damage == Damage.DEAD or not levels:
        return c
    if levels >= 3 or (c.damage == Damage.CRITICALLY_INJURED and levels >= 2):
        return replace(c, damage=Damage.DEAD, down=True)
    damage = Damage(min(Damage.CRITICALLY_INJURED, c.damage + levels))
    return replace(c, damage=damage, down=c.down or damage >= Damage.SERIOUSLY_INJURED)


def beaten_by_the_crowd(c: Condition, levels: int) -> Condition:
    """Ran off the field: out for the rest of the drive, one damage level for each challenge
    the referee won against him in a row."""
    return replace(hurt(c, levels), crowd=True)


def show_card(c: Condition, card: Card) -> Condition:
    if card == Card.NONE:
        raise ValueError("a card is yellow or red")
    if c.card == Card.RED:
        return c
    return replace(c, card=card)


def bribe(c: Condition) -> Condition:
    """A successful bribe lifts the card."""
    return replace(c, card=Card.NONE)


def end_round(c: Condition) -> Condition:
    return replace(c, stunned=max(0, c.stunned - 1))


def end_drive(c: Condition) -> Condition:
    """A stoppage (touchdown or half time): everyone sets up standing for the kick-off; yellow
    cards and the crowd's sending off end; injuries stay as they are unless treated."""
    card = Card.RED if c.card == Card.RED else Card.NONE
    down = c.damage >= Damage.SERIOUSLY_INJURED
    return replace(c, down=down, stunned=0, card=card, crowd=False)


def treat(c: Condition) -> Condition:
    """The supporters patch him up (seed: "kannatusjoukot"): injuries gone, the dead stay dead."""
    if c.damage == Damage.DEAD:
        raise IllegalChange("the dead are not treated")
    return replace(c, damage=Damage.NONE, down=False)
