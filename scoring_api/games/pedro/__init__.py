"""Pedro (ピードロ): the partnership trick-taking game of the Pitch family.

Rules: ``docs/rules/pedro.md`` (seed 003). Modules: ``cards`` (cards, seats, trumps),
``rules`` (the options object), ``auction``, ``tricks``, ``scoring`` (hand points and
settlement), ``game`` (whole games).
"""
