"""3-LIVE-BB (seed 002): Blood Bowl played live. Pure Python like rules.engine: the challenge
resolver (shared/LIVE.md is its contract), the condition ladder and the levels from a roster."""
