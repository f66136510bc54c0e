#!/usr/bin/env python3
"""Every Swift test suite carries exactly one depth tag (Tests/Tags/Depth.swift), and the tag is
true to what its file uses: a file that starts processes is `.process`, one that opens sockets is
`.socket` (or `.process`), anything else is `.inMemory`.

    python3 packaging/check-test-depth.py            # the check (make test): exits 1 naming each wrong suite
    python3 packaging/check-test-depth.py --filter   # the in-memory suites as a `swift test --filter` pattern (make check)
    python3 packaging/check-test-depth.py --apply    # tag every suite as the rules say (after adding tests)
"""
import os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join(ROOT, "Tests")
# What a file uses, by the helpers and APIs that reach outside the process or onto a socket.
PROCESS = re.compile(r"\b(StubdProcess|ServingStubd|PythonUpstream|Process\(\)|swiftBuild|RealWireMock|Curl\.run|Curl\.)")
SOCKET = re.compile(r"\b(TestServer|RawHTTP|RawWebSocket|HTTPFetch|URLSession|KitServer|StubdServer\.start|LibeventEngine|connectLoopback|"
                    r"baseURL:\s*server|\.port\b)")
TYPE = re.compile(r"^(@Suite(?:\((.*)\))?\s+)?(?:final class|class|struct|enum)\s+(\w+)")
SUITE = re.compile(r"^@Suite(\((.*)\))?\s*$")
TAG = re.compile(r"\.tags\(\.(inMemory|socket|process)\)")


def depth(text):
    if PROCESS.search(text):
        return "process"
    if SOCKET.search(text):
        return "socket"
    return "inMemory"


def suites(path):
    """(line index of the type, its name, line index of its @Suite or None) for each top-level type holding @Test;
    the @Suite is on the line before the type or opens the type's own line."""
    lines = open(path).read().split("\n")
    found = []
    for index, line in enumerate(lines):
        match = TYPE.match(line)
        if not match:
            continue
        end = next((j for j in range(index + 1, len(lines)) if lines[j].startswith("}")), len(lines))
        if not any("@Test" in l for l in lines[index:end]):
            continue
        suite = index if match.group(1) else index - 1 if index > 0 and SUITE.match(lines[index - 1]) else None
        found.append((index, match.group(3), suite))
    return lines, found


def files():
    for folder, _, names in os.walk(TESTS):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(folder, name)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "--check"
    problems, in_memory = [], []
    for path in files():
        text = open(path).read()
        lines, found = suites(path)
        if not found:
            continue
        wanted = depth(text)
        changed = False
        for index, name, suite in reversed(found):
            given = TAG.findall(lines[suite]) if suite is not None else []
            if wanted == "inMemory":
                in_memory.append(name)
            if given == [wanted]:
                continue
            if mode == "--apply":
                if suite is None:
                    lines.insert(index, f"@Suite(.tags(.{wanted}))")
                elif suite == index:
                    match = TYPE.match(lines[index])
                    args = TAG.sub("", match.group(2) or "").strip(", ")
                    lines[index] = f"@Suite({args + ', ' if args else ''}.tags(.{wanted})) " + lines[index][len(match.group(1)):]
                else:
                    args = SUITE.match(lines[suite]).group(2) or ""
                    args = TAG.sub("", args).strip(", ")
                    lines[suite] = f"@Suite({args + ', ' if args else ''}.tags(.{wanted}))"
                changed = True
            else:
                problems.append(f"{os.path.relpath(path, ROOT)}: suite {name}: tag it .tags(.{wanted}) (it has {given or 'none'})")
        if changed:
            if "import StubdTestTags" not in text:
                last = max(i for i, l in enumerate(lines) if l.startswith("import ") or l.startswith("@testable import "))
                lines.insert(last + 1, "import StubdTestTags")
            open(path, "w").write("\n".join(lines))
    if mode == "--filter":
        print("|".join(sorted(set(in_memory))))
        return 0
    if problems:
        print("\n".join(problems))
        print(f"check-test-depth: {len(problems)} suite(s) tagged wrong; `python3 packaging/check-test-depth.py --apply` tags them")
        return 1
    if mode == "--check":
        print(f"check-test-depth: every suite carries its depth tag ({len(in_memory)} in memory)")
    return 0


sys.exit(main())
