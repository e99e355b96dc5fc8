"""What one model round sends, and what is prepared once per worker.

The chat writes each round's body itself (the tools serialized once per worker) and sends
it with the ``openai`` client's ``post`` (scoring_api/assistant/model.py). These tests
capture the requests on the wire (an ``httpx2`` mock transport under a real ``openai``
client) and compare them with what the SDK's own ``chat.completions.create`` sends for the
same round, as the chat called it before: the same method, URL, headers and bytes, but for
one header. ``create`` (through ``with_streaming_response``) adds
``X-Stainless-Raw-Response: stream``, the SDK's private way to ask its client for the
response unread; the chat's ``post(..., stream=True)`` gets it unread without the header,
so the comparison leaves that one header out (and checks that it is the only difference).
That the body is then read only within the chat's bounds is checked in
tests/assistant/test_untrusted_model.py."""

import json

import httpx2
import openai
import pytest

from scoring_api.api import completions
from scoring_api.assistant import model
from scoring_api.assistant.deadline import Deadline
from scoring_api.assistant.failures import ChatFailure
from scoring_api.assistant.settings import ChatSettings
from scoring_api.tools import shared_tool_definitions, tool_definitions
from tests.fake_openai import _completion, calls, reply, stream_chunks

#: The header ``with_streaming_response.create`` adds and the chat's ``post`` does not.
RAW_RESPONSE = "x-stainless-raw-response"
SYSTEM = 'アイちゃんです。\n"引用" \\ 制御文字\x01\t タブ、改行\u2028、絵文字🍎'
TOOL_ROUND = [
    {"role": "system", "content": SYSTEM},
    {"role": "user", "content": "赤1、緑2、緑3なら何点？"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_0",
                "type": "function",
                "function": {"name": "score_apero", "arguments": '{"sets": 1, "players": [{"name": "アキ"}]}'},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "call_0", "content": '{"players": [{"name": "アキ", "total": 7}]}'},
]
CONVERSATIONS = {
    "first round": TOOL_ROUND[:2],
    "after a tool round": TOOL_ROUND,
    "english, a preamble before the calls": [
        {"role": "system", "content": "Answer in English."},
        {"role": "user", "content": "score?"},
        {**TOOL_ROUND[2], "content": "Let me add that up."},
        TOOL_ROUND[3],
    ],
}
SETTINGS = {
    "defaults": ChatSettings(None, "sk-test", "gpt-4o-mini", timeout=30.0, max_retries=0, max_rounds=5),
    "temperature and max_tokens asked": ChatSettings(
        None, "sk-test", "fake-model", timeout=12.5, max_retries=0, max_rounds=5, max_tokens=64, temperature=0.2
    ),
    "temperature 0": ChatSettings(None, "sk-test", "m", timeout=5.0, max_retries=0, max_rounds=5, temperature=0.0),
}


class Wire:
    """An ``openai`` client whose requests are recorded instead of sent: each is answered
    with a completion, or a stream when it asked for one."""

    def __init__(self) -> None:
        self.requests: list[httpx2.Request] = []
        transport = httpx2.MockTransport(self.answer)
        self.client = openai.OpenAI(
            api_key="sk-test",
            base_url="http://model.test/v1",
            max_retries=0,
            http_client=httpx2.Client(transport=transport),
        )

    def answer(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        message = {"role": "assistant", "content": "7点です。"}
        if json.loads(request.content).get("stream"):
            events = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in stream_chunks(message))
            return httpx2.Response(
                200, headers={"content-type": "text/event-stream"}, content=events + b"data: [DONE]\n\n"
            )
        return httpx2.Response(200, json=_completion(message))

    def sent(self) -> tuple[str, str, list[tuple[str, str]], bytes]:
        request = self.requests[-1]
        return request.method, str(request.url), list(request.headers.items()), request.content


