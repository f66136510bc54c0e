"""Streams as clients nobody here wrote see them: the official `openai` and `anthropic` Python SDKs
parse every language-model envelope stubd writes (streamed and not: text, tool-call arguments,
usage), and each fault inside a stream is reported by curl, Python requests and httpx, the two
SDKs and Node's fetch — printed as a table (docs/STREAMS.md) and checked: a fault that cuts the
stream (reset, close, a stall past the client's timeout, a malformed event) must surface as an
error in every client; an `end` without `[DONE]` is what each client makes of it.

With `--http2`, the fault table again over HTTP/2 in clear (h2c) with the clients that speak it
there — curl `--http2-prior-knowledge`, httpx and the SDKs with `http1=False, http2=True`, Node's
`http2` module, Java's HttpClient (h2c by `Upgrade`), OkHttp with `H2_PRIOR_KNOWLEDGE` — and the
journal checked: every stream came as h2.

Usage: python3 Tests/streams/clients_test.py [STUBD_BINARY] [--clients a,b,…] [--http2]
  make test:        curl, requests, httpx, node, openai, anthropic (the default)
  make test-ui:     chromium-eventsource, chromium-fetch (headless Chromium over DevTools)
  make conformance: every client, Java 17's HttpClient and OkHttp 3 among them; then --http2
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
H2 = "--http2" in sys.argv[1:]
# Over h2c: the clients that speak it (requests and Chromium do not; Chromium's h2 is TLS only).
H2_CLIENTS = ["curl", "httpx", "node", "openai", "openai-responses", "anthropic", "java", "okhttp"]
STUBD = os.path.abspath(ARGS[0] if ARGS else ".build/debug/stubd")
DEFAULT = ["curl", "requests", "httpx", "node", "openai", "openai-responses", "anthropic"]
EVERY = DEFAULT + ["litellm", "java", "okhttp", "chromium-eventsource", "chromium-fetch"]
CHOSEN = next((a.split("=", 1)[1].split(",") for a in sys.argv[1:] if a.startswith("--clients=")), DEFAULT)
if "all" in CHOSEN:
    CHOSEN = EVERY
if H2:
    CHOSEN = [name for name in CHOSEN if name in H2_CLIENTS]
    os.environ["STUBD_HTTP2"] = "1"  # the JVM clients' switch
HERE = os.path.dirname(os.path.abspath(__file__))
OKHTTP = "/usr/share/java/okhttp.jar:/usr/share/java/okio.jar"
FAULTS = ["none", "reset", "close", "stall", "malformed", "end"]
TOOL = {"name": "get_weather", "arguments": {"city": "Paris", "days": 3, "note": "ünïcode"}}


sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
import stubd_server  # noqa: E402


def Stubd(folder):
    """`stubd serve --quiet` of the binary under test (Tests/python/stubd_server.py)."""
    return stubd_server.Stubd(STUBD, folder, "--quiet")


def fault_of(name, after):
    if name == "none":
        return {}
    fault = {"kind": name, "after": after}
    if name == "stall":
        fault["seconds"] = 5
    return {"fault": fault}


def fixtures(folder):
    routes = []
    for name in FAULTS:
        events = [{"data": {"n": n, "text": "héllo"}} for n in range(1, 5)] + [{"data": "[DONE]"}]
        routes.append({"request": {"method": "GET", "path": f"/sse/{name}"},
                       "stream": {"events": events, "pacing": {"between": 0.02}, **fault_of(name, 2)}})
        for provider, path in [("openai-chat", "/v1/chat/completions"), ("openai-responses", "/v1/responses"), ("anthropic", "/v1/messages")]:
            routes.append({"request": {"method": "POST", "path": f"/{name}{path}"},
                           "llm": {"provider": provider, "text": "Hello, wörld! Stubs stream.", "toolCalls": [TOOL],
                                   "tokensPerSecond": 500, **fault_of(name, 4)}})
    # Events with ids, reset after the second: a reconnecting client goes on after its last id
    # (`anyOtherQuery`: a polyfill's `?lastEventId=` is not a parameter the route names).
    routes.append({"request": {"method": "GET", "path": "/resume", "anyOtherQuery": True},
                   "stream": {"events": [{"id": str(n), "data": f"event {n}", "retry": 100} for n in range(1, 5)],
                              "pacing": {"between": 0.02}, "fault": {"kind": "reset", "after": 2}}})
    routes.append({"request": {"method": "GET", "path": "/page.html"},
                   "response": {"headers": {"Content-Type": "text/html"}, "text": "<!doctype html><title>streams</title>"}})
    with open(os.path.join(folder, "streams.json"), "w") as file:
        json.dump({"routes": routes}, file)


def outcome(run):
    """'ok: …' or 'error: Type: message' for one client run."""
    try:
        return "ok: " + run()
    except Exception as error:  # noqa: BLE001 — every client's own error is the measurement
        message = str(error).split("\n")[0][:90]
        return f"error: {type(error).__name__}: {message}"


def sse_events(lines):
    return [line for line in lines if line.startswith("data:")]


def curl(url):
    result = subprocess.run(["curl", "-sSN", "--max-time", "2", *(["--http2-prior-knowledge"] if H2 else []), url], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"exit {result.returncode}: {result.stderr.strip()}")
    return f"{len(sse_events(result.stdout.splitlines()))} events"


def requests_lines(url):
    import requests
    with requests.get(url, stream=True, timeout=2) as response:
        return f"{len(sse_events(line.decode() for line in response.iter_lines()))} events"


def httpx_lines(url):
    import httpx
    with httpx.Client(timeout=2, http1=not H2, http2=H2) as client, client.stream("GET", url) as response:
        return f"{len(sse_events(response.iter_lines()))} events"


def sdk_http(sdk):
    """The HTTP client an SDK is given: over h2c its own HTTP package's (httpx, or httpx2 since
    2026) with HTTP/2 only; None (the SDK's default) otherwise."""
    if not H2:
        return None
    import importlib
    base_client = importlib.import_module(sdk.__name__ + "._base_client")
    package = vars(base_client).get("httpx2") or vars(base_client)["httpx"]
    return package.Client(http1=False, http2=True, timeout=2)


NODE = r"""
const url = process.argv[1];
const controller = new AbortController();
setTimeout(() => controller.abort(), 2000);
(async () => {
  const response = await fetch(url, {signal: controller.signal});
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) { const {done, value} = await reader.read(); if (done) break; text += decoder.decode(value, {stream: true}); }
  console.log('ok: ' + text.split('\n').filter(l => l.startsWith('data:')).length + ' events');
})().catch(e => { console.log('error: ' + e.name + ': ' + (e.cause ? e.cause.code || e.cause.message : e.message)); });
"""


NODE_H2 = r"""
const http2 = require('http2');
const url = new URL(process.argv[1]);
const session = http2.connect(url.origin);
session.on('error', () => {});
const stream = session.request({':path': url.pathname});
let text = '', done = false;
const finish = (line) => { if (!done) { done = true; console.log(line); session.destroy(); } };
setTimeout(() => { stream.close(http2.constants.NGHTTP2_CANCEL); finish('error: AbortError: timeout after 2 s'); }, 2000).unref();
stream.setEncoding('utf8');
stream.on('data', (chunk) => { text += chunk; });
stream.on('end', () => finish('ok: ' + text.split('\n').filter(l => l.startsWith('data:')).length + ' events'));
stream.on('error', (e) => finish('error: ' + e.code + ': rstCode ' + stream.rstCode));
"""


def node(url):
    result = subprocess.run(["node", "-e", NODE_H2 if H2 else NODE, url], capture_output=True, text=True, timeout=20)
    line = (result.stdout.strip() or result.stderr.strip()).splitlines()[-1]
    if line.startswith("ok: "):
        return line[4:]
    raise RuntimeError(line.removeprefix("error: "))


def jvm(program, classpath, urls):
    """One JVM for every URL (a JVM starts in about a second): its line per URL."""
    command = ["java"] + (["-cp", classpath] if classpath else []) + [os.path.join(HERE, program)] + urls
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    lines = result.stdout.strip().splitlines()
    if len(lines) != len(urls):
        raise RuntimeError(f"{program}: {result.stderr.strip()[:300]}")
    return lines


class JVMClient:
    """A JVM client's answers for every fault, asked once."""

    def __init__(self, program, classpath, base):
        self.lines = dict(zip(FAULTS, jvm(program, classpath, [f"{base}/sse/{fault}" for fault in FAULTS])))

    def __call__(self, fault):
        line = self.lines[fault]
        if line.startswith("ok: "):
            return line[4:]
        raise RuntimeError(line.removeprefix("error: "))


class ChromiumClient:
    """A page of stubd's own origin in headless Chromium reading the stream with `EventSource`
    (which reconnects after every ending: its first `onerror` is what a page sees) or `fetch`."""

    def __init__(self, base, kind):
        sys.path.insert(0, os.path.join(os.path.dirname(HERE), "ui"))
        import cdp  # noqa: E402 — Tests/ui's DevTools driver
        self.browser = cdp.Browser()
        self.browser.open(f"{base}/page.html")
        self.kind = kind
        self.base = base

    def __call__(self, fault):
        url = json.dumps(f"{self.base}/sse/{fault}")
        if self.kind == "eventsource":
            script = """new Promise(resolve => {
                const source = new EventSource(%s); let n = 0;
                source.onmessage = () => n++;
                // Every ending is an onerror; readyState 0 means the browser will reconnect.
                source.onerror = () => { resolve((source.readyState === 0 ? 'ok: ' + n + ' events, then onerror and a reconnect'
                                                                          : 'error: closed after ' + n + ' events')); source.close(); };
                setTimeout(() => { resolve('no ending after ' + n + ' events'); source.close(); }, 2500);
            })""" % url
        else:
            script = """(async () => {
                const controller = new AbortController(); setTimeout(() => controller.abort(), 2000);
                try {
                    const reader = (await fetch(%s, {signal: controller.signal})).body.getReader(); let text = '';
                    for (;;) { const {done, value} = await reader.read(); if (done) break; text += new TextDecoder().decode(value); }
                    return 'ok: ' + text.split('\\n').filter(l => l.startsWith('data:')).length + ' events';
                } catch (e) { return 'error: ' + e.name + ': ' + e.message; }
            })()""" % url
        result = self.browser.evaluate(script)
        if result.startswith("ok: "):
            return result[4:]
        raise RuntimeError(result.removeprefix("error: "))

    def close(self):
        self.browser.close()


def openai_chat(base):
    import openai
    client = openai.OpenAI(base_url=base + "/v1", api_key="sk-stubd", timeout=2, max_retries=0, http_client=sdk_http(openai))
    text, arguments, usage = "", "", None
    for chunk in client.chat.completions.create(model="gpt-test", messages=[{"role": "user", "content": "hi"}], stream=True,
                                                stream_options={"include_usage": True}):
        if chunk.usage:
            usage = chunk.usage
        for choice in chunk.choices:
            text += choice.delta.content or ""
            for call in choice.delta.tool_calls or []:
                arguments += call.function.arguments or ""
    return f"{text!r} args={arguments} usage={usage.total_tokens if usage else None}"


def anthropic_stream(base):
    import anthropic
    client = anthropic.Anthropic(base_url=base, api_key="stubd", timeout=2, max_retries=0, http_client=sdk_http(anthropic))
    with client.messages.stream(model="claude-test", max_tokens=100, messages=[{"role": "user", "content": "hi"}]) as stream:
        message = stream.get_final_message()
    # A stream that ended early has no tool call: the SDK's own answer, not this harness, decides.
    tool = next((block for block in message.content if block.type == "tool_use"), None)
    arguments = json.dumps(tool.input, separators=(',', ':'), ensure_ascii=False) if tool else None
    return f"{message.content[0].text!r} args={arguments} usage={message.usage.output_tokens}"


def openai_responses(base):
    import openai
    client = openai.OpenAI(base_url=base + "/v1", api_key="sk-stubd", timeout=2, max_retries=0, http_client=sdk_http(openai))
    with client.responses.stream(model="gpt-test", input="hi") as stream:
        for _ in stream:
            pass
        response = stream.get_final_response()
    call = next((item for item in response.output if item.type == "function_call"), None)
    return f"{response.output_text!r} args={call.arguments if call else None} usage={response.usage.total_tokens}"


def litellm_chat(base):
    """litellm (installed by hand: heavy, and not in `make`) streaming an OpenAI chat answer."""
    try:
        import litellm
    except ImportError:
        raise RuntimeError("litellm is not installed (pip install litellm)") from None
    litellm.suppress_debug_info = True
    text = ""
    for chunk in litellm.completion(model="openai/gpt-test", api_base=base + "/v1", api_key="sk-stubd", timeout=2, max_retries=0,
                                    messages=[{"role": "user", "content": "hi"}], stream=True):
        for choice in chunk.choices:
            text += choice.delta.content or ""
    return repr(text)


def main():
    folder = tempfile.mkdtemp(prefix="stubd-streams-")
    fixtures(folder)
    server = Stubd(folder)
    failures = []
    try:
        if "openai" in CHOSEN and "anthropic" in CHOSEN and not H2:
            # 1. Every envelope, streamed and whole, as the SDKs read it.
            import anthropic
            import openai
            expected_args = json.dumps(TOOL["arguments"], separators=(",", ":"), ensure_ascii=False)
            base = server.base + "/none"
            for name, run in [("openai chat stream", lambda: openai_chat(base)), ("anthropic stream", lambda: anthropic_stream(base)),
                              ("openai responses stream", lambda: openai_responses(base))]:
                result = outcome(run)
                good = result.startswith("ok: 'Hello, wörld! Stubs stream.'") and f"args={expected_args}" in result and "usage=None" not in result
                print(f"{'ok  ' if good else 'FAIL'} {name}: {result}")
                if not good:
                    failures.append(name)
            chat = openai.OpenAI(base_url=base + "/v1", api_key="sk", max_retries=0).chat.completions.create(
                model="gpt-test", messages=[{"role": "user", "content": "hi"}])
            message = anthropic.Anthropic(base_url=base, api_key="x", max_retries=0).messages.create(
                model="claude-test", max_tokens=10, messages=[{"role": "user", "content": "hi"}])
            response = openai.OpenAI(base_url=base + "/v1", api_key="sk", max_retries=0).responses.create(model="gpt-test", input="hi")
            whole = [chat.choices[0].message.content, message.content[0].text, response.output_text]
            good = whole == ["Hello, wörld! Stubs stream."] * 3 and json.loads(chat.choices[0].message.tool_calls[0].function.arguments) == TOOL["arguments"]
            print(f"{'ok  ' if good else 'FAIL'} non-streaming JSON (chat, messages, responses): {whole}")
            if not good:
                failures.append("non-streaming JSON")

        # 2. A stream resumes after the last event id a client read (header or query), its
        #    earlier fault left behind; Chromium's EventSource reconnects by itself.
        resumed = {} if H2 else {how: subprocess.run(["curl", "-sS", "--max-time", "2", *args], capture_output=True, text=True).stdout
                   for how, args in [("header", ["-H", "Last-Event-ID: 2", server.base + "/resume"]),
                                     ("query", [server.base + "/resume?lastEventId=2"]),
                                     ("unknown id", ["-H", "Last-Event-ID: 9", server.base + "/resume"])]}
        for how, expected in [] if H2 else [("header", ["event 3", "event 4"]), ("query", ["event 3", "event 4"]), ("unknown id", ["event 1", "event 2"])]:
            data = [line[len("data: "):] for line in resumed[how].splitlines() if line.startswith("data: ")]
            good = data == expected
            print(f"{'ok  ' if good else 'FAIL'} a stream resumed by Last-Event-ID ({how}): {data}")
            if not good:
                failures.append(f"resume by {how}")
        if "chromium-eventsource" in CHOSEN:
            page = ChromiumClient(server.base, "eventsource")
            try:
                read = page.browser.evaluate("""new Promise(resolve => {
                    const source = new EventSource(%s); const out = [];
                    source.onmessage = e => { out.push(e.data); if (out.length === 4) { source.close(); resolve(out); } };
                    setTimeout(() => { source.close(); resolve(out.concat('timeout')); }, 3000);
                })""" % json.dumps(server.base + "/resume"))
            finally:
                page.close()
            good = read == ["event 1", "event 2", "event 3", "event 4"]
            print(f"{'ok  ' if good else 'FAIL'} Chromium's EventSource reconnects after the reset and reads each event once: {read}")
            if not good:
                failures.append("EventSource resume")

        # 3. Each fault as each client reports it.
        makers = {
            "curl": ("curl -N", lambda: lambda f: curl(f"{server.base}/sse/{f}")),
            "requests": ("requests iter_lines", lambda: lambda f: requests_lines(f"{server.base}/sse/{f}")),
            "httpx": ("httpx iter_lines", lambda: lambda f: httpx_lines(f"{server.base}/sse/{f}")),
            "node": ("Node http2 stream" if H2 else "Node fetch reader", lambda: lambda f: node(f"{server.base}/sse/{f}")),
            "openai": ("openai SDK (chat)", lambda: lambda f: openai_chat(f"{server.base}/{f}")),
            "openai-responses": ("openai SDK (responses)", lambda: lambda f: openai_responses(f"{server.base}/{f}")),
            "anthropic": ("anthropic SDK", lambda: lambda f: anthropic_stream(f"{server.base}/{f}")),
            "litellm": ("litellm (openai chat)", lambda: lambda f: litellm_chat(f"{server.base}/{f}")),
            "java": ("Java HttpClient ofLines", lambda: JVMClient("JavaLines.java", None, server.base)),
            "okhttp": ("OkHttp 3 source lines", lambda: JVMClient("OkHttpLines.java", OKHTTP, server.base)),
            "chromium-eventsource": ("Chromium EventSource", lambda: ChromiumClient(server.base, "eventsource")),
            "chromium-fetch": ("Chromium fetch reader", lambda: ChromiumClient(server.base, "fetch")),
        }
        unknown = [name for name in CHOSEN if name not in makers]
        if unknown:
            sys.exit(f"streams: unknown clients {unknown}; choose from {', '.join(makers)} or all")
        clients = [(makers[name][0] + (" over h2c" if H2 else ""), makers[name][1]()) for name in CHOSEN]
        print("\n| client | " + " | ".join(FAULTS) + " |")
        print("|---|" + "---|" * len(FAULTS))
        for label, run in clients:
            cells = []
            for fault in FAULTS:
                started = time.time()
                result = outcome(lambda: run(fault))
                seconds = time.time() - started
                timed = fault == "stall" and not isinstance(run, JVMClient)  # a JVM client ran every fault at once, earlier
                cells.append(result.replace("|", "/") + (f" ({seconds:.1f} s)" if timed else ""))
                # EventSource reports every ending the same way (onerror, then it reconnects).
                if fault in ("reset", "close", "stall") and not result.startswith("error") and "EventSource" not in label:
                    failures.append(f"{label}: {fault} was not reported as an error ({result})")
                if fault == "malformed" and label.endswith("SDK (chat)") and not result.startswith("error"):
                    failures.append(f"{label}: a malformed event was not reported ({result})")
                if fault == "none" and not result.startswith("ok"):
                    failures.append(f"{label}: the plain stream failed ({result})")
            print(f"| {label} | " + " | ".join(cells) + " |")
            if hasattr(run, "close"):
                run.close()
        if H2:
            import urllib.request
            with urllib.request.urlopen(server.base + "/__stubd/requests", timeout=10) as answer:
                spoken = sorted({entry.get("protocol") or "http/1.1" for entry in json.load(answer)["requests"]})
            print(f"{'ok  ' if spoken == ['h2'] else 'FAIL'} every stream came as h2 (the journal's protocol): {spoken}")
            if spoken != ["h2"]:
                failures.append(f"a client fell back from h2 ({spoken})")
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    print()
    for failure in failures:
        print("FAIL " + failure)
    print(f"streams: {'every check passed' if not failures else str(len(failures)) + ' failed'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
