"""The figures of a run, per game and in all: as a table for the terminal and as JSON.

For a group of questions:

* ``correct_rate``: questions whose answer line gives the exact answer, of all;
* ``formatted_rate``: questions whose reply ends with a readable answer line, of all;
* ``tool_call_rate``: questions with at least one tool call, of all;
* ``arguments_exact_rate``: questions with a call that is the intended call, of the
  questions with a tool call (null when none called a tool);
* ``rounds`` and ``rounds_mean``: model requests (アイちゃん's own rounds in ``ai-chan``);
* ``tokens``: the usage the endpoint reported, summed (prompt, completion, total), and
  ``tokens_mean`` its total per question;
* ``latency``: seconds per question, mean, median and max;
* ``errors``: questions whose exchange failed (timeout, HTTP error, too many rounds...).

Rates are fractions rounded to 4 places.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable

from .grading import Outcome
from .question import GAMES


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def metrics(outcomes: list[Outcome]) -> dict:
    count = len(outcomes)
    called = sum(o.tool_called for o in outcomes)
    latencies = [o.latency for o in outcomes]
    tokens = {
        "prompt": sum(o.usage.prompt_tokens for o in outcomes),
        "completion": sum(o.usage.completion_tokens for o in outcomes),
        "total": sum(o.usage.total_tokens for o in outcomes),
    }
    rounds = sum(o.rounds for o in outcomes)
    return {
        "questions": count,
        "correct": sum(o.correct for o in outcomes),
        "correct_rate": _rate(sum(o.correct for o in outcomes), count),
        "formatted": sum(o.formatted for o in outcomes),
        "formatted_rate": _rate(sum(o.formatted for o in outcomes), count),
        "tool_called": called,
        "tool_call_rate": _rate(called, count),
        "arguments_exact": sum(o.arguments_exact for o in outcomes),
        "arguments_exact_rate": _rate(sum(o.arguments_exact for o in outcomes), called),
        "rounds": rounds,
        "rounds_mean": round(rounds / count, 4) if count else None,
        "tokens": tokens,
        "tokens_mean": round(tokens["total"] / count, 4) if count else None,
        "latency": {
            "mean": round(statistics.fmean(latencies), 4) if count else None,
            "median": round(statistics.median(latencies), 4) if count else None,
            "max": round(max(latencies), 4) if count else None,
        },
        "errors": sum(o.error is not None for o in outcomes),
    }


def _result(outcome: Outcome) -> dict:
    question = outcome.question
    return {
        "id": question.id,
        "game": question.game,
        "lang": question.lang,
        "operation": question.operation,
        "expected": question.answer,
        "answer": outcome.answer,
        "last_line": outcome.last_line,
        "correct": outcome.correct,
        "tool_calls": outcome.tool_calls,
        "arguments_exact": outcome.arguments_exact,
        "rounds": outcome.rounds,
        "tokens": {
            "prompt": outcome.usage.prompt_tokens,
            "completion": outcome.usage.completion_tokens,
            "total": outcome.usage.total_tokens,
        },
        "latency": round(outcome.latency, 4),
        "error": outcome.error,
    }


def by_game(outcomes: list[Outcome]) -> dict[str, dict]:
    """Each game's figures, for the games the run asked about."""
    return {
        game: metrics([o for o in outcomes if o.question.game == game])
        for game in GAMES
        if any(o.question.game == game for o in outcomes)
    }


def document(outcomes: list[Outcome], about: dict, stopped: str | None = None) -> dict:
    """The JSON report: what was run (``about``: mode, model, endpoint...), the figures in
    all and per game, and every question's result."""
    return {
        **about,
        "stopped": stopped,
        "overall": metrics(outcomes),
        "games": by_game(outcomes),
        "results": [_result(o) for o in outcomes],
    }


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} {100 * part / whole:.0f}%" if whole else "-"


def _row(name: str, m: dict) -> list[str]:
    latency = m["latency"]
    return [
        name,
        str(m["questions"]),
        _share(m["correct"], m["questions"]),
        _share(m["formatted"], m["questions"]),
        _share(m["tool_called"], m["questions"]),
        _share(m["arguments_exact"], m["tool_called"]),
        "-" if m["rounds_mean"] is None else f"{m['rounds_mean']:.2f}",
        "-" if m["tokens_mean"] is None else f"{m['tokens_mean']:.0f}",
        "-" if latency["mean"] is None else f"{latency['mean']:.2f} s",
        "-" if latency["max"] is None else f"{latency['max']:.2f} s",
        str(m["errors"]),
    ]


HEADINGS = [
    "game",
    "questions",
    "right",
    "answer line",
    "tool called",
    "args exact",
    "rounds/q",
    "tokens/q",
    "latency",
    "max",
    "errors",
]


def table(report: dict) -> str:
    """The figures as a plain-text table: a row per game, then all."""
    rows = [_row(game, m) for game, m in report["games"].items()] + [_row("all", report["overall"])]
    return _layout([HEADINGS, *rows])


def _layout(rows: Iterable[list[str]]) -> str:
    rows = list(rows)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in rows
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(line.rstrip() for line in lines)
