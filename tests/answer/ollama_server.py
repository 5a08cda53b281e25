"""A small Ollama-protocol server for tests, backed by the real llama.cpp model.

No registry ships the Ollama server, so the tests speak its HTTP protocol here:
`GET /api/tags`, `GET /api/version`, `POST /api/show` (details and model_info with
the parameter count), `POST /api/chat` (streaming NDJSON with `done_reason` /
`eval_count`, or one JSON object; `format` "json" or a JSON schema), and 404 for an
unknown model. `stall_s` makes a chat wait before its first chunk, like a server
processing a long prompt. It binds 127.0.0.1 only, on a free port.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from desktop_app.answer.llama_cpp_llm import LlamaCppLLM


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class OllamaProtocolServer:
    def __init__(self, llm: LlamaCppLLM, model: str = "smollm2:135m") -> None:
        self.llm = llm
        self.model = model
        self.lock = threading.Lock()  # one generation at a time, like a single loaded model
        self.chats: list[dict[str, Any]] = []  # request bodies received on /api/chat
        self.generated: list[int] = []  # tokens produced per chat, appended when a chat ends
        self.chat_finished = threading.Event()
        self.stall_s = 0.0  # wait this long before the first chunk (prompt processing)
        self.report_size = True  # False: /api/show without parameter figures
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> OllamaProtocolServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=10)

    def tags(self) -> dict[str, Any]:
        info = self.llm.info
        return {"models": [{
            "name": self.model, "model": self.model, "modified_at": _now(),
            "size": info.size_bytes, "digest": "sha256:" + "0" * 64,
            "details": {"format": "gguf", "family": info.architecture, "families": [info.architecture],
                        "parameter_size": "135M", "quantization_level": info.quantization},
        }]}

    def show(self) -> dict[str, Any]:
        info = self.llm.info
        details = {"format": "gguf", "family": info.architecture, "families": [info.architecture],
                   "parameter_size": "135M" if self.report_size else "",
                   "quantization_level": info.quantization}
        model_info = {"general.architecture": info.architecture}
        if self.report_size:
            model_info["general.parameter_count"] = info.parameter_count
        return {"modified_at": _now(), "template": info.chat_template or "", "details": details,
                "model_info": model_info, "capabilities": ["completion"]}

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"  # the connection closes after each response

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                pass

            def _json(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:  # noqa: N802
                if self.path == "/api/tags":
                    self._json(200, server.tags())
                elif self.path == "/api/version":
                    self._json(200, {"version": "0.0.0-acervo-test"})
                else:
                    self._json(404, {"error": "not found"})

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if self.path == "/api/show":
                    if body.get("model") != server.model:
                        self._json(404, {"error": f"model '{body.get('model')}' not found"})
                    else:
                        self._json(200, server.show())
                    return
                if self.path != "/api/chat":
                    self._json(404, {"error": "not found"})
                    return
                server.chats.append(body)
                if body.get("model") != server.model:
                    self._json(404, {"error": f"model '{body.get('model')}' not found, "
                                              "try pulling it first"})
                    return
                with server.lock:
                    try:
                        self._chat(body)
                    finally:
                        server.chat_finished.set()

            def _chat(self, body: dict[str, Any]) -> None:
                options = body.get("options") or {}
                kwargs: dict[str, Any] = {
                    "messages": body.get("messages") or [],
                    "temperature": float(options.get("temperature", 0.8)),
                    "max_tokens": int(options.get("num_predict", 128)),
                }
                fmt = body.get("format")
                if fmt == "json":
                    kwargs["response_format"] = {"type": "json_object"}
                elif isinstance(fmt, dict):
                    kwargs["response_format"] = {"type": "json_object", "schema": fmt}
                started = time.perf_counter_ns()
                time.sleep(server.stall_s)
                llama = server.llm.llama
                if not body.get("stream", True):
                    result = llama.create_chat_completion(**kwargs)
                    choice = result["choices"][0]
                    server.generated.append(result["usage"]["completion_tokens"])
                    self._json(200, self._final(choice["message"]["content"] or "",
                                                choice["finish_reason"],
                                                result["usage"]["completion_tokens"],
                                                result["usage"]["prompt_tokens"], started))
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/x-ndjson")
                self.end_headers()
                count, reason = 0, "stop"
                stream = llama.create_chat_completion(stream=True, **kwargs)
                try:
                    for chunk in stream:
                        choice = chunk["choices"][0]
                        piece = choice["delta"].get("content")
                        if choice.get("finish_reason"):
                            reason = choice["finish_reason"]
                        if not piece:
                            continue
                        count += 1
                        line = {"model": server.model, "created_at": _now(),
                                "message": {"role": "assistant", "content": piece}, "done": False}
                        self.wfile.write(json.dumps(line).encode() + b"\n")
                        self.wfile.flush()
                    self.wfile.write(json.dumps(self._final("", reason, count, 0, started)).encode()
                                     + b"\n")
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client went away (cancel): stop generating
                finally:
                    stream.close()
                    server.generated.append(count)

            def _final(self, content: str, reason: str, eval_count: int, prompt_count: int,
                       started: int) -> dict[str, Any]:
                elapsed = time.perf_counter_ns() - started
                return {"model": server.model, "created_at": _now(),
                        "message": {"role": "assistant", "content": content}, "done": True,
                        "done_reason": "length" if reason == "length" else "stop",
                        "total_duration": elapsed, "load_duration": 0,
                        "prompt_eval_count": prompt_count, "prompt_eval_duration": 0,
                        "eval_count": eval_count, "eval_duration": elapsed}

        return Handler
