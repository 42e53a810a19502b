"""The league's memory: a player's career, a team's history with its chart and head-to-head,
the league's records and hall of fame (read from matches.record.careers)."""
