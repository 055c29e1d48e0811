#!/usr/bin/env python3
"""A scripted stand-in for `greenlight lsp`, implementing the editor-facing contract of
DESIGN.md ("LSP surface") just far enough to test the editor plugins on their own: what they
send (logged as JSON lines to $GREENLIGHT_FAKE_LOG) and how they react to what the server
sends (progress, configuration pulls, diagnostics). It is not a model of the real server's
behaviour beyond that contract; the real server is tested by the same plugin tests too.
"""
import json
import os
import re
import sys

LOG = os.environ.get("GREENLIGHT_FAKE_LOG")
COMMANDS = ["greenlight.runTests", "greenlight.generate", "greenlight.fix", "greenlight.cancel"]
KINDS = ["source.greenlight.runTests", "refactor.rewrite.greenlight", "quickfix"]


def log(direction, message):
    if LOG:
        with open(LOG, "a", encoding="utf-8") as f:
            f.write(json.dumps({"dir": direction, "msg": message}) + "\n")


def read_message(stream):
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.lower() == "content-length":
            length = int(value.strip())
    if length is None:
        raise ValueError("header without Content-Length")
    return json.loads(stream.read(length).decode("utf-8"))


def send(message):
    log("out", message)
    body = json.dumps(message).encode("utf-8")
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    sys.stdout.buffer.flush()


