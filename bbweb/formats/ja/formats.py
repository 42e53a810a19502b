"""Django's Japanese formats, with the reader's time zone named after every moment."""

DATETIME_FORMAT = "Y年n月j日G:i T"
SHORT_DATETIME_FORMAT = "Y/m/d G:i T"
