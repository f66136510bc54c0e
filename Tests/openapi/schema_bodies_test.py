"""make test: OpenAPI operations with a schema and no example (issue 36, item 3) — imported with
`stubd import openapi`, served, and each body validated against its schema by the jsonschema
package (draft 2020-12, OpenAPI 3.1's dialect); the same spec imported twice gives the same files
(deterministic); the report marks each body as generated; and the OpenAI spec's two quirks
(a boolean exclusiveMinimum in a 3.1 document, path keys with ?beta=true) are read with a
warning each instead of refusing the spec.

    STUBD_OPENAPI=Tools/stubd-openapi/.build/debug/stubd-openapi python3 Tests/openapi/schema_bodies_test.py .build/debug/stubd
"""
import json
import os
import subprocess
import sys
import tempfile
import urllib.request

import jsonschema

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
from stubd_server import Stubd  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/stubd"

SCHEMAS = {
    "Account": {"type": "object", "required": ["id", "object", "created", "email", "settings"],
                "properties": {"id": {"type": "string", "pattern": "^acct_"}, "object": {"type": "string", "enum": ["account"]},
                               "created": {"type": "integer", "minimum": 1600000000}, "email": {"type": "string", "format": "email"},
                               "country": {"type": "string", "minLength": 2, "maxLength": 2},
                               "settings": {"$ref": "#/components/schemas/Settings"},
                               "parent": {"$ref": "#/components/schemas/Account"},
                               "tags": {"type": "array", "minItems": 2, "items": {"type": "string", "format": "uuid"}},
                               "balance": {"anyOf": [{"type": "integer", "minimum": 5}, {"type": "string"}]},
                               "metadata": {"type": "object", "additionalProperties": {"type": "string"}}}},
    "Settings": {"allOf": [{"type": "object", "required": ["theme"], "properties": {"theme": {"type": "string", "enum": ["dark", "light"]}}},
                           {"type": "object", "properties": {"font": {"type": "number", "minimum": 8, "maximum": 32}}}]},
    # Issue 49 (Stripe's shapes): required values past the depth limit, reached through a chain of references;
    # a pattern whose literal prefix starts with "/"; a required array with minItems whose items recurse.
    "Deep": {"type": "object", "required": ["a"], "properties": {"a": {"$ref": "#/components/schemas/Deep1"}}},
    "Deep1": {"type": "object", "required": ["b"], "properties": {"b": {"$ref": "#/components/schemas/Deep2"}}},
    "Deep2": {"type": "object", "required": ["c"], "properties": {"c": {"$ref": "#/components/schemas/Deep3"}}},
    "Deep3": {"type": "object", "required": ["d"], "properties": {"d": {"$ref": "#/components/schemas/Deep4"}}},
    "Deep4": {"type": "object", "required": ["e", "url", "count", "flags"], "properties": {
        "e": {"$ref": "#/components/schemas/Deep5"}, "url": {"type": "string", "pattern": "^/v1/files/[0-9]+$"},
        "count": {"type": "integer", "minimum": 3}, "flags": {"type": "array", "minItems": 1, "items": {"type": "boolean"}}}},
    "Deep5": {"type": "object", "required": ["f", "g"], "properties": {"f": {"$ref": "#/components/schemas/Deep6"},
                                                                    "g": {"type": "string", "enum": ["on", "off"]}}},
    "Deep6": {"type": "object", "required": ["h", "list"], "properties": {"h": {"type": "string", "minLength": 3, "format": "uuid"},
                                                                        "list": {"type": "array", "minItems": 2, "items": {"$ref": "#/components/schemas/Deep6Item"}}}},
    "Deep6Item": {"type": "object", "required": ["id", "owner"], "properties": {"id": {"type": "string", "pattern": "^obj_[a-z]+$"},
                                                                               "owner": {"anyOf": [{"$ref": "#/components/schemas/Deep6Item"}, {"type": "string", "pattern": "^usr_"}]}}},
    "Node": {"type": "object", "required": ["name", "children"],
             "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}},
                            "kind": {"oneOf": [{"type": "string", "enum": ["file"]}, {"type": "integer"}]},
                            "when": {"type": "string", "format": "date-time"}}},
}

