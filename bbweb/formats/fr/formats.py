"""Django's French formats, with the reader's time zone named after every moment."""

DATETIME_FORMAT = "j F Y H:i T"
SHORT_DATETIME_FORMAT = "d/m/Y H:i T"