class Server:
    def __init__(self):
        self.docs = {}
        self.versions = {}
        self.shutdown = False
        self.next_id = 0
        self.pending = {}  # our request id -> callback(result)
        self.running = {}  # progress token -> (request id, slow)
        self.encoding = "utf-16"

    def request(self, method, params, callback):
        self.next_id += 1
        rid = "fake-%d" % self.next_id
        self.pending[rid] = callback
        send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})

    def reply(self, rid, result=None, error=None):
        message = {"jsonrpc": "2.0", "id": rid}
        if error:
            message["error"] = error
        else:
            message["result"] = result
        send(message)

    def pull_configuration(self):
        self.request("workspace/configuration", {"items": [{"section": "greenlight"}]}, lambda result: None)

    def apply_change(self, uri, change):
        if "range" not in change:
            self.docs[uri] = change["text"]
            return
        lines = self.docs[uri].split("\n")
        start, end = change["range"]["start"], change["range"]["end"]

        def offset(pos):
            return sum(len(l) + 1 for l in lines[: pos["line"]]) + pos["character"]

        text = self.docs[uri]
        self.docs[uri] = text[: offset(start)] + change["text"] + text[offset(end):]

    def actions(self, uri, rng, only):
        lines = self.docs.get(uri, "").split("\n")
        line = rng["start"]["line"]
        out = []
        for i in range(min(line, len(lines) - 1), -1, -1):
            if re.match(r"\s*(def|function|int|void|auto)\b", lines[i]):
                position = rng["start"]
                out.append({"title": "Run nearby tests in sandbox", "kind": "source.greenlight.runTests",
                            "data": {"uri": uri, "position": position}})
                break
        if 0 <= line < len(lines) and re.match(r"\s*(#|//)", lines[line]):
            out.append({"title": "Generate from comment", "kind": "refactor.rewrite.greenlight",
                        "data": {"uri": uri, "line": line}})
        if only:
            out = [a for a in out if any(a["kind"] == k or a["kind"].startswith(k + ".") for k in only)]
        return out

    def resolve(self, action):
        resolved = dict(action)
        if action["kind"] == "source.greenlight.runTests":
            resolved["command"] = {"title": action["title"], "command": "greenlight.runTests",
                                   "arguments": [action["data"]]}
        else:
            resolved["command"] = {"title": action["title"], "command": "greenlight.generate",
                                   "arguments": [action["data"]]}
        return resolved

    def run_tests(self, rid, args):
        uri = args[0]["uri"] if args else None
        token = "run-%s" % rid
        lines = self.docs.get(uri, "").split("\n")
        line = args[0].get("position", {}).get("line", 0) if args else 0
        slow = 0 <= line < len(lines) and "slow" in lines[line]

        def created(_result):
            send({"jsonrpc": "2.0", "method": "$/progress", "params": {"token": token, "value": {
                "kind": "begin", "title": "Running tests", "cancellable": True, "percentage": 0}}})
            send({"jsonrpc": "2.0", "method": "$/progress", "params": {"token": token, "value": {
                "kind": "report", "message": "test_add", "percentage": 50}}})
            if slow:
                self.running[token] = rid
                return
            self.finish(token, rid, "1 passed, 0 failed")

        self.request("window/workDoneProgress/create", {"token": token}, created)

    def generate(self, rid, args):
        # Replaces the body line after the commented function's `def` line, as one versioned
        # documentChanges edit (the shape DESIGN.md promises), then answers the command.
        uri, line = args.get("uri"), args.get("line", 0)
        edit = {"documentChanges": [{
            "textDocument": {"uri": uri, "version": self.versions.get(uri)},
            "edits": [{"range": {"start": {"line": line + 2, "character": 0},
                                 "end": {"line": line + 3, "character": 0}},
                       "newText": "    return a * b\n"}]}]}

        def applied(_result):
            self.reply(rid, None)

        self.request("workspace/applyEdit", {"label": "greenlight: generate", "edit": edit}, applied)

    def finish(self, token, rid, message):
        send({"jsonrpc": "2.0", "method": "$/progress", "params": {"token": token, "value": {
            "kind": "end", "message": message}}})
        if message == "cancelled":
            self.reply(rid, error={"code": -32800, "message": "cancelled"})
        else:
            self.reply(rid, None)

    def handle(self, msg):
        method = msg.get("method")
        rid = msg.get("id")
        params = msg.get("params") or {}
        if method is None:
            callback = self.pending.pop(rid, None)
            if callback:
                callback(msg.get("result"))
            return
        if method == "initialize":
            offered = ((params.get("capabilities") or {}).get("general") or {}).get("positionEncodings") or []
            self.encoding = "utf-8" if "utf-8" in offered else "utf-16"
            self.reply(rid, {"capabilities": {
                "positionEncoding": self.encoding,
                "textDocumentSync": {"openClose": True, "change": 2, "save": {"includeText": False}},
                "codeActionProvider": {"codeActionKinds": KINDS, "resolveProvider": True},
                "executeCommandProvider": {"commands": COMMANDS}},
                "serverInfo": {"name": "greenlight-fake", "version": "0"}})
        elif method == "initialized":
            self.pull_configuration()
        elif method == "workspace/didChangeConfiguration":
            self.pull_configuration()
        elif method == "textDocument/didOpen":
            doc = params["textDocument"]
            self.docs[doc["uri"]] = doc["text"]
            self.versions[doc["uri"]] = doc.get("version")
        elif method == "textDocument/didChange":
            for change in params["contentChanges"]:
                self.apply_change(params["textDocument"]["uri"], change)
            self.versions[params["textDocument"]["uri"]] = params["textDocument"].get("version")
        elif method == "textDocument/codeAction":
            only = (params.get("context") or {}).get("only")
            self.reply(rid, self.actions(params["textDocument"]["uri"], params["range"], only))
        elif method == "codeAction/resolve":
            self.reply(rid, self.resolve(params))
        elif method == "workspace/executeCommand":
            command = params.get("command")
            if command == "greenlight.runTests":
                self.run_tests(rid, params.get("arguments") or [])
            elif command == "greenlight.cancel":
                for token, running in list(self.running.items()):
                    del self.running[token]
                    self.finish(token, running, "cancelled")
                self.reply(rid, None)
            elif command == "greenlight.generate":
                self.generate(rid, (params.get("arguments") or [{}])[0])
            elif command in COMMANDS:
                self.reply(rid, None)
            else:
                self.reply(rid, error={"code": -32602, "message": "unknown command %s" % command})
        elif method == "window/workDoneProgress/cancel":
            running = self.running.pop(params.get("token"), None)
            if running is not None:
                self.finish(params["token"], running, "cancelled")
        elif method == "$/cancelRequest":
            pass
        elif method == "shutdown":
            self.shutdown = True
            self.reply(rid, None)
        elif method == "exit":
            sys.exit(0 if self.shutdown else 1)
        elif rid is not None:
            self.reply(rid, error={"code": -32601, "message": "method not found: %s" % method})


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--version":
        print("greenlight-fake 0")
        return 0
    if len(sys.argv) < 2 or sys.argv[1] not in ("lsp", "--stdio"):
        print("usage: greenlight lsp", file=sys.stderr)
        return 2
    server = Server()
    while True:
        msg = read_message(sys.stdin.buffer)
        if msg is None:
            return 1
        log("in", msg)
        server.handle(msg)


if __name__ == "__main__":
    sys.exit(main())
