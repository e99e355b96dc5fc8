"""What checking keys and reserving the chat's tokens cost a request, in process.

    python benchmarks/keys_and_budget.py [--runs 2000]

The app (memory storage, one client key) answers through Flask's test client: a scoring
request without a key, with the right key, and with a made-up key (counted by address;
after SCORING_WRONG_KEY_RATE_LIMIT of them the key is no longer compared), then a chat
with the right key against the tests' scripted model on 127.0.0.1 (tests/fake_openai.py),
which answers at once. Each figure is the median of ``--runs`` requests (chats: a tenth of
them) after a warm-up. Run it from the repository's root; with ``PYTHONPATH`` pointing at
another checkout it measures that one (docs/deployment.md, "Keys and limits").
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))

from scoring_api import create_app
from tests.fake_openai import FakeModel, reply

KEY = "benchmark-client-key-0123456789abcdef"
BODY = {"players": [{"name": "A", "cards": [{"color": "red", "value": 2}]}]}
QUESTION = {"messages": [{"role": "user", "content": "2人の初期ハチミツは？"}]}


def median_us(send, runs: int) -> float:
    for _ in range(min(50, runs)):
        send()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        send()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=2000, help="requests per figure (default 2000)")
    runs = parser.parse_args().runs
    model = FakeModel().start()
    model.play(reply("16と20です。"), forever=True)
    try:
        app = create_app(
            {
                "TESTING": True,
                "RATE_LIMIT": "100000000 per minute",
                "CHAT_RATE_LIMIT": "100000000 per minute",
                "CHAT_TOKEN_BUDGET": 100_000_000,
                "API_KEYS": KEY,
                "CHAT_OPEN": False,
                "OPENAI_BASE_URL": model.base_url,
                "OPENAI_API_KEY": "sk-benchmark",
                "OPENAI_MODEL": "fake-model",
            }
        )
        client = app.test_client()
        right = {"Authorization": f"Bearer {KEY}"}
        counter = iter(range(10**9))

        def score(headers):
            return lambda: client.post("/api/v1/apero/score", json=BODY, headers=headers)

        def made_up():
            client.post("/api/v1/apero/score", json=BODY, headers={"Authorization": f"Bearer made-up-{next(counter)}"})

        def ask():
            answer = client.post("/api/v1/chat", json=QUESTION, headers=right)
            assert answer.status_code == 200, answer.get_json()

        chats = max(1, runs // 10)
        chat = median_us(ask, chats)  # before the made-up keys, which lock the address out of the chat
        print(f"chat of one round (instant model), right key, median of {chats}: {chat / 1000:8.2f} ms")
        print(f"scoring request, median of {runs}:")
        print(f"  without a key     {median_us(score({}), runs):8.0f} us")
        print(f"  the right key     {median_us(score(right), runs):8.0f} us")
        print(f"  a made-up key     {median_us(made_up, runs):8.0f} us")
    finally:
        model.stop()


if __name__ == "__main__":
    main()