def through_create(settings: ChatSettings, conversation: list, stream: bool) -> tuple:
    """The round as the SDK's ``create`` sends it: the chat's former call, tools in
    ``extra_body`` (given as ``tools``, the SDK would rebuild them)."""
    wire = Wire()
    options: dict = {
        "model": settings.model,
        "messages": conversation,
        "extra_body": {"tools": shared_tool_definitions()},
        "max_tokens": settings.max_tokens,
        "timeout": settings.timeout,
    }
    if settings.temperature is not None:
        options["temperature"] = settings.temperature
    if stream:
        options.update(stream=True, stream_options={"include_usage": True})
    with wire.client.chat.completions.with_streaming_response.create(**options) as response:
        response.read()
    return wire.sent()


def through_the_chat(settings: ChatSettings, conversation: list, stream: bool) -> tuple:
    """The round as the chat sends it now, and the message it read back."""
    wire = Wire()
    pieces = model.model_round(wire.client, settings, conversation, Deadline(300), stream)
    text = []
    while True:
        try:
            text.append(next(pieces))
        except StopIteration as done:
            message = done.value
            break
    assert message.content == "7点です。"
    assert "".join(text) == ("7点です。" if stream else "")
    return wire.sent()


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
@pytest.mark.parametrize("settings", SETTINGS.values(), ids=SETTINGS.keys())
@pytest.mark.parametrize("conversation", CONVERSATIONS.values(), ids=CONVERSATIONS.keys())
def test_a_round_sends_what_the_sdks_create_sends(settings, conversation, stream):
    method, url, headers, body = through_the_chat(settings, conversation, stream)
    created = through_create(settings, conversation, stream)
    # create's one extra header, with_streaming_response's (see the module's docstring)
    assert [h for h in created[2] if h[0] == RAW_RESPONSE] == [(RAW_RESPONSE, "stream")]
    assert (method, url, headers, body) == (*created[:2], [h for h in created[2] if h[0] != RAW_RESPONSE], created[3])
    # what that is, spelled out
    assert (method, url) == ("POST", "http://model.test/v1/chat/completions")
    assert all(name != RAW_RESPONSE for name, _ in headers)
    assert ("authorization", "Bearer sk-test") in headers
    assert ("content-type", "application/json") in headers
    assert ("x-stainless-read-timeout", str(settings.timeout)) in headers
    assert ("content-length", str(len(body))) in headers
    sent = json.loads(body)
    expected = {"model": settings.model}
    if stream:
        expected["stream"] = True
    expected |= {"messages": conversation, "max_tokens": settings.max_tokens}
    if stream:
        expected["stream_options"] = {"include_usage": True}
    if settings.temperature is not None:
        expected["temperature"] = settings.temperature
    expected["tools"] = tool_definitions()
    assert list(sent) == list(expected)
    assert sent == expected
    assert body.endswith(model._tools_part())
    if conversation[0]["content"] == SYSTEM:  # the control character escaped, the rest sent as UTF-8
        assert SYSTEM.encode() not in body
        assert 'アイちゃんです。\\n\\"引用\\" \\\\ 制御文字\\u0001\\t タブ、改行\u2028、絵文字🍎'.encode() in body


def test_the_tools_part_is_built_once_per_worker(chat_client, fake_model, monkeypatch):
    """Two chats, three model rounds: the tool definitions are read and serialized for the
    first round only (one bytes object, kept), and every round sends them."""
    built = []

    def counted() -> list[dict]:
        built.append(1)
        return shared_tool_definitions()

    monkeypatch.setattr(model, "shared_tool_definitions", counted)
    model._tools_part.cache_clear()  # as in a new worker
    fake_model.play(calls(("applejack_starting_honey", {"players": 2})), reply("16と20です。"))
    first = chat_client.post("/api/v1/chat", json={"messages": [{"role": "user", "content": "蜂蜜は？"}]})
    sent = list(fake_model.requests)
    part = model._tools_part()
    fake_model.play(reply("こんにちは！"))
    second = chat_client.post(
        "/v1/chat/completions", json={"model": "ai-chan", "messages": [{"role": "user", "content": "hi"}]}
    )
    sent += fake_model.requests
    assert first.status_code == second.status_code == 200
    assert len(sent) == 3
    assert all(request["tools"] == tool_definitions() for request in sent)
    assert built == [1]
    assert model._tools_part() is part
    # made by the first round; the other two rounds and the two looks here found it made
    assert (model._tools_part.cache_info().misses, model._tools_part.cache_info().hits) == (1, 4)


