"""Runs every installed HTTP client against a real stubd and prints the per-client fault table.

Usage: python3 conformance/run.py --stubd .build/release/stubd [--clients curl,requests,...]
                                  [--out docs/CONFORMANCE.md] [--bin DIR]
Each client runs the same steps on one client instance (so keep-alive connections are reused, as
in an app): every fault after a warm-up request, the JSON route with the client's own
Content-Type spelling, and sequences with a connection fault step — with the client's own
User-Agent and again with a browser's (`Mozilla/5.0 …`), which must change nothing a client sees. A step passes when
the client reports what the stub stands for: a failure for a fault, the status for a response.
The journal tells how many attempts reached stubd (a client's silent re-send shows as 2).
Exit status 1 when any expectation fails; `garbage` is reported, not judged (see docs/FAULTS.md).
"""
import argparse
import json
import os
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
CLIENTS = os.path.join(HERE, "clients")
OKHTTP = "/usr/share/java/okhttp.jar:/usr/share/java/okio.jar"

# Each row: label, steps (the judged one last), expectation for the judged steps.
FAULTS = [
    ("`reset` (-1005, other codes)", "GET /c/reset", "error"),
    ("`empty` (-1011)", "GET /c/empty", "error"),
    ("`truncated` (-1014)", "GET /c/truncated", "error"),
    ("`truncated`, HEAD request", "HEAD /c/truncated", "error"),
    ("`badChunk` (-1017)", "GET /c/badChunk", "error"),
    ("`hang` (-1001), client timeout 2 s", "GET /c/hang", "error"),
    ("`garbage` (no code maps to it)", "GET /c/garbage", None),
]
JSON_ROW = ("JSON route, the client's own Content-Type", "JSON /c/items", "201")
SEQUENCES = [
    ("sequence `[500, reset, ok]`", "flaky", "GET /c/flaky"),
    ("sequence `[500, empty, ok]`", "flaky-empty", "GET /c/flaky-empty"),
    ("sequence `[reset, ok]` after another route", "reset-first", "GET /c/reset-first"),
    ("sequence `[empty, ok]` after another route", "empty-first", "GET /c/empty-first"),
]
# A browser's User-Agent, as Android WebView-style and scraping stacks send it: the sequences run
# again with it (not for Chromium, which sends its own).
MOZILLA = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"
AGENT_SUFFIX = ", `Mozilla/5.0` User-Agent"
WARM = "GET /c/warm"
# The protocols the journal shows the client's requests came over (judged over HTTP/2 only).
PROTOCOL_ROW = "protocol spoken (the journal's `protocol`)"
# Failures no bytes can avoid, documented in docs/FAULTS.md rather than counted.
KNOWN = {
    ("chromium", "`truncated`, HEAD request"): "Chromium reads a cut status line as status 2",
}


def client_command(name, bin_dir):
    return {
        "curl": [sys.executable, os.path.join(CLIENTS, "curl_client.py")],
        "requests": [sys.executable, os.path.join(CLIENTS, "requests_client.py")],
        "httpx": [sys.executable, os.path.join(CLIENTS, "httpx_client.py")],
        "aiohttp": [sys.executable, os.path.join(CLIENTS, "aiohttp_client.py")],
        "node": ["node", os.path.join(CLIENTS, "node_fetch.mjs")],
        "node-http2": ["node", os.path.join(CLIENTS, "node_http2.mjs")],
        "chromium": [sys.executable, os.path.join(CLIENTS, "chromium_client.py")],
        "java": ["java", os.path.join(CLIENTS, "JavaHttpClient.java")],
        "okhttp": ["java", "-cp", OKHTTP, os.path.join(CLIENTS, "OkHttpProbe.java")],
        "urlsession": trusting_system_bundle() + [os.path.join(bin_dir, "URLSessionClient")],
    }[name]


# URLSession on Linux trusts only the system's bundle (swift-corelibs-foundation sets libcurl's
# CAINFO to /etc/ssl/certs/ca-certificates.crt and reads no variable but on Android): over HTTPS
# it runs in a mount namespace of its own where that file is the system's bundle plus stubd's CA.
SYSTEM_BUNDLE = "/etc/ssl/certs/ca-certificates.crt"


def system_bundle_with(ca, path):
    """Writes the system's bundle plus `ca` to `path` (what `trusting_system_bundle` mounts); returns `path`."""
    with open(path, "wb") as out, open(SYSTEM_BUNDLE, "rb") as system, open(ca, "rb") as local:
        out.write(system.read() + b"\n" + local.read())
    return path


