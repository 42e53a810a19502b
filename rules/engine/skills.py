"""The skill registry: each skill names the hooks of the engine it takes part in."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Skill:
    name: str
    hooks: frozenset[str]
    aliases: tuple[str, ...] = ()


def _s(name: str, *hooks: str, aliases: tuple[str, ...] = ()) -> Skill:
    return Skill(name, frozenset(hooks), aliases)


# Hook names: "reroll:<purpose>" a skill reroll for that roll; "activation" a roll when the
# player's action starts; "tackle_zone" changes a tackle zone; "assist"; "block_result";
# "block_strength"; "push"; "follow_up"; "armour"; "injury"; "casualty"; "dodge"; "gfi";
# "team_reroll"; "any_reroll"; "foul"; "strip"; "pass"; part 3: "stand_up"; "block_action" (a
# block replaced or preceded by something); "move"; "knock_down"; "end_of_action"; "action" (a
# declaration of its own); "kickoff"; "end_of_drive".
REGISTRY: dict[str, Skill] = {
    s.name: s
    for s in (
        _s("Block", "block_result"),
        _s("Dodge", "reroll:dodge", "block_result"),
        _s("Sure Hands", "reroll:pickup", "strip"),
        _s("Sure Feet", "reroll:gfi"),
        _s("Sprint", "gfi"),
        _s("Catch", "reroll:catch", "reroll:intercept"),
        _s("Pass", "reroll:pass"),
        _s("Tackle", "dodge", "block_result"),
        _s("Guard", "assist"),
        _s("Mighty Blow", "armour", "injury", aliases=("MB",)),
        _s("Stand Firm", "push"),
        _s("Side Step", "push", aliases=("Sidestep",)),
        _s("Frenzy", "follow_up", "block_result"),
        _s("Wrestle", "block_result"),
        _s("Horns", "block_strength"),
        _s("Dauntless", "block_strength"),
        _s("Juggernaut", "block_result", "push", "follow_up"),
        _s("Break Tackle", "dodge"),
        _s("Strip Ball", "strip"),
        _s("Thick Skull", "injury"),
        _s("Stunty", "dodge", "injury"),
        _s("Pro", "any_reroll"),
        _s("Loner", "team_reroll"),
        _s("Claw/Claws", "armour", aliases=("Claw", "Claws", "Claw(s)")),
        _s("Grab", "push"),
        _s("Fend", "follow_up"),
        _s("Dirty Player", "foul"),
        _s("Sneaky Git", "foul"),
        _s("Regeneration", "casualty"),
        _s(
            "Bone-Head",
            "activation",
            "tackle_zone",
            aliases=("Bone-head", "Bonehead", "Bone Head"),
        ),
        _s("Really Stupid", "activation", "tackle_zone"),
        _s("Wild Animal", "activation"),
        _s("Take Root", "activation"),
        # part 2
        _s("Accurate", "pass"),
        _s("Strong Arm", "pass"),
        _s("Safe Throw", "pass", "intercept"),
        _s("Nerves of Steel", "pass", "catch", "intercept"),
        _s("Dump-Off", "pass", "block_result", aliases=("Dump Off",)),
        _s("Hail Mary Pass", "pass", aliases=("HMP",)),
        _s("Leader", "team_reroll"),
        _s("Diving Catch", "catch"),
        _s("Diving Tackle", "dodge"),
        _s("Shadowing", "dodge"),
        _s("Pass Block", "intercept"),
        _s("Kick", "kickoff"),
        _s("Kick-Off Return", "kickoff", aliases=("Kick-off Return",)),
        _s("Extra Arms", "catch", "pickup", "intercept"),
        _s("Big Hand", "pickup"),
        _s("Very Long Legs", "intercept", "leap"),
        _s("Two Heads", "dodge"),
        _s("Tentacles", "dodge"),
        _s("Prehensile Tail", "dodge"),
        _s("Disturbing Presence", "pass", "catch", "intercept"),
        _s("Throw Team-Mate", "pass", aliases=("Throw Team-mate", "Throw Teammate", "TTM")),
        _s("Right Stuff", "pass"),
        _s("Always Hungry", "pass"),
        _s("Leap", "leap", "dodge"),
        _s("No Hands", "catch", "pickup", "intercept"),
        # part 3
        _s("Jump Up", "stand_up", "activation"),
        _s("Multiple Block", "block_action", "block_strength", "follow_up"),
        _s("Piling On", "armour", "injury"),
        _s("Foul Appearance", "block_action"),
        _s("Ball & Chain", "move", "knock_down", "injury", aliases=("Ball and Chain",)),
        _s("Blood Lust", "activation", "end_of_action"),
        _s("Bombardier", "action"),
        _s("Chainsaw", "block_action", "foul", "armour"),
        _s("Decay", "casualty"),
        _s("Fan Favourite", "kickoff"),
        _s("Hypnotic Gaze", "end_of_action", "tackle_zone"),
        _s("Nurgle's Rot", "casualty", aliases=("Nurgles Rot",)),
        _s("Secret Weapon", "end_of_drive"),
        _s("Stab", "block_action"),
        _s("Stakes", "block_action", "armour"),
        _s("Titchy", "dodge", "tackle_zone"),
    )
}

_CANONICAL: dict[str, str] = {}
for _skill in REGISTRY.values():
    _CANONICAL[_skill.name.lower()] = _skill.name
    for _alias in _skill.aliases:
        _CANONICAL[_alias.lower()] = _skill.name


def canonical(name: str, known: frozenset[str] = frozenset()) -> str:
    """The registry's spelling of a skill name; names outside the registry pass through
    when they are in ``known`` (skills.json), else ValueError."""
    found = _CANONICAL.get(name.lower())
    if found is not None:
        return found
    for k in known:
        if k.lower() == name.lower():
            return k
    raise ValueError(f"unknown skill: {name!r}")


def implemented() -> list[str]:
    return sorted(REGISTRY)


def reroll_skill(purpose: str) -> str | None:
    return _REROLL_BY_PURPOSE.get(purpose)


_REROLL_BY_PURPOSE: dict[str, str] = {
    hook.split(":", 1)[1]: s.name
    for s in REGISTRY.values()
    for hook in s.hooks
    if hook.startswith("reroll:")
}
