"""How much a model reads of the tool list: its size per tool and in all, in characters and tokens.

    python benchmarks/tool_list_size.py                         # this tree
    python benchmarks/tool_list_size.py --root /tmp/before      # another tree
    python benchmarks/tool_list_size.py --before /tmp/before    # another tree, then this one, side by side
    python benchmarks/tool_list_size.py --keywords              # also: the characters of each JSON Schema keyword

Make the other tree with ``git worktree add /tmp/before <commit>`` (and ``git worktree
remove /tmp/before`` after). Each tree is measured in its own interpreter, with that tree's
``scoring_api`` first on the import path. Measures, in characters (``len`` of the text):

* **chat**: the ``tools`` array as the chat sends it with every model round,
  ``json.dumps(..., ensure_ascii=False, separators=(",", ":"))`` (scoring_api/assistant/
  model.py), per tool (each tool object alone) and in all. The test's limit
  (tests/assistant/test_tools.py) is on this figure.
* **mcp**: MCP's answer to ``tools/list`` as the server writes it: ``python -m
  scoring_api.mcp`` started from the tree, sent ``initialize`` and ``tools/list`` over
  stdio, and the answer's line measured (the JSON-RPC message: compact JSON without ASCII
  escapes, the tools with ``inputSchema`` and their annotations).
* **tokens**: OpenAI's ``o200k_base`` encoding of the chat figure, when a tokenizer that
  has it offline is installed: ``tiktoken`` with its encoding file already cached (it
  downloads the file on first use, so on a machine without the internet it usually has
  none), else ``bpe-openai`` (its encodings ship inside the wheel). Neither is a
  dependency of the project; without one the column says so. Also the service's own
  estimate (``scoring_api.assistant.budget.estimate_tokens``: three ASCII characters a
  token, one token for any other), which the chat reserves from a client's budget for
  the tools every round (it counts ``json.dumps`` with its default separators).

A model provider counts a tool list its own way (it may render it as text before the
model reads it), so the tokens are a guide: the figure to compare is the characters.
Figures: docs/chat-frontends.md, "The tool list".
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _tokenizer():
    """``(name, encode)`` of an offline o200k_base tokenizer, or ``(why not, None)``."""
    try:
        import tiktoken

        encoding = tiktoken.get_encoding("o200k_base")
        return "tiktoken o200k_base", encoding.encode
    except ImportError:
        missing = "tiktoken is not installed"
    except Exception as error:  # its encoding file is downloaded on first use
        missing = f"tiktoken has no o200k_base offline ({type(error).__name__})"
    try:
        import bpe_openai

        encoding = bpe_openai.get_encoding("o200k_base")
        return "bpe-openai o200k_base", encoding.encode
    except ImportError:
        return f"no offline tokenizer: {missing}, bpe-openai is not installed", None


def _keywords(tools: list[dict]) -> dict[str, int]:
    """Characters of each JSON Schema keyword in the parameters (``"key":value,``), and of
    the property names; ``properties``, ``items`` and ``anyOf`` count their own key only."""
    found: collections.Counter = collections.Counter()

    def walk(node: dict) -> None:
        for key, value in node.items():
            if key == "properties":
                found["properties"] += len('"properties":{},')
                for name, child in value.items():
                    found["(property names)"] += len(compact(name)) + 2
                    walk(child)
            elif key == "items" and isinstance(value, dict):
                found["items"] += len('"items":,')
                walk(value)
            elif key == "anyOf":
                found["anyOf"] += len('"anyOf":[],')
                for option in value:
                    walk(option)
            else:
                found[key] += len(compact({key: value})) - 1

    for tool in tools:
        walk(tool["function"]["parameters"])
    return dict(found.most_common())


MCP_HELLO = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
}


def mcp_tools_list(root: Path) -> str:
    """The line the MCP server of ``root`` answers ``tools/list`` with, over stdio (60 s at most)."""
    server = subprocess.Popen(
        [sys.executable, "-m", "scoring_api.mcp"],
        cwd=root,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        encoding="utf-8",
    )
    timer = threading.Timer(60, server.kill)
    timer.start()
    try:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(json.dumps(MCP_HELLO) + "\n")
        server.stdin.flush()
        server.stdout.readline()
        server.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
        server.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}) + "\n")
        server.stdin.flush()
        line = server.stdout.readline().rstrip("\n")
        server.stdin.close()
        server.wait()
    finally:
        timer.cancel()
        server.kill()
    if not line.startswith('{"jsonrpc":"2.0","id":2,"result":'):
        raise SystemExit(f"the MCP server of {root} answered tools/list with: {line[:200]!r}")
    return line


def measure() -> dict:
    """The figures of the ``scoring_api`` this interpreter imports."""
    import scoring_api
    from scoring_api.assistant.budget import estimate_tokens
    from scoring_api.tools import tool_definitions

    tools = tool_definitions()
    root = Path(scoring_api.__file__).resolve().parent.parent
    tokenizer, encode = _tokenizer()

    def tokens(text: str) -> int | None:
        return None if encode is None else len(encode(text))

    chat = compact(tools)
    return {
        "root": str(root),
        "tokenizer": tokenizer,
        "chat": len(chat),
        "chat_tokens": tokens(chat),
        "estimate": estimate_tokens(json.dumps(tools, ensure_ascii=False)),
        "mcp": len(mcp_tools_list(root)),
        "tools": {
            tool["function"]["name"]: {
                "chars": len(compact(tool)),
                "tokens": tokens(compact(tool)),
                "description": len(tool["function"]["description"]),
            }
            for tool in tools
        },
        "keywords": _keywords(tools),
    }


def measure_tree(root: Path) -> dict:
    """:func:`measure` in a fresh interpreter that imports ``root``'s ``scoring_api``."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
    }
    done = subprocess.run(
        [sys.executable, __file__, "--json"], env=env, cwd=root, capture_output=True, text=True, timeout=120
    )
    if done.returncode != 0:
        raise SystemExit(f"measuring {root} failed:\n{done.stderr}")
    figures = json.loads(done.stdout)
    if Path(figures["root"]) != root.resolve():
        raise SystemExit(f"{root} has no scoring_api of its own: measured {figures['root']}")
    return figures


