#!/usr/bin/env python3
"""A scripted LLM on 127.0.0.1 that speaks OpenAI Chat Completions and Anthropic Messages.

Used by greenlight's generate/refine tests (CLI, LSP transcripts, editor end-to-end tests): a
real HTTP server, answering by script instead of by model.

    scripted_model.py --script SCRIPT.json [--port 0] [--port-file F] [--log F]

It prints "PORT <n>" on stdout (and writes n to --port-file) once it listens. Every request is
appended to --log as one JSON line {"path", "body", "prompt"} so tests can check what the model
was told. The script is a JSON object {"rules": [RULE, ...], "default": RULE}; the first rule
whose "match" string occurs in the conversation (system + all messages) answers. A RULE is:

  "wrong": TEXT, "right": TEXT, "evidence": STR | [STR]
        answer "right" only when the LAST user message contains every evidence string (the
        failure greenlight fed back), else "wrong": wrong first, right on evidence.
  "replies": [TEXT, ...]      answer each in turn (the last one repeats), per rule
  "choices": [TEXT, ...]      a request with n > 1 gets choices[0..n-1]; single requests take
                              them in turn
  "text": TEXT                always this
  "huge": N                   a reply of N bytes of prose (no code)
  "delay_ms": N               pause between streamed pieces (a slow model)
  "piece": N                  characters per streamed piece (default 8)
  "stall": true               send the first piece, then nothing until the client goes away
  "hold_until": PATH          send the first piece, then wait until the file PATH exists (the test
                              creates it once it has acted while the reply was open), remove it
                              (the next reply waits for its own) and go on: a test that needs
                              "meanwhile" depends on no clock. Relative to the script's folder;
                              may use {env:NAME}
  "status": N, "error": MSG   answer with an HTTP error
TEXT may contain "{env:NAME}", replaced by that environment variable of this server (to check
that a candidate cannot read a key the server knows).
Replies stream in pieces of 8 characters (one SSE event each, so one "token" each) unless the
rule says "piece".
"""
import argparse
import json
import os
import select
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
STATE = {}


def load_script(path):
    with open(path, "r", encoding="utf-8") as f:
        return json.load(f)


def conversation_text(body):
    parts = []
    if isinstance(body.get("system"), str):
        parts.append(body["system"])
    for m in body.get("messages", []):
        c = m.get("content")
        if isinstance(c, str):
            parts.append(c)
        elif isinstance(c, list):
            parts.extend(b.get("text", "") for b in c if isinstance(b, dict))
    return "\n".join(parts)


def last_user(body):
    for m in reversed(body.get("messages", [])):
        if m.get("role") == "user":
            c = m.get("content")
            return c if isinstance(c, str) else json.dumps(c)
    return ""


def expand(text):
    out = text
    while "{env:" in out:
        start = out.index("{env:")
        end = out.index("}", start)
        out = out[:start] + os.environ.get(out[start + 5:end], "") + out[end + 1:]
    return out


