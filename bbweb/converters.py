"""Path converters for the ids and tokens in the site's URLs (registered in bbweb.apps).

``<id:pk>`` is Django's ``<int:pk>`` within the database's integer range: a number past
2**63 - 1 matches no route (a 404), where ``int`` would hand the view a key that neither
SQLite nor PostgreSQL can compare with a column (SQLite's driver raises OverflowError).
``<token:token>`` takes the characters ``secrets.token_urlsafe`` makes, so a link with any
other character is a 404 before a view compares it with a player's token."""

ID_MAX = 2**63 - 1  # a BigAutoField's, and SQLite's INTEGER's, largest value


class IdConverter:
    regex = "[0-9]+"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > ID_MAX:
            raise ValueError(f"{value} is past the largest id")  # no match: a 404
        return number

    def to_url(self, value: int) -> str:
        return str(value)


class TokenConverter:
    regex = "[A-Za-z0-9_-]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