def _cell(value) -> str:
    return "-" if value is None else f"{value:,}"


def report(runs: list[tuple[str, dict]], keywords: bool) -> None:
    names = list(dict.fromkeys(name for _, figures in runs for name in figures["tools"]))
    heads = [label for label, _ in runs]
    print("tokenizer:", runs[-1][1]["tokenizer"])
    print()
    header = f"{'tool':30}" + "".join(f"{h + ' chars':>16}{h + ' tokens':>16}" for h in heads)
    print(header)
    for name in names:
        row = f"{name:30}"
        for _, figures in runs:
            tool = figures["tools"].get(name, {})
            row += f"{_cell(tool.get('chars')):>16}{_cell(tool.get('tokens')):>16}"
        print(row)
    print()
    for key, label in [
        ("chat", "chat: compact JSON, characters"),
        ("chat_tokens", "chat: tokens"),
        ("estimate", "the service's token estimate"),
        ("mcp", "MCP's tools/list answer, characters"),
    ]:
        print(f"{label:40}" + "".join(f"{_cell(figures[key]):>16}" for _, figures in runs))
    if keywords:
        print()
        print("characters per keyword in the parameters")
        found = list(dict.fromkeys(k for _, figures in runs for k in figures["keywords"]))
        for key in found:
            print(f"{key:40}" + "".join(f"{_cell(figures['keywords'].get(key, 0)):>16}" for _, figures in runs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the tree to measure (default: this one)")
    parser.add_argument("--before", type=Path, help="another tree, measured first and shown beside --root")
    parser.add_argument("--keywords", action="store_true", help="also the characters of each keyword")
    parser.add_argument("--json", action="store_true", help="the figures of the imported tree as JSON")
    options = parser.parse_args()
    if options.json:
        print(json.dumps(measure()))
        return
    runs = [("before", measure_tree(options.before))] if options.before else []
    runs.append(("after" if options.before else "now", measure_tree(options.root)))
    report(runs, options.keywords)


if __name__ == "__main__":
    main()
