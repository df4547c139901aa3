"""What the LLM extractor costs on top of the model: tota's own work per message.

    .venv/bin/python -m bench.llm --messages 2000

A model's answer takes seconds; this measures everything else, so that it can be said to be
negligible rather than assumed. One synthetic stream (bench.observe's templates) is read
three ways, in one run:

* `rules`: the offline rule extractor over the stream in chunks (the baseline);
* `llm, client side`: the LLM extractor's own work on a reply, with no HTTP: building each
  request body (redaction, JSON) and reading a reply that states every user message back
  (schema checks, source and subject checks, grounding, date resolution, quotes);
* `llm, over HTTP`: the whole `extract` against a stand-in server on 127.0.0.1 that answers
  each chunk at once with the same reply (its JSON work and the loopback round trip included).

Reported: messages per second for each, and each LLM figure as a ratio of the rules' time.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from bench import _kit
from bench.observe import message_stream
from tota_vault.config import ExtractSettings
from tota_vault.extract.llm import LLMExtractor
from tota_vault.extract.rules import RuleExtractor


def echo_reply(body: dict[str, Any]) -> dict[str, Any]:
    """The chat completion a model would give if it stated each user message it was sent."""
    sent = json.loads(body["messages"][1]["content"].split("\n", 1)[1])
    items = [
        {"source": m["id"], "subject": "user", "type": "preference", "text": m["text"],
         "key": None, "evidence": "direct", "hedged": False, "temporary": False}
        for m in sent
        if m["role"] == "user"
    ]  # fmt: skip
    content = json.dumps({"memories": items})
    return {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}


class Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        payload = json.dumps(echo_reply(body)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def main(argv: list[str] | None = None) -> int:
    parser = _kit.parser(__doc__)
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--chunk", type=int, default=12, help="max_messages per request")
    args = parser.parse_args(argv)
    messages = message_stream(args.messages)
    chunks = [messages[i : i + args.chunk] for i in range(0, len(messages), args.chunk)]

    started = time.perf_counter()
    rules = RuleExtractor()
    for chunk in chunks:
        rules.extract(chunk, conversation_id="bench")
    rules_s = time.perf_counter() - started

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        settings = ExtractSettings(
            backend="llm", base_url=f"http://127.0.0.1:{server.server_address[1]}/v1",
            model="bench", max_messages=args.chunk,
        )  # fmt: skip
        extractor = LLMExtractor(settings)
        previous = {m.id: messages[i - 1] for i, m in enumerate(messages) if i > 0}
        replies = [
            json.loads(echo_reply(extractor.request_body(c))["choices"][0]["message"]["content"])
            for c in chunks
        ]
        started = time.perf_counter()
        found = 0
        for chunk, reply in zip(chunks, replies, strict=True):
            extractor.request_body(chunk, previous.get(chunk[0].id))
            candidates, _ = extractor._read(reply["memories"], chunk, previous)
            found += len(candidates)
        client_s = time.perf_counter() - started

        started = time.perf_counter()
        candidates, skipped = extractor.extract(messages, conversation_id="bench")
        http_s = time.perf_counter() - started
        assert not extractor.notes, extractor.notes  # no fallback: every chunk was the model's
    finally:
        server.shutdown()
        server.server_close()
        thread.join()

    result = {
        "messages": len(messages),
        "chunks": len(chunks),
        "candidates": {"client_side": found, "over_http": len(candidates)},
        "rules": {"seconds": round(rules_s, 3), "msg_per_s": round(len(messages) / rules_s)},
        "llm_client_side": {
            "seconds": round(client_s, 3),
            "msg_per_s": round(len(messages) / client_s),
            "ratio_to_rules": round(client_s / rules_s, 2),
        },
        "llm_over_http": {
            "seconds": round(http_s, 3),
            "msg_per_s": round(len(messages) / http_s),
            "ratio_to_rules": round(http_s / rules_s, 2),
            "ms_per_request": round(1000 * http_s / len(chunks), 2),
        },
    }
    _kit.write_result(args.out, "llm", result)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
