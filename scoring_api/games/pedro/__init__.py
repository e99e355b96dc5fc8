"""Pedro (ピードロ): the partnership trick-taking game of the Pitch family.

Rules: ``docs/rules/pedro.md`` (seed 003). Modules: ``cards`` (cards, seats, trumps),
``schedules`` (the point schedules: the guide's 14 points, BGA's California Pedro's 16),
``rules`` (the options object), ``auction`` (the auction and a hand's bid), ``tricks``,
``scoring`` (hand points and settlement), ``hand`` (one hand as given: points or captured
cards), ``game`` (whole games and how each hand leaves them).
"""
