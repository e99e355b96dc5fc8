"""The command line: ``scoring-eval`` and ``python -m scoring_api.eval``
(docs/assistant-eval.md).

Every option is checked before anything is asked (a bad one exits with status 2 and a
message naming it). The model's key is read from the environment variable ``--key-env``
names (``OPENAI_API_KEY``), the service's from ``--service-key-env``
(``AI_CHAN_API_KEY``, optional: an open chat needs none); neither is ever printed or
written. Exit status: 0 when every question was asked, 1 when an error that every
question would meet stopped the run (its figures so far are still reported), 2 for a
bad option or question file.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

from .endpoint import Endpoint
from .modes import MODES, Asking
from .progress import Progress
from .question import GAMES, LANGS, MAX_QUESTIONS, QuestionFileError, read_questions, write_questions
from .questions import answer_of, generate
from .report import document, table
from .runner import run

DEFAULT_COUNT = 20
DEFAULT_SEED = 1


def _bounded(kind: type, low: float, high: float):
    def read(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} is not between {low:g} and {high:g}")
        return value

    return read


def _url(text: str) -> str:
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise argparse.ArgumentTypeError(f"{text!r} is not an http(s) URL")
    return text.rstrip("/")


def _games(text: str) -> tuple[str, ...]:
    names = tuple(dict.fromkeys(name.strip().replace("-", "_") for name in text.split(",")))
    unknown = [name for name in names if name not in GAMES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"unknown game {', '.join(unknown)!r}: choose from {', '.join(GAMES)}")
    return names


def _variable(text: str) -> str:
    if not text or not all(c.isalnum() or c == "_" for c in text) or len(text) > 100:
        raise argparse.ArgumentTypeError(f"{text!r} is not an environment variable's name")
    return text


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="scoring-eval",
        description="How often a model scores board games right: alone, with the service's tools, or as アイちゃん.",
    )
    p.add_argument("--mode", choices=MODES, help="model (alone), tools (with the tools, run in process) or ai-chan")
    p.add_argument("--base-url", type=_url, help="the OpenAI-compatible endpoint (default: OpenAI's)")
    p.add_argument("--model", help="the model's name (modes model and tools)")
    p.add_argument("--key-env", type=_variable, default="OPENAI_API_KEY", help="the variable holding the model's key")
    p.add_argument("--service-url", type=_url, help="a running service, for --mode ai-chan (http://127.0.0.1:8000)")
    p.add_argument(
        "--service-key-env", type=_variable, default="AI_CHAN_API_KEY", help="the variable holding the service's key"
    )
    p.add_argument(
        "--count", type=_bounded(int, 1, MAX_QUESTIONS), help=f"questions to generate (default {DEFAULT_COUNT})"
    )
    p.add_argument("--games", type=_games, help=f"games, comma-separated (default all: {','.join(GAMES)})")
    p.add_argument("--lang", choices=(*LANGS, "both"), help="the questions' language (default both)")
    p.add_argument("--seed", type=_bounded(int, 0, 2**63), help=f"the generator's seed (default {DEFAULT_SEED})")
    p.add_argument("--questions", type=Path, help="read the questions from this JSONL file instead")
    p.add_argument("--write-questions", type=Path, help="write the questions to this JSONL file")
    p.add_argument("--out", type=Path, help="write the report as JSON to this file")
    p.add_argument(
        "--max-rounds", type=_bounded(int, 1, 20), default=5, help="requests per question (tools; default 5)"
    )
    p.add_argument("--max-tokens", type=_bounded(int, 16, 32768), default=1024, help="max_tokens of each request")
    p.add_argument("--temperature", type=_bounded(float, 0, 2), help="sent with each request when given")
    p.add_argument("--timeout", type=_bounded(float, 1, 300), default=60.0, help="seconds per request (default 60)")
    p.add_argument("--retries", type=_bounded(int, 0, 5), default=2, help="retries of a failed request (default 2)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    p = parser()
    options = p.parse_args(argv)
    generating = [name for name in ("count", "games", "lang", "seed") if getattr(options, name) is not None]
    if options.questions is not None and generating:
        p.error(f"--{generating[0]} is for generating questions; --questions reads them as written")
    if options.mode is None and options.write_questions is None:
        p.error("give --mode to run the eval, or --write-questions to write the questions only")
    endpoint, model = _endpoint(p, options) if options.mode else (None, "")
    try:
        if options.questions is not None:
            questions = read_questions(options.questions, answer_of)
            source: dict = {"file": str(options.questions)}
        else:
            count, seed = options.count or DEFAULT_COUNT, DEFAULT_SEED if options.seed is None else options.seed
            games = options.games or GAMES
            langs = LANGS if options.lang in (None, "both") else (options.lang,)
            questions = generate(count, seed, games, langs)
            source = {"seed": seed, "count": count, "games": list(games), "langs": list(langs)}
        if options.write_questions is not None:
            write_questions(questions, options.write_questions)
    except (QuestionFileError, OSError) as error:
        print(f"scoring-eval: {error}", file=sys.stderr)
        return 2
    if endpoint is None:
        print(f"scoring-eval: wrote {len(questions)} questions to {options.write_questions}", file=sys.stderr)
        return 0
    asking = Asking(
        mode=options.mode,
        model=model,
        max_rounds=options.max_rounds,
        max_tokens=options.max_tokens,
        temperature=options.temperature,
    )
    about = {
        "mode": options.mode,
        "model": model,
        "endpoint": str(endpoint.client.base_url).rstrip("/"),  # --base-url, else OPENAI_BASE_URL, else OpenAI's
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "source": source,
        "bounds": {
            "max_rounds": options.max_rounds,
            "max_tokens": options.max_tokens,
            "timeout": options.timeout,
            "retries": options.retries,
        },
        "temperature": options.temperature,
    }
    progress = None if options.quiet else Progress(len(questions), sys.stderr)
    done = run(questions, endpoint, asking, progress)
    report = document(done.outcomes, about, done.stopped)
    print(table(report))
    if options.out is not None:
        try:
            options.out.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        except OSError as error:
            print(f"scoring-eval: {error}", file=sys.stderr)
            return 2
    if done.stopped is not None:
        print(
            f"scoring-eval: stopped after {len(done.outcomes)} questions: {_stop_reason(done.stopped, options)}",
            file=sys.stderr,
        )
        return 1
    return 0


def _endpoint(p: argparse.ArgumentParser, options: argparse.Namespace) -> tuple[Endpoint, str]:
    """The endpoint the mode asks, its key from the environment, and the model's name."""
    if options.mode == "ai-chan":
        if options.service_url is None:
            p.error("--mode ai-chan needs --service-url (the running service, e.g. http://127.0.0.1:8000)")
        key = os.environ.get(options.service_key_env) or None
        return Endpoint(options.service_url + "/v1", key, options.timeout, options.retries), "ai-chan"
    if not options.model:
        p.error(f"--mode {options.mode} needs --model (the model's name at the endpoint)")
    key = os.environ.get(options.key_env)
    if not key:
        p.error(f"the environment variable {options.key_env} holds no key (--key-env names another)")
    return Endpoint(options.base_url, key, options.timeout, options.retries), options.model


def _stop_reason(code: str, options: argparse.Namespace) -> str:
    variable = options.service_key_env if options.mode == "ai-chan" else options.key_env
    reasons = {
        "http_401": f"the endpoint refused the key (HTTP 401): check {variable}",
        "http_403": f"the endpoint refused the key's permission (HTTP 403): check {variable}",
        "http_404": "no such endpoint or model (HTTP 404): check the URL and --model",
        "interrupted": "interrupted",
    }
    return reasons.get(code, code)
