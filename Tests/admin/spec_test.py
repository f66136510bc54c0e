"""docs/admin-api.openapi.json against the stubd that serves it (issue 48):

1. the committed document is what `stubd admin-spec` prints (regenerate: stubd admin-spec -o FILE);
2. it validates as OpenAPI 3.1 (openapi-spec-validator);
3. every JSON endpoint, called on a running stubd (fixtures with a sequence, a scenario and a
   collection; a session), answers with the status the document names and a body its schema
   accepts (jsonschema), and a refused call answers the Refusal schema;
4. every admin call the JVM and JavaScript kits make (`call("METHOD", "path/{param}")` in their
   sources) and the Maestro scripts make (`http.get(base + "/__stubd/…")`) is in the document.

Usage: python3 Tests/admin/spec_test.py path/to/stubd
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
from stubd_server import Stubd  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DOCUMENT = os.path.join(ROOT, "docs", "admin-api.openapi.json")
KIT_SOURCES = [os.path.join(ROOT, "kits", "jvm", "src"), os.path.join(ROOT, "kits", "js", "src"), os.path.join(ROOT, "kits", "maestro")]


def fail(message):
    print(f"FAIL {message}")
    sys.exit(1)


def check_generated(binary):
    generated = subprocess.run([binary, "admin-spec"], capture_output=True, text=True, check=True).stdout
    with open(DOCUMENT) as handle:
        committed = handle.read()
    if generated != committed:
        fail("docs/admin-api.openapi.json differs from `stubd admin-spec`: run "
             f"`{binary} admin-spec -o docs/admin-api.openapi.json` and commit it")
    print("ok   the committed document is `stubd admin-spec`'s")
    return json.loads(committed)


def check_valid(document):
    from openapi_spec_validator import validate
    validate(document)
    print(f"ok   OpenAPI 3.1 valid: {len(document['paths'])} paths, {len(document['components']['schemas'])} schemas")


def operation(document, method, template):
    found = document["paths"].get("/__stubd/" + template, {}).get(method.lower())
    if found is None:
        fail(f"{method} /__stubd/{template} is not in the document")
    return found


def check_answers(binary, document):
    import jsonschema
    folder = tempfile.mkdtemp(prefix="stubd-spec-")
    with open(os.path.join(folder, "routes.json"), "w") as handle:
        json.dump({"routes": [
            {"name": "zen", "request": {"method": "GET", "path": "/zen"}, "response": {"status": 200, "text": "calm"}},
            {"name": "flaky", "request": {"method": "GET", "path": "/flaky"},
             "responses": [{"status": 500}, {"status": 200, "json": {"ok": True}}]},
            {"name": "cart", "scenario": "cart", "requiredState": "Started", "request": {"method": "GET", "path": "/cart"},
             "response": {"status": 200, "json": []}, "newState": "Paid"},
        ], "collections": [{"name": "todos", "path": "/todos", "seed": [{"id": 1, "title": "milk"}]}]}, handle)
    server = Stubd(binary, folder, "--proxy-port", "0", "--ca-dir", tempfile.mkdtemp(prefix="stubd-spec-ca-"))
    base = server.base
    session = "spec-1"
    checked = set()

    def call(method, template, body=None, *, params=(), query="", expect=None):
        spec = operation(document, method, template)
        path = template
        for value in params:
            path = re.sub(r"\{[^}]+\}", value, path, count=1)
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{base}/__stubd/{path}{query}", data=data, method=method,
                                         headers={"X-Stubd-Session": session, "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                status, payload = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, payload = error.code, error.read()
        documented = [code for code in spec["responses"] if code != "default"]
        if expect == "refused":
            schema = spec["responses"]["default"]["content"]["application/json"]["schema"]
            if status < 400:
                fail(f"{method} /__stubd/{path}: expected a refusal, got {status}")
        else:
            if [str(status)] != documented:
                fail(f"{method} /__stubd/{path}: answered {status}, the document says {documented}: {payload[:300]!r}")
            schema = spec["responses"][str(status)]["content"]["application/json"]["schema"]
            checked.add((method, template))
        value = json.loads(payload)
        try:
            jsonschema.Draft202012Validator({**schema, "components": document["components"]}).validate(value)
        except jsonschema.ValidationError as error:
            fail(f"{method} /__stubd/{path}: the answer does not fit the document's schema: {error.message}\n{payload[:500]!r}")
        if spec.get("requestBody") and body is not None and expect != "refused":
            request_schema = spec["requestBody"]["content"]["application/json"]["schema"]
            try:
                jsonschema.Draft202012Validator({**request_schema, "components": document["components"]}).validate(body)
            except jsonschema.ValidationError as error:
                fail(f"{method} /__stubd/{path}: the body sent does not fit the document's request schema: {error.message}")
        return value

    try:
        for path in ["/zen", "/flaky", "/nowhere", "/cart"]:
            try:
                urllib.request.urlopen(urllib.request.Request(base + path, headers={"X-Stubd-Session": session}), timeout=5).read()
            except urllib.error.HTTPError:
                pass
        call("GET", "health")
        call("GET", "ready")
        added = call("POST", "routes", {"request": {"method": "GET", "path": "/spec"}, "response": {"status": 204}})["added"][0]
        call("GET", "routes")
        call("PUT", "routes/{id}", {"request": {"method": "GET", "path": "/spec"}, "response": {"status": 200}}, params=[added])
        call("POST", "routes/{id}/disable", params=[added])
        call("POST", "routes/{id}/enable", params=[added])
        call("DELETE", "routes/{id}", params=[added])
        call("POST", "routes", {"request": {"method": "GET", "path": "/spec"}, "response": {"status": 204}})
        call("DELETE", "routes")
        call("GET", "requests")
        call("GET", "requests", query="?matched=false&method=GET")
        call("GET", "requests/count", query="?path=/zen")
        call("GET", "requests/snapshot")
        call("GET", "scenarios")
        call("PUT", "scenarios/{name}", {"state": "Paid"}, params=["cart"])
        call("POST", "scenarios/reset")
        call("PUT", "clock", {"now": "2026-01-01T09:00:00Z"})
        call("DELETE", "clock")
        call("PUT", "random", {"seed": 42})
        call("PUT", "random", {"seed": None})
        call("GET", "collections")
        call("GET", "collections/{name}", params=["todos"])
        call("PUT", "collections/{name}", [{"id": 2, "title": "eggs"}], params=["todos"])
        call("GET", "webhooks")
        call("DELETE", "webhooks")
        call("GET", "websockets")
        call("POST", "websockets/send", {"text": "hi"})
        call("POST", "websockets/close", {"code": 1000})
        opened = call("POST", "proxy/ports")
        call("GET", "proxy/ports")
        call("DELETE", "proxy/ports/{port}", params=[str(opened["port"])])
        call("DELETE", "requests")
        call("POST", "reset")
        call("PUT", "clock", {"when": "noon"}, expect="refused")
        call("POST", "routes", {"request": {"method": "GET"}}, expect="refused")
        call("DELETE", "routes/{id}", params=["r999999"], expect="refused")
    finally:
        server.stop()
    json_calls = {(method.upper(), path[len("/__stubd/"):]) for path, methods in document["paths"].items()
                  for method, spec in methods.items()
                  if "application/json" in next(iter(spec["responses"].values())).get("content", {})}
    unchecked = json_calls - checked - {("POST", "recording/start"), ("POST", "recording/stop"), ("POST", "ui/fixtures")}
    if unchecked:
        fail(f"JSON endpoints this test does not call: {sorted(unchecked)}")
    print(f"ok   {len(checked)} endpoints answered as the document says (status and schema), refusals as Refusal")


def check_kits(document):
    pattern = re.compile(r'\bcall\(\s*"(GET|POST|PUT|DELETE)",\s*"([a-z/{}.-]+)"')
    maestro = re.compile(r'\bhttp\.(get|post|put|delete)\(base \+ "/__stubd/([a-z/{}.-]+)')
    calls = set()
    for root in KIT_SOURCES:
        for folder, _, files in os.walk(root):
            for name in files:
                if name.endswith((".java", ".js", ".mjs")):
                    with open(os.path.join(folder, name)) as handle:
                        text = handle.read()
                    calls |= {(m.group(1), m.group(2)) for m in pattern.finditer(text)}
                    calls |= {(m.group(1).upper(), m.group(2)) for m in maestro.finditer(text)}
    if len(calls) < 8:
        fail(f"found only {len(calls)} admin calls in the kits' sources ({KIT_SOURCES}): the pattern no longer finds them")
    for method, template in sorted(calls):
        operation(document, method, template)
    print(f"ok   every admin call of the JVM and JavaScript kits and the Maestro scripts is in the document ({len(calls)} distinct)")


def main():
    binary = sys.argv[1]
    document = check_generated(binary)
    check_valid(document)
    check_answers(binary, document)
    check_kits(document)


if __name__ == "__main__":
    main()
