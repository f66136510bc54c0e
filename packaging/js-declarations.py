"""The JavaScript kit's declarations of admin bodies, from the admin API's document.

An interface in kits/js/src/index.d.ts whose comment names `docs/admin-api.openapi.json's NAME`
is written from that schema (each member, its type, `?` when optional, its description), so a
member added to a Swift body's field table (`WireTable`) reaches the kit with no hand edit.
Tests/admin/spec_test.py checks that the document is what `stubd admin-spec` prints.

Usage: python3 packaging/js-declarations.py           (check: exit 1 naming the fix)
       python3 packaging/js-declarations.py --write   (rewrite the declarations)
"""
import json
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DOCUMENT = os.path.join(ROOT, "docs", "admin-api.openapi.json")
DECLARATIONS = os.path.join(ROOT, "kits", "js", "src", "index.d.ts")
MARKED = re.compile(r"/\*\* (?P<about>[^\n]*?)\(docs/admin-api\.openapi\.json's (?P<name>\w+)\)\. \*/\n"
                    r"export interface (?P=name) \{\n.*?\n\}\n", re.S)


def typescript(schema):
    kind = schema.get("type")
    if kind == "string":
        return "string"
    if kind in ("integer", "number"):
        return "number"
    if kind == "boolean":
        return "boolean"
    if kind == "array":
        item = schema.get("items", {})
        if item.get("type") == "array":
            return "Array<[string, string]>"
        return f"Array<{typescript(item)}>"
    return "unknown"


def interface(about, name, schema):
    required = set(schema.get("required", []))
    lines = [f"/** {about}(docs/admin-api.openapi.json's {name}). */", f"export interface {name} {{"]
    for member, shape in schema["properties"].items():
        if shape.get("description"):
            lines.append(f"  /** {shape['description']} */")
        lines.append(f"  {member}{'' if member in required else '?'}: {typescript(shape)};")
    lines.append("  /** Members a newer stubd sends. */")
    lines.append("  [other: string]: unknown;")
    return "\n".join(lines) + "\n}\n"


def main():
    with open(DOCUMENT) as handle:
        schemas = json.load(handle)["components"]["schemas"]
    with open(DECLARATIONS) as handle:
        text = handle.read()
    found = []

    def rewrite(match):
        name = match.group("name")
        if name not in schemas:
            sys.exit(f"kits/js/src/index.d.ts: {name}: no such schema in docs/admin-api.openapi.json")
        found.append(name)
        return interface(match.group("about"), name, schemas[name])

    generated = MARKED.sub(rewrite, text)
    if not found:
        sys.exit("kits/js/src/index.d.ts: no interface names docs/admin-api.openapi.json's schema")
    if "--write" in sys.argv[1:]:
        with open(DECLARATIONS, "w") as handle:
            handle.write(generated)
        print(f"js-declarations: wrote {', '.join(found)}")
    elif generated != text:
        sys.exit(f"kits/js/src/index.d.ts: {', '.join(found)}: not as docs/admin-api.openapi.json: "
                 "run `python3 packaging/js-declarations.py --write` and commit it")
    else:
        print(f"js-declarations: {', '.join(found)}: as the document says")


main()
