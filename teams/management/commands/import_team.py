import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from teams import services
from teams.models import League
from teams.transfer import read_team_file


class Command(BaseCommand):
    help = (
        "Create a team from a JSON file (the shape export_team prints). With --new the file "
        "must be a legal new team within the starting treasury. Prints the new team's id and "
        "value; an invalid file exits 1 naming every problem and creates nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the team's JSON file, or - for standard input")
        parser.add_argument(
            "--new",
            action="store_true",
            help="a newly created team: checked against the starting treasury, which is "
            "shared between the sides by their players' value",
        )
        parser.add_argument(
            "--create-coaches",
            action="store_true",
            help="create the coaches the file names when they have no account yet",
        )
        parser.add_argument("--league", help="the league's name or id (its starting treasury)")

    def handle(self, *args: Any, **options: Any) -> None:
        problems: list[str] = []
        league = self._league(options["league"], problems)
        data = self._read(options["file"], problems)
        team_file, shape_problems = read_team_file(data) if data is not None else (None, [])
        problems.extend(shape_problems)
        if team_file is not None and not problems:
            try:
                team = services.import_team(
                    team_file,
                    new=options["new"],
                    create_coaches=options["create_coaches"],
                    league=league,
                )
            except services.IllegalTeam as refused:
                problems.extend(refused.problems)
            else:
                self.stdout.write(f"team {team.pk}: value {team.value} gp")
                return
        if len(problems) == 1:  # one line, as for a file that is not JSON
            self.stderr.write(f"{options['file']}: the team was not imported: {problems[0]}")
        else:
            self.stderr.write(f"{options['file']}: the team was not imported:")
            for problem in problems:
                self.stderr.write(f"  - {problem}")
        raise SystemExit(1)

    def _read(self, name: str, problems: list[str]) -> object:
        try:
            text = Path("/dev/stdin" if name == "-" else name).read_text(encoding="utf-8")
            return json.loads(text)
        except OSError as error:
            problems.append(f"cannot read the file: {error.strerror}")
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            problems.append(f"not valid JSON: {error}")
        except RecursionError:
            problems.append("not valid JSON: nested too deep")
        return None

    def _league(self, key: str | None, problems: list[str]) -> League | None:
        if not key:
            return None
        league = League.objects.filter(name=key).first()
        if league is None and key.isdigit():
            league = League.objects.filter(pk=int(key)).first()
        if league is None:
            problems.append(f"unknown league {key!r}")
        return league
