from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.engine.dice import FairDice


class Command(BaseCommand):
    help = "Print the first N faces of a six-sided die of a match's FairDice stream."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("seed_hex")
        parser.add_argument("match_id")
        parser.add_argument("n", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            seed = bytes.fromhex(options["seed_hex"])
        except ValueError as e:
            raise CommandError(f"SEED_HEX is not hexadecimal: {e}") from None
        dice = FairDice(seed, options["match_id"])
        self.stdout.write(" ".join(str(dice.face(i, 6)) for i in range(options["n"])))
