"""``scoring-eval``: how often a model gets a board-game score right, alone, with this
service's tools, or as アイちゃん (docs/assistant-eval.md).

The questions are generated from a seed (:mod:`.questions`), each with its exact answer
from the service's own operations and the tool arguments that state it; a run asks an
OpenAI-compatible endpoint (:mod:`.endpoint`, :mod:`.modes`), grades each reply
(:mod:`.answers`, :mod:`.arguments`, :mod:`.grading`) and reports per game and in all
(:mod:`.report`). The command line is :mod:`.cli`.
"""