SPEC = {
    "openapi": "3.1.0", "info": {"title": "Schemas only", "version": "1"},
    "paths": {
        "/v1/account": {"get": {"operationId": "getAccount", "responses": {"200": {"description": "ok", "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/Account"}}}}}}},
        "/v1/tree": {"get": {"operationId": "getTree", "responses": {"200": {"description": "ok", "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}}}}},
        "/v1/deep": {"get": {"operationId": "getDeep", "responses": {"200": {"description": "ok", "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/Deep"}}}}}}},
        "/v1/list": {"get": {"operationId": "list", "responses": {"200": {"description": "ok", "content": {
            "application/json": {"schema": {"type": "object", "required": ["data", "has_more"], "properties": {
                "data": {"type": "array", "items": {"$ref": "#/components/schemas/Account"}}, "has_more": {"type": "boolean"}}}}}}}}},
    },
    "components": {"schemas": SCHEMAS},
}

QUIRKS = {
    "openapi": "3.1.0", "info": {"title": "OpenAI-like", "version": "2"},
    "paths": {"/threads/{thread_id}/runs?beta=true": {"get": {"operationId": "listRuns", "parameters": [
        {"name": "thread_id", "in": "path", "required": True, "schema": {"type": "string"}}],
        "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
            "type": "object", "required": ["temperature"],
            "properties": {"temperature": {"type": "number", "minimum": 0, "exclusiveMinimum": True, "maximum": 2}}}}}}}}}},
}


def main():
    failures = []

    def check(condition, what):
        print(("ok   " if condition else "FAIL ") + what)
        if not condition:
            failures.append(what)

    folder = tempfile.mkdtemp()
    spec = os.path.join(folder, "schemas.json")
    with open(spec, "w") as file:
        json.dump(SPEC, file)
    outputs = []
    for run in (1, 2):
        out = os.path.join(folder, f"out{run}")
        done = subprocess.run([BINARY, "import", "openapi", spec, "--out", out], capture_output=True, text=True)
        check(done.returncode == 0, f"import {run} ({done.returncode}) {done.stderr.strip()[:200]}")
        outputs.append({name: open(os.path.join(out, name)).read() for name in sorted(os.listdir(out))} if done.returncode == 0 else {})
        if run == 1:
            generated = done.stderr.count("body generated from the schema")
            check(generated == 4, f"the report marks the 4 bodies as generated ({generated})")
    check(outputs[0] == outputs[1] and outputs[0], "the same spec gives the same files (deterministic)")

    stubd = Stubd(BINARY, os.path.join(folder, "out1"), "--quiet")
    try:
        for path, schema in (("/v1/account", {"$ref": "#/components/schemas/Account"}), ("/v1/tree", {"$ref": "#/components/schemas/Node"}),
                             ("/v1/deep", {"$ref": "#/components/schemas/Deep"}),
                             ("/v1/list", SPEC["paths"]["/v1/list"]["get"]["responses"]["200"]["content"]["application/json"]["schema"])):
            with urllib.request.urlopen(stubd.base + path, timeout=5) as answer:
                body = json.loads(answer.read())
            document = dict(schema, components={"schemas": SCHEMAS})
            try:
                jsonschema.Draft202012Validator(document, format_checker=jsonschema.FormatChecker()).validate(body)
                check(True, f"GET {path}: {json.dumps(body)[:90]}… validates against its schema")
            except jsonschema.ValidationError as error:
                check(False, f"GET {path}: {error.message} at {list(error.absolute_path)}\n     {json.dumps(body)[:300]}")
    finally:
        stubd.stop()

    quirks = os.path.join(folder, "quirks.json")
    with open(quirks, "w") as file:
        json.dump(QUIRKS, file)
    done = subprocess.run([BINARY, "import", "openapi", quirks, "--out", os.path.join(folder, "quirks-out")], capture_output=True, text=True)
    check(done.returncode == 0 and "boolean exclusiveMinimum" in done.stderr and "served on the path alone: /threads/{thread_id}/runs" in done.stderr,
          f"the OpenAI quirks are read with a warning each ({done.returncode}): {done.stderr.strip()[:300]}")
    if failures:
        print(f"schema_bodies_test: {len(failures)} failed")
        sys.exit(1)
    print("schema_bodies_test: all passed")


if __name__ == "__main__":
    main()
