"""Django's Finnish formats, with the reader's time zone named after every moment."""

DATETIME_FORMAT = r"j. E Y \k\e\l\l\o G.i T"
SHORT_DATETIME_FORMAT = "j.n.Y G.i T"