def choose(script, body):
    text = conversation_text(body)
    rule_index, rule = None, script.get("default", {"text": "I cannot help with that."})
    for i, r in enumerate(script.get("rules", [])):
        if r.get("match", "") in text:
            rule_index, rule = i, r
            break
    n = int(body.get("n", 1) or 1)
    with LOCK:
        count = STATE.get(rule_index, 0)
        STATE[rule_index] = count + 1
    if "choices" in rule:
        ch = rule["choices"]
        if n > 1:
            return rule, [expand(ch[min(i, len(ch) - 1)]) for i in range(n)]
        return rule, [expand(ch[min(count, len(ch) - 1)])]
    if "replies" in rule:
        rs = rule["replies"]
        return rule, [expand(rs[min(count, len(rs) - 1)])]
    if "huge" in rule:
        piece = "This is prose, not code. "
        size = int(rule["huge"])
        return rule, [(piece * (size // len(piece) + 1))[:size]]
    if "wrong" in rule:
        ev = rule.get("evidence", [])
        ev = [ev] if isinstance(ev, str) else ev
        user = last_user(body)
        ok = bool(ev) and all(e in user for e in ev)
        return rule, [expand(rule["right"] if ok else rule["wrong"])]
    return rule, [expand(rule.get("text", ""))]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "scripted-model/1"

    def log_message(self, fmt, *args):  # quiet
        pass

    def send_json(self, status, obj):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path.rstrip("/").endswith("/models"):
            self.send_json(200, {"object": "list", "data": [{"id": "scripted", "object": "model"}]})
        else:
            self.send_json(404, {"error": {"message": "not found"}})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw)
        except ValueError:
            self.send_json(400, {"error": {"message": "bad json"}})
            return
        log = self.server.log_path
        if log:
            with LOCK, open(log, "a", encoding="utf-8") as f:
                f.write(json.dumps({"path": self.path, "body": body, "prompt": conversation_text(body),
                                    "headers": {k.lower(): v for k, v in self.headers.items()
                                                if k.lower() not in ("authorization", "x-api-key")}}) + "\n")
        rule, texts = choose(self.server.script, body)
        if "status" in rule:
            self.send_json(int(rule["status"]), {"error": {"message": rule.get("error", "scripted error"),
                                                           "type": "server_error"}})
            return
        anthropic = self.path.rstrip("/").endswith("/messages")
        if not body.get("stream"):
            self.whole(anthropic, texts, body)
        else:
            self.stream(anthropic, texts, rule)

    def whole(self, anthropic, texts, body):
        if anthropic:
            self.send_json(200, {"id": "msg_1", "type": "message", "role": "assistant", "model": "scripted",
                                 "content": [{"type": "text", "text": texts[0]}], "stop_reason": "end_turn",
                                 "usage": {"input_tokens": 10, "output_tokens": len(texts[0]) // 8 + 1}})
            return
        self.send_json(200, {"id": "c1", "object": "chat.completion", "model": "scripted",
                             "choices": [{"index": i, "message": {"role": "assistant", "content": t},
                                          "finish_reason": "stop"} for i, t in enumerate(texts)],
                             "usage": {"prompt_tokens": 10, "completion_tokens": sum(len(t) for t in texts) // 8 + 1}})

    def chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def event(self, obj, name=None):
        text = ("event: %s\n" % name if name else "") + "data: " + (obj if isinstance(obj, str) else json.dumps(obj)) + "\n\n"
        self.chunk(text.encode())

    def hold(self, released):
        """Keep the connection open until released() (True) or the client goes away (False)."""
        while not self.server.stopping:
            if released():
                return True
            ready, _, _ = select.select([self.connection], [], [], 0.05)
            if ready:
                try:
                    if self.connection.recv(1, socket.MSG_PEEK) == b"":
                        return False
                except OSError:
                    return False
        return False

    def stream(self, anthropic, texts, rule):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        delay = int(rule.get("delay_ms", 0)) / 1000.0
        try:
            if anthropic:
                self.event({"type": "message_start", "message": {"id": "msg_1", "model": "scripted",
                                                                  "usage": {"input_tokens": 10}}}, "message_start")
                self.event({"type": "content_block_start", "index": 0,
                            "content_block": {"type": "text", "text": ""}}, "content_block_start")
            size = max(1, int(rule.get("piece", 8)))
            pieces = [[t[i:i + size] for i in range(0, len(t), size)] or [""] for t in texts]
            longest = max(len(p) for p in pieces)
            for k in range(longest):
                for idx, p in enumerate(pieces):
                    if k >= len(p):
                        continue
                    if anthropic:
                        if idx == 0:
                            self.event({"type": "content_block_delta", "index": 0,
                                        "delta": {"type": "text_delta", "text": p[k]}}, "content_block_delta")
                    else:
                        self.event({"id": "c1", "object": "chat.completion.chunk", "model": "scripted",
                                    "choices": [{"index": idx, "delta": {"content": p[k]}, "finish_reason": None}]})
                if rule.get("stall") and k == 0:
                    self.hold(lambda: False)
                    return
                if rule.get("hold_until") and k == 0:
                    gate = os.path.join(self.server.script_dir, expand(rule["hold_until"]))
                    if not self.hold(lambda: os.path.exists(gate)):
                        return
                    try:
                        os.remove(gate)
                    except OSError:
                        pass
                if delay:
                    time.sleep(delay)
            total = sum(len(t) for t in texts) // 8 + 1
            if anthropic:
                self.event({"type": "content_block_stop", "index": 0}, "content_block_stop")
                self.event({"type": "message_delta", "delta": {"stop_reason": "end_turn"},
                            "usage": {"output_tokens": total}}, "message_delta")
                self.event({"type": "message_stop"}, "message_stop")
            else:
                for idx in range(len(texts)):
                    self.event({"id": "c1", "object": "chat.completion.chunk", "model": "scripted",
                                "choices": [{"index": idx, "delta": {}, "finish_reason": "stop"}]})
                self.event({"id": "c1", "object": "chat.completion.chunk", "model": "scripted", "choices": [],
                            "usage": {"prompt_tokens": 10, "completion_tokens": total}})
                self.event("[DONE]")
            self.chunk(b"")
        except (BrokenPipeError, ConnectionResetError):
            return


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--script", required=True)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--port-file")
    ap.add_argument("--log")
    args = ap.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.script = load_script(args.script)
    server.script_dir = os.path.dirname(os.path.abspath(args.script))
    server.log_path = args.log
    server.stopping = False
    port = server.server_address[1]
    if args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write(str(port))
        os.replace(tmp, args.port_file)
    print("PORT %d" % port, flush=True)
    try:
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass
    finally:
        server.stopping = True
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
