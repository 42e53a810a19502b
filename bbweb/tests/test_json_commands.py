"""Every management command that reads a JSON file answers one that is nested past any parser's
depth, malformed or not UTF-8 with one line on stderr and its documented exit status: never a
traceback (the RecursionError of 100,000 opening brackets included)."""

import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

MANAGE = Path(settings.BASE_DIR) / "manage.py"
# command: the exit status its help documents for a file it cannot read
COMMANDS = {
    "verify_match": 1,
    "import_team": 1,
    "import_league": 1,
    "live_challenge": 2,
    "scenario": 2,
}
FILES = {
    "nested": ("[" * 100_000 + "]" * 100_000).encode(),
    "malformed": b'{"events": [1, 2,',
    "not_utf8": b'{"name": "\xff\xfe"}',
}


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("command", COMMANDS)
def test_a_json_file_it_cannot_read_is_one_line_and_the_documented_status(
    tmp_path: Path, command: str, name: str
) -> None:
    path = tmp_path / f"{name}.json"
    path.write_bytes(FILES[name])
    done = subprocess.run(
        [sys.executable, str(MANAGE), command, str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == COMMANDS[command], done.stderr
    assert "Traceback" not in done.stderr and "RecursionError" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert str(path) in lines[0]
    if name == "nested":
        assert "nested too deep" in lines[0]
