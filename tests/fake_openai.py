"""A scripted OpenAI-compatible model server on 127.0.0.1, for the chat tests.

It is a real HTTP server (threaded, stdlib) answering ``POST /v1/chat/completions`` the way
the OpenAI API does, so the service's real ``openai`` client talks to it over the network.
Each request takes the next step of the script:

* ``reply("text")``: an assistant message;
* ``calls(("tool", {args}), ...)``: assistant tool calls (arguments may be a raw string);
* ``status(500)``: an HTTP error;  ``sleep(s)``: answer nothing for ``s`` seconds;
* ``garbage()``: a 200 whose body is not JSON;
* ``raw(body)``: a 200 with exactly this body (``bytes``/``str`` as given, anything else
  through ``json.dumps``): malformed completions, never checked on this side;
* ``raw_message(message)``: a completion envelope around ``message``, whatever it is (a
  string, ``tool_calls`` that is a string, a call without ``function``...);
* ``hang()``: answer nothing until the next ``play()`` (or ``stop()``);
* any callable ``step(body) -> dict``: an assistant message built from the request.

A request with ``"stream": true`` gets the same steps as server-sent events, the way the
OpenAI API streams: the text a few characters a chunk, each tool call as an id-and-name
chunk then its arguments in two chunks, a usage chunk, then ``data: [DONE]``. Steps only
for streams:

* ``streamed("text", first_after=0, every=0)``: the text with a pause before the first
  chunk and between chunks (time-to-first-token measurements);
* ``stall_after("text")``: the first chunk of the text, then nothing until the next
  ``play()``;
* ``sse(b"data: ...\\n\\n...")``: exactly these bytes as the event stream.

``gated(gate, "text", tokens)`` answers like ``reply`` (streamed or not) once the test sets
the ``threading.Event`` ``gate`` (at most :data:`GATE_SECONDS`): with ``forever=True``,
requests held open together, as concurrent chats are.

A sleeping or hanging step wakes early when the next ``play()`` starts, so a test that
gave up on it leaves no thread behind for long.
``forever=True`` repeats the last step. ``requests`` and ``headers`` record what came in.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def reply(text, tokens=2):
    """The model answers ``text``, reporting ``tokens`` used (``usage.total_tokens``)."""
    return {"kind": "message", "message": {"role": "assistant", "content": text}, "tokens": tokens}


def calls(*pairs):
    tool_calls = [
        {
            "id": f"call_{i}",
            "type": "function",
            "function": {
                "name": name,
                "arguments": args if isinstance(args, str) else json.dumps(args, ensure_ascii=False),
            },
        }
        for i, (name, args) in enumerate(pairs)
    ]
    return {"kind": "message", "message": {"role": "assistant", "content": None, "tool_calls": tool_calls}}


def status(code):
    return {"kind": "status", "code": code}


def sleep(seconds):
    return {"kind": "sleep", "seconds": seconds}


def garbage():
    return {"kind": "garbage"}


def raw(body):
    if isinstance(body, str):
        body = body.encode()
    elif not isinstance(body, bytes):
        body = json.dumps(body, ensure_ascii=False).encode()
    return {"kind": "raw", "body": body}


def raw_message(message):
    return raw(_completion(message))


def hang():
    return {"kind": "sleep", "seconds": None}


def streamed(text, first_after=0.0, every=0.0, tokens=2):
    return {**reply(text, tokens), "first_after": first_after, "every": every}


def stall_after(text):
    return {**reply(text), "stall": True}


def sse(data: bytes):
    return {"kind": "sse", "body": data}


#: Longest a gated step waits for its gate.
GATE_SECONDS = 10


def gated(gate: threading.Event, text, tokens=2):
    return {**reply(text, tokens), "gate": gate}


#: Characters of text per streamed chunk.
CHUNK_CHARACTERS = 3


def stream_chunks(message: dict, tokens: int = 2) -> list[dict]:
    """A completion message as the chunks the OpenAI API streams it in."""

    def chunk(delta, finish=None):
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": "fake-model",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    chunks = [chunk({"role": "assistant", "content": ""})]
    text = message.get("content") or ""
    chunks += [chunk({"content": text[i : i + CHUNK_CHARACTERS]}) for i in range(0, len(text), CHUNK_CHARACTERS)]
    for index, call in enumerate(message.get("tool_calls") or []):
        function = call["function"]
        head = {
            "index": index,
            "id": call["id"],
            "type": "function",
            "function": {"name": function["name"], "arguments": ""},
        }
        chunks.append(chunk({"tool_calls": [head]}))
        half = len(function["arguments"]) // 2
        for part in (function["arguments"][:half], function["arguments"][half:]):
            chunks.append(chunk({"tool_calls": [{"index": index, "function": {"arguments": part}}]}))
    chunks.append(chunk({}, "tool_calls" if message.get("tool_calls") else "stop"))
    usage = {"prompt_tokens": tokens - 1, "completion_tokens": 1, "total_tokens": tokens}
    chunks.append({**chunk({}), "choices": [], "usage": usage})
    return chunks


class FakeModel:
    def __init__(self):
        self.script: list = []
        self.forever = False
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}/v1"

    def start(self) -> FakeModel:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._wake.set()
        self._server.shutdown()
        self._server.server_close()

    def play(self, *steps, forever=False) -> None:
        self._wake.set()  # steps still sleeping from an earlier test end now
        self._wake = threading.Event()
        self.script = list(steps)
        self.forever = forever
        self.requests.clear()
        self.headers.clear()

    def _next(self, body):
        with self._lock:
            if not self.script:
                return status(500)
            step = self.script[0] if (self.forever and len(self.script) == 1) else self.script.pop(0)
        return {"kind": "message", "message": step(body)} if callable(step) else step

    def _handler(self):
        model = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output quiet
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                model.requests.append(body)
                model.headers.append({k.lower(): v for k, v in self.headers.items()})
                if not self.path.endswith("/chat/completions"):
                    return self._send(404, {"error": {"message": "not found"}})
                step = model._next(body)
                if step.get("gate") is not None:
                    step["gate"].wait(GATE_SECONDS)
                if body.get("stream") and step["kind"] in ("message", "sse"):
                    return self._stream(step)
                if step["kind"] == "sleep":
                    model._wake.wait(step["seconds"])  # None: until the next play()
                    return self._send(200, _completion(reply("too late")["message"]))
                if step["kind"] == "raw":
                    return self._send_raw(200, step["body"], "application/json")
                if step["kind"] == "status":
                    return self._send(step["code"], {"error": {"message": "scripted failure", "type": "server_error"}})
                if step["kind"] == "garbage":
                    return self._send_raw(200, b"<html>not json</html>", "application/json")
                return self._send(200, _completion(step["message"], step.get("tokens", 2)))

            def _stream(self, step):
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.send_header("Connection", "close")
                    self.end_headers()
                    if step["kind"] == "sse":
                        self.wfile.write(step["body"])
                        return
                    wake = model._wake
                    chunks = stream_chunks(step["message"], step.get("tokens", 2))
                    wake.wait(step.get("first_after") or 0)
                    for number, chunk in enumerate(chunks):
                        if number > 1 and step.get("every"):
                            wake.wait(step["every"])
                        self.wfile.write(b"data: " + json.dumps(chunk, ensure_ascii=False).encode() + b"\n\n")
                        self.wfile.flush()
                        if step.get("stall") and number == 1:
                            wake.wait(None)
                            return
                    self.wfile.write(b"data: [DONE]\n\n")
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def _send(self, code, payload):
                self._send_raw(code, json.dumps(payload).encode(), "application/json")

            def _send_raw(self, code, data, content_type):
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", content_type)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout tests)

        return Handler


def _completion(message: dict, tokens: int = 2) -> dict:
    finish = "tool_calls" if isinstance(message, dict) and message.get("tool_calls") else "stop"
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": "fake-model",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": tokens - 1, "completion_tokens": 1, "total_tokens": tokens},
    }
