"""The 3-LIVE-BB companion (seed 002): a referee runs a live match from a phone. The rules are
``rules.live``; this package holds the models, the write path (services.py) and the pages."""
