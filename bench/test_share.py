#!/usr/bin/env python3
"""Prints how many of the Swift tests run without a socket or a child process: each @Test (or XCTest
`func test…`) is read with the helpers of its own suite, and counts as socket-bound when its body, or
a static helper of its suite it calls, starts a server on a port, runs a client or a program
(TestServer, KitServer, StubdServer.start, StubdProcess, ServingStubd, Curl, RawHTTP, HTTPFetch,
URLSession, PythonUpstream, connectLoopback, Process()). InMemoryStubd is socket-free.
Usage: python3 bench/test_share.py [Tests]"""
import pathlib, re, sys

MARKERS = re.compile(r"\b(TestServer|KitServer|StubdServer\.start|StubdProcess|ServingStubd|Curl\.|RawHTTP|HTTPFetch|URLSession|"
                     r"PythonUpstream|connectLoopback|Process\(\)|ExamplePackage|\.port\b)")
root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "Tests")


def functions(text):
    """(name, body, is_test) for every func in the file, bodies found by brace matching."""
    out = []
    for m in re.finditer(r"func\s+(\w+)[^{]*\{", text):
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        name = m.group(1)
        # The attributes between the previous declaration's end and this func.
        before = text[:m.start()]
        cut = max(before.rfind("}"), before.rfind("\n    func "), before.rfind("\nfunc "))
        is_test = "@Test" in before[cut + 1:] or (name.startswith("test") and "XCTestCase" in text)
        out.append((name, text[m.end():i], is_test))
    return out


total = bound = 0
per_target = {}
for path in sorted(root.rglob("*.swift")):
    if "Support" in path.parts:
        continue
    text = path.read_text()
    funcs = functions(text)
    helpers = {name: body for name, body, is_test in funcs if not is_test}
    # Stored helpers of the suite that hold a server (a `static let server = …`).
    suite_bound = bool(re.search(r"static (let|var) \w+ *= *(try!? )?(TestServer|ServingStubd|KitServer)", text))
    for name, body, is_test in funcs:
        if not is_test:
            continue
        seen, todo, uses = set(), [body], False
        while todo and not uses:
            chunk = todo.pop()
            if MARKERS.search(chunk):
                uses = True
                break
            for called in re.findall(r"\b(\w+)\(", chunk):
                if called in helpers and called not in seen:
                    seen.add(called)
                    todo.append(helpers[called])
        uses = uses or (suite_bound and re.search(r"\bSelf\.server\b|\bserver\b", body) is not None)
        target = path.relative_to(root).parts[0]
        t, b = per_target.get(target, (0, 0))
        per_target[target] = (t + 1, b + int(uses))
        total += 1
        bound += int(uses)
for target, (t, b) in sorted(per_target.items()):
    print(f"{target:22} {t - b:4} of {t:4} socket-free")
print(f"socket-free: {total - bound} of {total} tests ({100 * (total - bound) / total:.0f} %)")