def trusting_system_bundle():
    """The command prefix that runs a client with `STUBD_CA_BUNDLE` as the system bundle (none
    when no bundle is set: plain HTTP)."""
    bundle = CLIENT_ENV.get("STUBD_CA_BUNDLE")
    if not bundle:
        return []
    return ["unshare", "--mount", "sh", "-c", 'mount --bind "$0" ' + SYSTEM_BUNDLE + ' && exec "$@"', bundle]


# The clients that speak HTTP/2 here (Node's fetch does not: `node-http2` is its `http2` module).
H2_CLIENTS = "urlsession,curl,httpx,node-http2,chromium,java,okhttp"

TITLES = {
    "urlsession": "URLSession (Linux)", "curl": "curl", "requests": "Python requests", "httpx": "httpx",
    "aiohttp": "aiohttp", "node": "Node fetch", "node-http2": "Node http2",
    "chromium": "Chromium fetch", "java": "Java HttpClient", "okhttp": "OkHttp 3",
}


class Stubd:
    def __init__(self, binary, ca_dir=None, extra=()):
        https = ["--https-port", "0", "--ca-dir", ca_dir] if ca_dir else []
        self.process = subprocess.Popen(
            [binary, "serve", os.path.join(HERE, "fixtures"), "--port", "0", "--hang-cap", "30", *https, *extra],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        first = self.process.stdout.readline()
        if " on http://" not in first:
            sys.exit(f"stubd did not start: {first!r}")
        # The admin API is called over plain HTTP; the clients use `self.base` (HTTPS with --https).
        self.admin_base = self.base = first.rsplit(" on ", 1)[1].strip()
        if ca_dir:
            second = self.process.stdout.readline()
            if "over HTTPS on https://" not in second:
                sys.exit(f"stubd did not serve HTTPS: {second!r}")
            self.base = second.rsplit(" on ", 1)[1].strip()

    def admin(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.admin_base + "/__stubd/" + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"} if data else {})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)

    def attempts(self, step):
        method, path = step.split(" ", 1)
        return sum(1 for entry in self.admin("GET", "requests")["requests"]
                   if entry["url"] == path and entry["method"] == method)

    def protocols(self):
        """The protocols the journal's requests came over (`h2`, or `http/1.1`)."""
        return {entry.get("protocol") or "http/1.1" for entry in self.admin("GET", "requests")["requests"]}

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


CLIENT_ENV = dict(os.environ)


def run_client(command, base, steps):
    result = subprocess.run(command + [base] + steps, capture_output=True, text=True, timeout=180, env=CLIENT_ENV)
    lines = result.stdout.splitlines()
    if len(lines) != len(steps):
        raise RuntimeError(f"{' '.join(command[:2])}: {len(lines)} results for {len(steps)} steps\n{result.stderr[-2000:]}")
    return [line.split("\t") for line in lines]


def outcome(parts):
    """Short text for one step's result: the status and body, or the error's first words."""
    if parts[0] == "ok":
        body = parts[2] if len(parts) > 2 else ""
        return f"{parts[1]} {body!r}" if body else parts[1]
    text = parts[1].replace("NSURLErrorDomain ", "").replace("('Connection aborted.', ", "")
    text = text.replace("Connection broken: ", "").replace("(\"", "(").replace("('", "(")
    return text if len(text) <= 56 else text[:55].rstrip() + "…"


def passes(parts, expected):
    if expected == "error":
        return parts[0] == "error"
    return parts[0] == "ok" and parts[1] == expected


def measure(stubd, name, command):
    """One client's results: {row label: (passed or None, cell text)}."""
    cells = {}
    stubd.admin("POST", "reset")
    steps = []
    for _, step, _ in FAULTS:
        steps += [WARM, step]
    steps.append(JSON_ROW[1])
    results = run_client(command, stubd.base, steps)
    spoken = stubd.protocols()
    for index, (label, step, expected) in enumerate(FAULTS):
        parts = results[2 * index + 1]
        tries = stubd.attempts(step)
        extra = f" — {tries} attempts" if tries > 1 else ""
        good = None if expected is None else passes(parts, expected)
        if good is False and (name, label) in KNOWN:
            good, extra = None, extra + " (known: " + KNOWN[(name, label)] + ")"
        cells[label] = (good, outcome(parts) + extra)
    cells[JSON_ROW[0]] = (passes(results[-1], JSON_ROW[2]), outcome(results[-1]))

    with open(os.path.join(HERE, "sequences.json"), encoding="utf-8") as file:
        routes = {route["name"]: route for route in json.load(file)["routes"]}
    for agent, suffix in [(None, ""), (MOZILLA, AGENT_SUFFIX)]:
        CLIENT_ENV["STUBD_USER_AGENT"] = agent or ""
        for label, route, step in SEQUENCES:
            if agent and name == "chromium":
                cells[label + suffix] = (None, "its own")
                continue
            stubd.admin("POST", "reset")
            stubd.admin("POST", "routes", routes[route])
            count = len(routes[route]["responses"])
            results = run_client(command, stubd.base, [WARM] + [step] * count)[1:]
            wanted = [["ok", "500"], ["error"], ["ok", "200"]][-count:]
            good = all(r[:len(w)] == w for r, w in zip(results, wanted)) and results[-1][2:3] == ["ok"]
            good = good and stubd.attempts(step) == count
            text = " → ".join("error" if r[0] == "error" else r[1] for r in results)
            cells[label + suffix] = (good, f"{text} — {stubd.attempts(step)} attempts")
            spoken |= stubd.protocols()
    CLIENT_ENV["STUBD_USER_AGENT"] = ""
    # Over HTTP/2 every request must have come as h2 (a client that fell back to HTTP/1.1 measured the wrong thing).
    wanted = {"h2"} if CLIENT_ENV.get("STUBD_HTTP2") == "1" else None
    cells[PROTOCOL_ROW] = (None if wanted is None else spoken == wanted, ", ".join(sorted(spoken)))
    return cells


def available(name):
    probes = {
        "curl": ["curl", "--version"], "requests": [sys.executable, "-c", "import requests"],
        "httpx": [sys.executable, "-c", "import httpx"], "aiohttp": [sys.executable, "-c", "import aiohttp"],
        "node": ["node", "-e", "if (typeof fetch !== 'function') process.exit(1)"],
        "node-http2": ["node", "-e", "require('http2')"],
        "chromium": ["chromium", "--version"], "java": ["java", "-version"],
        "okhttp": ["test", "-r", OKHTTP.split(":")[0]],
    }
    if name == "urlsession":
        if CLIENT_ENV.get("STUBD_CA_BUNDLE"):
            # Over HTTPS: a mount namespace of its own (root, and unshare allowed).
            done = subprocess.run(trusting_system_bundle() + ["true"], capture_output=True, timeout=60)
            if done.returncode != 0:
                return f"urlsession: over HTTPS it needs a mount namespace (unshare --mount, as root): {done.stderr.decode()[-200:].strip()}"
        return None
    try:
        subprocess.run(probes[name], capture_output=True, check=True, timeout=60)
        return None
    except (OSError, subprocess.CalledProcessError, subprocess.TimeoutExpired):
        return f"{name}: not installed"


def table(columns, measured):
    rows = [label for label, _, _ in FAULTS] + [JSON_ROW[0]] + [label for label, _, _ in SEQUENCES] \
        + [label + AGENT_SUFFIX for label, _, _ in SEQUENCES] + [PROTOCOL_ROW]
    mark = {True: "✓ ", False: "✗ ", None: ""}
    lines = ["| case | " + " | ".join(TITLES[c] for c in columns) + " |",
             "|---|" + "---|" * len(columns)]
    for row in rows:
        cells = []
        for column in columns:
            good, text = measured[column][row]
            cells.append(mark[good] + text.replace("|", "\\|"))
        lines.append(f"| {row} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def trust_local_ca(ca_dir, binary):
    """Makes stubd's CA in `ca_dir` and points every client's trust at it: curl, Python
    requests, Node by environment; Java and OkHttp through a trust store and both JVM flags;
    Chromium (which has no per-process CA option) by ignoring certificate errors."""
    subprocess.run([binary, "cert", "--ca-dir", ca_dir], capture_output=True, check=True, timeout=60)
    ca = os.path.join(ca_dir, "stubd-ca.pem")
    store = os.path.join(ca_dir, "stubd.jks")
    subprocess.run(["keytool", "-importcert", "-noprompt", "-alias", "stubd", "-file", ca, "-keystore", store,
                    "-storepass", "changeit"], capture_output=True, check=True, timeout=60)
    CLIENT_ENV.update({
        "CURL_CA_BUNDLE": ca, "REQUESTS_CA_BUNDLE": ca, "NODE_EXTRA_CA_CERTS": ca, "SSL_CERT_FILE": ca,
        "JAVA_TOOL_OPTIONS": f"-Djavax.net.ssl.trustStore={store} -Djavax.net.ssl.trustStorePassword=changeit",
        "STUBD_CHROMIUM_FLAGS": "--ignore-certificate-errors",
    })
    if os.path.exists(SYSTEM_BUNDLE):
        CLIENT_ENV["STUBD_CA_BUNDLE"] = system_bundle_with(ca, os.path.join(ca_dir, "bundle.pem"))


def write_page(path, text, marker="conformance"):
    """Puts the table between `<!-- MARKER:begin … -->` and `<!-- MARKER:end -->` (only after a
    run with every client, so docs/FAULTS.md never shows a partial table)."""
    with open(path, encoding="utf-8") as file:
        page = file.read()
    begin = page.index(f"<!-- {marker}:begin")
    begin = page.index("\n", begin) + 1
    end = page.index(f"<!-- {marker}:end -->")
    with open(path + ".tmp", "w", encoding="utf-8") as file:
        file.write(page[:begin] + text + "\n" + page[end:])
    os.replace(path + ".tmp", path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stubd", required=True)
    parser.add_argument("--clients", default="urlsession,curl,requests,httpx,aiohttp,node,chromium,java,okhttp")
    parser.add_argument("--bin", default=os.path.join(HERE, ".build"))
    parser.add_argument("--out")
    parser.add_argument("--page", help="replace the table between the conformance markers of this file (docs/FAULTS.md)")
    parser.add_argument("--https", action="store_true",
                        help="the same steps over HTTPS with HTTP/1.1 (stubd --http2 off), the local CA (made in a temporary folder) "
                             "trusted per client")
    parser.add_argument("--http2", action="store_true",
                        help="the same steps over HTTPS with HTTP/2 (h2 by ALPN; httpx and Java's HttpClient told to use it), the "
                             "clients that speak it here; every request must reach stubd as h2")
    options = parser.parse_args()
    columns, measured, failures = [], {}, []
    ca_dir = None
    if options.http2:
        options.https = True
        CLIENT_ENV["STUBD_HTTP2"] = "1"
        if options.clients == parser.get_default("clients"):
            options.clients = H2_CLIENTS
    if options.https:
        import tempfile
        ca_dir = tempfile.mkdtemp(prefix="stubd-conformance-ca-")
        trust_local_ca(ca_dir, options.stubd)
    stubd = Stubd(options.stubd, ca_dir, () if options.http2 or not options.https else ("--http2", "off"))
    try:
        for name in options.clients.split(","):
            missing = available(name)
            if missing:
                failures.append(missing)
                continue
            started = time.monotonic()
            measured[name] = measure(stubd, name, client_command(name, options.bin))
            columns.append(name)
            print(f"conformance: {TITLES[name]}: {time.monotonic() - started:.1f} s", file=sys.stderr)
    finally:
        stubd.stop()
    text = table(columns, measured)
    print(text)
    for name in columns:
        failures += [f"{TITLES[name]}: {row}: {cell}" for row, (good, cell) in measured[name].items() if good is False]
    if options.out and not options.https:
        with open(options.out + ".tmp", "w", encoding="utf-8") as file:
            file.write("# Client conformance\n\nWritten by `make conformance` (conformance/run.py); do not edit.\n"
                       "✓ the client reported what the stub stands for; ✗ it did not; attempts = requests that "
                       "reached stubd (a silent re-send shows as 2).\n\n" + text + "\n")
        os.replace(options.out + ".tmp", options.out)
    if options.out and options.https:
        title = ("Over HTTP/2 (h2 by ALPN on the HTTPS port, the clients that speak it here)" if options.http2 else
                 "Over HTTPS with HTTP/1.1 (stubd `--http2 off`; the local CA trusted per client)")
        with open(options.out, "a", encoding="utf-8") as file:
            file.write(f"\n## {title}\n\n" + text + "\n")
    wanted = set(H2_CLIENTS.split(",")) if options.http2 else set(TITLES) - {"node-http2"}
    if options.page and set(columns) == wanted:
        write_page(options.page, text, marker="conformance-h2" if options.http2 else "conformance-https" if options.https else "conformance")
    if failures:
        print("\nconformance: FAILED\n" + "\n".join(failures), file=sys.stderr)
        return 1
    print(f"\nconformance: {len(columns)} clients, every expectation met", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
