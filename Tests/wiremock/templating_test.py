"""make test: WireMock's Handlebars as suites write it (issue 36) — each template below served by
real WireMock 2.35.1 and by `stubd serve --wiremock` from the same root, the same request sent to
both, status and body compared byte for byte. The templates are this file's own, written after
WireMock's templating documentation and the shapes real suites use (block helpers, conditions,
loops over jsonPath, #assign, string and math helpers, HTML escaping, templated JSON keys, the
request line's base URL). Prints the agreement and every difference; fails on any difference
not listed in KNOWN with its reason.

    python3 Tests/wiremock/templating_test.py .build/debug/stubd [bench/out/wiremock-standalone-2.35.1.jar]
"""
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "python"))
from stubd_server import Stubd  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/stubd"
JAR = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "bench", "out", "wiremock-standalone-2.35.1.jar")
HOST = "api.example.test:8443"
ITEMS = {"items": [{"id": 1, "name": "ada"}, {"id": 2, "name": "bob"}, {"id": 3, "name": "cy"}],
         "user": {"name": "O'Brien <admin>", "age": 36}, "tags": ["a", "b"]}

# (template, requests as (method, path+query, body or None)); a template is a text body unless it is a dict (jsonBody).
CASES = [
    ("{{request.requestLine.baseUrl}}/next {{request.baseUrl}}", [("GET", "", None)]),
    ("{{request.requestLine.scheme}} {{request.requestLine.host}} {{request.requestLine.port}}", [("GET", "", None)]),
    ("{{#if (eq request.query.a.[0] 'x')}}yes{{else}}no{{/if}}", [("GET", "?a=x", None), ("GET", "?a=y", None)]),
    ("{{#unless request.query.a}}none{{else}}some{{/unless}}", [("GET", "", None), ("GET", "?a=1", None)]),
    ("{{#if (eq request.query.a.[0] '1')}}one{{else if (eq request.query.a.[0] '2')}}two{{else}}many{{/if}}",
     [("GET", "?a=1", None), ("GET", "?a=2", None), ("GET", "?a=3", None)]),
    ("{{#each (jsonPath request.body '$.items') as |item|}}{{item.id}}{{#unless @last}},{{/unless}}{{/each}}", [("POST", "", ITEMS)]),
    ("{{#each (jsonPath request.body '$.items')}}{{@index}}:{{this.name}}{{#if @first}}(first){{/if}};{{/each}}", [("POST", "", ITEMS)]),
    ("{{#each (jsonPath request.body '$.items')}}{{name}} {{/each}}", [("POST", "", ITEMS)]),
    ("{{#each (jsonPath request.body '$.tags')}}<{{this}}>{{else}}empty{{/each}}", [("POST", "", ITEMS), ("POST", "", {"tags": []})]),
    ("{{#assign 'greeting'}}Hello {{request.query.name}}{{/assign}}{{greeting}}!", [("GET", "?name=ada", None)]),
    ("{{#with (jsonPath request.body '$.items.[1]')}}{{name}} has id {{id}}{{/with}}", [("POST", "", ITEMS)]),
    ("{{upper request.query.s}} {{lower request.query.s}} {{capitalize 'hello big world'}} [{{trim '  x  '}}]", [("GET", "?s=MiXed", None)]),
    ("{{substring 'abcdef' 1 3}} {{substring 'abcdef' 2}} {{replace 'a-b-c' '-' '+'}}", [("GET", "", None)]),
    ("{{size (jsonPath request.body '$.items')}} {{size 'four'}}", [("POST", "", ITEMS)]),
    ("{{math 1 '+' 2}} {{math 10 '-' 4}} {{math 6 '*' 7}} {{math 7 '%' 3}}", [("GET", "", None)]),
    ("{{#eq request.query.m.[0] 'GET'}}get{{else}}other{{/eq}}", [("GET", "?m=GET", None), ("GET", "?m=PUT", None)]),
    ("{{#and (eq request.query.m.[0] 'POST') request.query.a}}both{{else}}not both{{/and}}", [("POST", "?m=POST&a=1", {}), ("POST", "?m=POST", {})]),
    ("{{#or (eq request.query.a.[0] '1') (eq request.query.b.[0] '2')}}either{{else}}neither{{/or}}", [("GET", "?b=2", None), ("GET", "?a=3", None)]),
    ("{{#not (eq request.query.a.[0] '1')}}not one{{else}}one{{/not}}", [("GET", "?a=1", None), ("GET", "?a=2", None)]),
    ("{{#neq request.query.a.[0] 'x'}}differs{{else}}same{{/neq}}", [("GET", "?a=x", None), ("GET", "?a=z", None)]),
    ("{{request.query.q}}|{{{request.query.q}}}", [("GET", "?q=%3Ca%20href%3D%27x%27%3E%26%22%60", None)]),
    ("{{jsonPath request.body '$.user.name'}}", [("POST", "", ITEMS)]),
    ({"{{request.query.k}}": 1, "fixed": "{{request.query.k}}"}, [("GET", "?k=key", None)]),
    ("{{#each request.query.ids}}[{{this}}]{{/each}}", [("GET", "?ids=1&ids=2", None)]),
    ("a {{!-- a comment --}}b {{! another }}c", [("GET", "", None)]),
    ("{{date (parseDate '2024-03-05T10:00:00Z') format='yyyy/MM/dd'}}", [("GET", "", None)]),
    ("{{#with (jsonPath request.body '$.user')}}{{name}} is {{age}}{{/with}}", [("POST", "", ITEMS)]),
    ("{{join (jsonPath request.body '$.tags') ', '}}", [("POST", "", ITEMS)]),
    ("{{randomValue length=48 type='ALPHANUMERIC'}}", [("GET", "", None)]),
    ("{{randomValue length=48 type='ALPHABETIC' uppercase=true}}", [("GET", "", None)]),
    ("{{#gt (size (jsonPath request.body '$.items')) 2}}many{{else}}few{{/gt}}", [("POST", "", ITEMS)]),
    ("{{#lt 1 2}}lt{{/lt}} {{#gte 2 2}}gte{{/gte}} {{#lte 3 2}}lte{{else}}not lte{{/lte}}", [("GET", "", None)]),
    # WireMock 2.35.1 compares request.method, request.query.X and request.headers.X as objects.
    ("{{#eq request.method 'GET'}}get{{else}}other{{/eq}}", [("GET", "", None)]),
    ("{{#if (eq request.query.a 'x')}}yes{{else}}no{{/if}}", [("GET", "?a=x", None)]),
    ("{{#each (jsonPath request.body '$.missing')}}x{{else}}empty{{/each}}", [("POST", "", ITEMS)]),
    # Issue 49: variables (#assign, block parameters) as helper arguments and across JSON values; multi-valued query
    # parameters (first value by default, .[n], join); a helper a suite defined that this server lacks.
    ("{{#assign 'fmt'}}yyyy/MM/dd{{/assign}}{{date (parseDate '2024-03-05T10:00:00Z') format=fmt}}", [("GET", "", None)]),
    ("{{#assign 'n'}}5{{/assign}}{{math n '+' 1}} {{upper n}}", [("GET", "", None)]),
    ("{{#assign 'customformat'}}yyyy{{/assign}}{{now format=customformat}}|{{now format=customformat offset='-1 years'}}", [("GET", "", None)]),
    ("{{#each (jsonPath request.body '$.items') as |item|}}{{upper item.name}} {{math item.id '*' 10}};{{/each}}", [("POST", "", ITEMS)]),
    ({"a": "{{#assign 'x'}}hi {{request.query.k}}{{/assign}}", "b": "{{x}}"}, [("GET", "?k=there", None)]),
    ("{{request.query.multi}}|{{request.query.multi.[0]}}|{{request.query.multi.[1]}}", [("GET", "?multi=a&multi=b", None), ("GET", "?multi=one", None)]),
    ("{{join request.query.multi ','}}|{{size request.query.multi}}", [("GET", "?multi=a&multi=b", None)]),
    ("{{request.headers.X-Kind}}|{{request.headers.X-Kind.[0]}}", [("GET", "", None)]),
    ("[{{currentYear}}]", [("GET", "", None)]),
]

