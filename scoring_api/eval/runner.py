"""A run: every question asked in turn, graded, its progress shown.

Questions are asked one at a time (a run is bounded by its questions, each by its rounds
and each request by its timeout). An error the next question could not escape (a wrong
key, no such model or endpoint: :attr:`~.endpoint.EndpointError.fatal`) stops the run, and
so does Ctrl-C (``interrupted``); the questions graded so far are kept, with the reason.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .endpoint import Endpoint, EndpointError
from .grading import Outcome, grade
from .modes import Asking, ask
from .progress import Progress
from .question import Question


@dataclass
class Run:
    outcomes: list[Outcome] = field(default_factory=list)
    stopped: str | None = None  # the error code that stopped the run early


def run(
    questions: list[Question],
    endpoint: Endpoint,
    asking: Asking,
    progress: Progress | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Run:
    """Ask and grade every question; ``clock`` times each one (seconds)."""
    done = Run()
    for question in questions:
        started = clock()
        try:
            transcript = ask(endpoint, asking, question)
        except EndpointError as error:
            done.stopped = error.code
            break
        except KeyboardInterrupt:  # Ctrl-C: the questions graded so far are reported
            done.stopped = "interrupted"
            break
        outcome = grade(question, transcript, clock() - started)
        done.outcomes.append(outcome)
        if progress is not None:
            progress.advance(outcome)
    if progress is not None:
        progress.close()
    return done
