#!/usr/bin/env python3
"""How often stubd answers a WireMock root as WireMock 2.35.1 does.

For every mapping in ROOT/mappings this makes the request it describes (method, the URL from
url/urlPath/urlPathTemplate, or urlPattern/urlPathPattern when they are plain enough to invert;
equalTo headers and query parameters; an equalTo/equalToJson body; basic auth) and a near-miss
variant of it (one character added to the last path segment), sends both to real WireMock and to
`stubd serve --wiremock ROOT`, and compares status and body bytes. Prints the agreement and every
disagreement.

    python3 conformance/wiremock_agreement.py ROOT [--stubd .build/release/stubd] [--jar bench/out/wiremock-standalone-2.35.1.jar]
"""
import argparse, base64, glob, http.client, json, os, re, socket, subprocess, sys, tempfile, time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def strip_comments(text):
    out, i, in_string = [], 0, False
    while i < len(text):
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1]); i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True; out.append(c)
        elif text.startswith("//", i):
            while i < len(text) and text[i] != "\n": i += 1
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2); i = len(text) if end < 0 else end + 2
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def mappings(root):
    folder = os.path.join(root, "mappings") if os.path.isdir(os.path.join(root, "mappings")) else root
    for path in sorted(glob.glob(os.path.join(folder, "**", "*.json"), recursive=True)):
        try:
            document = json.loads(strip_comments(open(path, encoding="utf-8").read()))
        except Exception:
            continue
        for mapping in document.get("mappings", [document]) if isinstance(document, dict) else []:
            if isinstance(mapping, dict) and isinstance(mapping.get("request"), dict):
                yield path, mapping


def invert(pattern):
    """A URL a simple regex matches, or None."""
    text = pattern.replace("\\?", "?").replace("\\.", ".").replace("\\-", "-")
    text = re.sub(r"\[\^?[^\]]*\][*+]?", "a", text)
    text = text.replace(".*", "x").replace(".+", "x").replace("\\d+", "1").replace("\\d", "1").replace("\\w+", "w")
    text = re.sub(r"\(([^|()]*)(\|[^()]*)?\)", r"\1", text)
    if re.search(r"[\\()\[\]{}*+^$|]", text):
        return None
    return text


def request_for(mapping):
    request = mapping["request"]
    method = request.get("method", "GET")
    method = "GET" if method == "ANY" else method
    if "url" in request: url = request["url"]
    elif "urlPath" in request: url = request["urlPath"]
    elif "urlPathTemplate" in request: url = re.sub(r"\{[^}]+\}", "1", request["urlPathTemplate"])
    elif "urlPattern" in request: url = invert(request["urlPattern"])
    elif "urlPathPattern" in request: url = invert(request["urlPathPattern"])
    else: url = "/"
    if url is None:
        return None
    query = []
    for name, matcher in (request.get("queryParameters") or {}).items():
        if isinstance(matcher, dict) and "equalTo" in matcher: query.append(f"{name}={matcher['equalTo']}")
        elif isinstance(matcher, dict) and "absent" in matcher: pass
        else: return None
    if query:
        url += ("&" if "?" in url else "?") + "&".join(query)
    headers = {}
    for name, matcher in (request.get("headers") or {}).items():
        if isinstance(matcher, dict) and "equalTo" in matcher: headers[name] = matcher["equalTo"]
        elif isinstance(matcher, dict) and "absent" in matcher: pass
        else: return None
    auth = request.get("basicAuth") or request.get("basicAuthCredentials")
    if auth:
        headers["Authorization"] = "Basic " + base64.b64encode(f"{auth.get('username','')}:{auth.get('password','')}".encode()).decode()
    body = None
    for pattern in request.get("bodyPatterns") or []:
        if "equalTo" in pattern: body = pattern["equalTo"]
        elif "equalToJson" in pattern:
            value = pattern["equalToJson"]
            body = value if isinstance(value, str) else json.dumps(value)
        else: return None
    if "scenarioName" in mapping:
        return None  # state-dependent: the answer depends on earlier requests
    return method, url, headers, body


def send(port, method, url, headers, body):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request(method, url, body=body.encode() if body is not None else None, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    except Exception as error:
        return "error", str(type(error).__name__).encode()
    finally:
        connection.close()


def wait(port, path, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            status, _ = send(port, "GET", path, {}, None)
            if status != "error": return True
        except Exception:
            pass
        time.sleep(0.2)
    return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("root")
    parser.add_argument("--stubd", default=".build/release/stubd")
    parser.add_argument("--jar", default="bench/out/wiremock-standalone-2.35.1.jar")
    arguments = parser.parse_args()
    cases = []
    for path, mapping in mappings(arguments.root):
        request = request_for(mapping)
        if request is None: continue
        method, url, headers, body = request
        cases.append((os.path.relpath(path, arguments.root), "exact", method, url, headers, body))
        base, _, query = url.partition("?")
        cases.append((os.path.relpath(path, arguments.root), "near miss", method, base + "z" + ("?" + query if query else ""), headers, body))
    wiremock_port, stubd_port = free_port(), free_port()
    # Logs go to files: WireMock writes every near miss to its output, and a full pipe would stall it.
    logs = tempfile.mkdtemp(prefix="agreement-")
    wiremock_log, stubd_log = open(os.path.join(logs, "wiremock.log"), "w+b"), open(os.path.join(logs, "stubd.log"), "w+b")
    wiremock = subprocess.Popen(["java", "-jar", arguments.jar, "--port", str(wiremock_port), "--bind-address", "127.0.0.1",
                                 "--root-dir", arguments.root, "--disable-banner", "--local-response-templating"], stdout=wiremock_log, stderr=subprocess.STDOUT)
    stubd = subprocess.Popen([arguments.stubd, "serve", "--wiremock", arguments.root, "--port", str(stubd_port), "--quiet"],
                             stdout=subprocess.DEVNULL, stderr=stubd_log)
    try:
        if not wait(wiremock_port, "/__admin/mappings"):
            print("agreement: WireMock did not start:", open(wiremock_log.name, "rb").read()[-2000:].decode(errors="replace")); return 2
        if not wait(stubd_port, "/__stubd/health", 20):
            print("agreement: stubd did not start:", open(stubd_log.name, "rb").read()[-4000:].decode(errors="replace")); return 2
        agree, differ = 0, []
        for source, kind, method, url, headers, body in cases:
            real = send(wiremock_port, method, url, headers, body)
            ours = send(stubd_port, method, url, headers, body)
            # A miss is a 404 in both; the bodies of misses are each server's own report.
            same = real[0] == ours[0] and (real[0] == 404 or real[1] == ours[1])
            if same: agree += 1
            else: differ.append(f"  {kind:9} {method} {url} ({source}): WireMock {real[0]} {real[1][:60]!r}, stubd {ours[0]} {ours[1][:60]!r}")
        total = len(cases)
        print(f"agreement: {agree} of {total} requests answered alike ({sum(1 for c in cases if c[1] == 'exact')} mappings' requests and as many near misses) for {arguments.root}")
        for line in differ: print(line)
        skipped = [line for line in open(stubd_log.name, encoding="utf-8", errors="replace") if "skipped" in line or "like " in line]
        print(f"agreement: stubd reported {len(skipped)} skipped mapping(s) or overlap(s) (see {stubd_log.name})")
    finally:
        for process in (wiremock, stubd):
            process.terminate()
            try: process.wait(10)
            except Exception: process.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