# Differences measured and kept, with why.
OBJECTS = ("WireMock 2.35.1 compares request.method (an enum), request.query.X and request.headers.X (lists of values) as "
           "objects, never equal to a string, so this eq is false there whatever was sent; stubd compares their text, which is "
           "what the template says (request.query.X.[0] is text in both, and agrees)")
KNOWN = {
    ("{{#eq request.method 'GET'}}get{{else}}other{{/eq}}", ""): OBJECTS,
    ("{{#if (eq request.query.a 'x')}}yes{{else}}no{{/if}}", "?a=x"): OBJECTS,
    ("{{#each (jsonPath request.body '$.missing')}}x{{else}}empty{{/each}}", ""): ("WireMock loops over the text of the error its jsonPath gives for a path that selects nothing (one x per "
               "character); stubd takes nothing selected as an empty list and renders {{else}}, as Handlebars defines #each"),
}


def shape(text):
    return "".join(sorted({"a" if c.islower() else "A" if c.isupper() else "9" if c.isdigit() else c for c in text}))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def root_folder(global_templating=False):
    folder = tempfile.mkdtemp()
    os.makedirs(os.path.join(folder, "mappings"))
    os.makedirs(os.path.join(folder, "__files"))
    for number, (template, _) in enumerate(CASES):
        response = {"status": 200} if global_templating else {"status": 200, "transformers": ["response-template"]}
        if isinstance(template, dict):
            response["jsonBody"] = template
        else:
            response["body"] = template
        mapping = {"request": {"urlPath": f"/t/{number}"}, "response": response}
        with open(os.path.join(folder, "mappings", f"t{number}.json"), "w") as file:
            json.dump(mapping, file)
    os.chmod(folder, 0o755)
    return folder