def test_the_answer_schemas_are_made_once_per_worker(monkeypatch):
    """The completion and chunk schemas are made when the module is imported, not per answer."""
    assert isinstance(completions._COMPLETION, completions.CompletionSchema)
    assert isinstance(completions._CHUNK, completions.ChunkSchema)
    made = []
    monkeypatch.setattr(completions.ChunkSchema, "__init__", lambda *a, **k: made.append(1))
    reply_ = completions._Reply("ai-chan")
    chunks = [
        reply_.chunk({"role": "assistant", "content": ""}),
        reply_.chunk({"content": "あ"}),
        reply_.chunk({}, "stop"),
    ]
    assert made == []
    assert json.loads(chunks[1].removeprefix("data: "))["choices"] == [
        {"index": 0, "delta": {"content": "あ"}, "finish_reason": None}
    ]


#: One piece of an endless answer, and how many pieces it stops at (64 MiB, 32 times the
#: bound), so that a client that read the whole body first would still end, and fail below.
PIECE = 64 * 1024
PIECES_AT_MOST = 1024


class Endless:
    """A model whose answer never ends: a 200 whose body is one JSON string (or one
    server-sent event) that is never closed, sent in :data:`PIECE`-byte pieces and counted
    as the client pulls them. ``tick`` runs before each piece (a clock to move)."""

    def __init__(self, stream: bool, tick=lambda: None) -> None:
        self.stream = stream
        self.tick = tick
        self.pulled = 0
        self.client = openai.OpenAI(
            api_key="sk-test",
            base_url="http://model.test/v1",
            max_retries=0,
            http_client=httpx2.Client(transport=httpx2.MockTransport(self.answer)),
        )

    def pieces(self):
        yield (
            b'data: {"choices": [{"delta": {"content": "' if self.stream else b'{"choices": [{"message": {"content": "'
        )
        while self.pulled < PIECES_AT_MOST:
            self.tick()
            self.pulled += 1
            yield b"x" * PIECE

    def answer(self, request: httpx2.Request) -> httpx2.Response:
        content_type = "text/event-stream" if self.stream else "application/json"
        return httpx2.Response(200, headers={"content-type": content_type}, content=self.pieces())


def run_round(endless: Endless, deadline: Deadline) -> ChatFailure:
    settings = ChatSettings(None, "sk-test", "m", timeout=30.0, max_retries=0, max_rounds=5)
    with pytest.raises(ChatFailure) as failed:
        for _ in model.model_round(endless.client, settings, TOOL_ROUND[:2], deadline, endless.stream):
            pass
    return failed.value


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_an_endless_answer_is_cut_at_the_size_bound(stream):
    """The client hands the response back unread: the chat reads it, and stops at the piece
    that takes it over MAX_RESPONSE_BYTES (2 MiB: the opening and 32 pieces), a 502. Read
    by the client first, all 1,024 pieces would have been pulled."""
    endless = Endless(stream)
    failure = run_round(endless, Deadline(300))
    assert (failure.status, failure.code) == (502, "model_bad_response")
    assert model.MAX_RESPONSE_BYTES // PIECE == 32
    assert endless.pulled == 32


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_an_endless_answer_is_cut_at_the_deadline(stream):
    """Each piece takes one second of the chat's clock: with 10 s left, the chat stops
    reading at the tenth piece, a 504 ``chat_deadline``, far below the size bound."""
    now = [0.0]

    def tick() -> None:
        now[0] += 1

    endless = Endless(stream, tick)
    failure = run_round(endless, Deadline(10, clock=lambda: now[0]))
    assert (failure.status, failure.code) == (504, "chat_deadline")
    assert endless.pulled == 10
