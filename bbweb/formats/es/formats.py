"""Django's Spanish formats, with the reader's time zone named after every moment."""

DATETIME_FORMAT = r"j \d\e F \d\e Y \a \l\a\s H:i T"
SHORT_DATETIME_FORMAT = "d/m/Y H:i T"