def start_wiremock(folder, global_templating=False):
    port = free_port()
    flag = "--global-response-templating" if global_templating else "--local-response-templating"
    process = subprocess.Popen(["java", "-jar", JAR, "--port", str(port), "--bind-address", "127.0.0.1", "--root-dir", folder,
                                "--disable-banner", flag], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process, port
        except OSError:
            if process.poll() is not None:
                raise RuntimeError("WireMock exited: " + process.stdout.read())
            time.sleep(0.1)
    raise RuntimeError("WireMock did not start")


def send(port, method, target, body):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Host": HOST, "X-Kind": "application/json"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    connection.request(method, target, body=data, headers=headers)
    answer = connection.getresponse()
    text = answer.read().decode(errors="replace")
    connection.close()
    if answer.getheader("Content-Type", "").startswith("application/json"):
        try:
            text = json.dumps(json.loads(text), sort_keys=True)
        except ValueError:
            pass
    return answer.status, text


def compare(global_templating):
    """Both servers on one root; (equal, total, unexpected differences)."""
    folder = root_folder(global_templating)
    wiremock, stubd = None, None
    agreed, total, unexpected = 0, 0, []
    mode = "global templating" if global_templating else "per-mapping templating"
    try:
        wiremock, wiremock_port = start_wiremock(folder, global_templating)
        empty = os.path.join(folder, "no-fixtures")
        os.makedirs(empty)
        stubd = Stubd(BINARY, empty, "--wiremock", folder, "--quiet", *(["--global-response-templating"] if global_templating else []))
        for number, (template, requests) in enumerate(CASES):
            for method, query, body in requests:
                total += 1
                target = f"/t/{number}{query}"
                theirs = send(wiremock_port, method, target, body)
                ours = send(stubd.port, method, target, body)
                shown = template if isinstance(template, str) else json.dumps(template)
                if "randomValue" in shown:
                    # Random: compared by the kind of each character (lower-case, upper-case, digit).
                    theirs, ours = (theirs[0], shape(theirs[1])), (ours[0], shape(ours[1]))
                if theirs == ours:
                    agreed += 1
                    print(f"ok   {mode}: {method} {target}: {ours[1][:60]!r}")
                else:
                    reason = KNOWN.get((shown, query))
                    print(f"{'diff' if reason else 'FAIL'} {mode}: {method} {target} {shown[:60]!r}\n       WireMock: {theirs}\n       stubd:    {ours}" + (f"\n       ({reason})" if reason else ""))
                    if not reason:
                        unexpected.append(target)
    finally:
        if stubd:
            stubd.stop()
        if wiremock:
            wiremock.terminate()
            wiremock.wait(20)
        shutil.rmtree(folder, ignore_errors=True)
    return agreed, total, unexpected


def main():
    if not os.path.exists(JAR):
        print(f"templating_test: FAIL: WireMock's jar is not at {JAR}; bash bench/wiremock-jar.sh fetches it (make test runs it)")
        sys.exit(1)
    results = {mode: compare(mode) for mode in (False, True)}
    for mode, (agreed, total, _) in results.items():
        print(f"templating_test: {'global' if mode else 'per-mapping'} templating: {agreed} of {total} answers equal to WireMock 2.35.1's ({len(CASES)} templates)")
    unexpected = [target for _, _, found in results.values() for target in found]
    if unexpected:
        print(f"templating_test: {len(unexpected)} unexpected difference(s)")
        sys.exit(1)


if __name__ == "__main__":
    main()
