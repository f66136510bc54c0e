#!/usr/bin/env python3
"""The module map, kept true where SwiftPM does not: a module can `import` any module built before
it, declared or not (a three-target probe showed a module two levels up compiling `import
CLibevent`). So this check, run by `make test`, holds every Swift file to Package.swift:

1. a file imports only the package modules its target declares as dependencies;
2. the C modules are dependencies of their one home each: libevent of StubdEngine, OpenSSL of
   StubdCertificates (and CStubdTLS, shared with the engine), zlib of Recording, nghttp2 of
   StubdHTTP2;
3. the answer kinds (StubdState, StubdTemplates, StubdStreams, StubdCollections, StubdWebSockets)
   depend on nothing above the serving core and do not name its types (Route, Exchange, SessionStore,
   StubHandler): they take an `OutcomeContext` and the small protocols beside it;
4. docs/ARCHITECTURE.md's module table gives every module under Sources/, with its real count of
   Swift files;
5. the plain `stubd` executable's modules (its dependency closure) leave out the Moya layer
   (TargetModel) and never import FoundationNetworking: URLSession's libcurl would come back into the
   static binary and the container image (11 MB of libraries);
6. `StubHandler.swift` assembles the request pipeline and names no feature: no type of GraphQL,
   WebSockets, the proxy, forwarding or upstreams, and no import of an answer kind — a feature
   comes in as a stage of `Pipeline` (Sources/StubServer/Pipeline/), never as a clause in the handler.

    python3 packaging/check-imports.py      # exits 1 naming each file, module or row to fix
"""
import json, os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
C_HOMES = {"CLibevent": {"StubdEngine", "CStubdEvent"}, "CLibeventTLS": {"StubdEngine"}, "CStubdTLS": {"StubdEngine", "StubdCertificates"},
           "CStubdEvent": {"StubdEngine"},
           "COpenSSL": {"StubdCertificates", "CStubdTLS"}, "CZlib": {"Recording"}, "CNghttp2": {"StubdHTTP2"}}
KINDS = ["StubdState", "StubdTemplates", "StubdStreams", "StubdCollections", "StubdWebSockets"]
ABOVE_CORE = {"StubServer", "AdminAPI", "Dashboard", "StubdWebhooks", "StubdRuntime", "TargetServing", "StubdCommands", "StubdCLI", "stubd"}
HANDLER = "Sources/StubServer/Server/StubHandler.swift"
FEATURE_TYPE = re.compile(r"\b[A-Z]\w*(?:GraphQL|WebSocket|Proxy|Forward|Upstream|Batch)\w*|\b(?:GraphQL|WebSocket|Proxy|Forward|Upstream|Batch)\w*")
CORE_TYPES = re.compile(r"\b(Route|Exchange|SessionStore|StubHandler)\b")
IMPORT = re.compile(r"^\s*(?:@testable\s+|@_exported\s+|public\s+|package\s+|internal\s+)*import\s+(?:struct\s+|enum\s+|class\s+)?(\w+)", re.M)


def package():
    out = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    targets = {}
    for target in json.loads(out)["targets"]:
        deps = set()
        for dependency in target.get("dependencies", []):
            (kind, value), = dependency.items()
            deps.add(value[0])
        default = "Tests" if target["type"] == "test" else "Sources"
        targets[target["name"]] = (target.get("path") or f"{default}/{target['name']}", deps, target["type"])
    return targets


def swift_files(folder):
    for base, _, names in os.walk(os.path.join(ROOT, folder)):
        for name in names:
            if name.endswith(".swift"):
                yield os.path.join(base, name)


def without_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//.*", "", text)


def main():
    targets = package()
    problems = []
    for name, (path, deps, kind) in sorted(targets.items()):
        if kind == "system":
            continue
        for file in swift_files(path):
            text = re.sub(r'""".*?"""', '""', open(file).read(), flags=re.S)  # a template's text is no import
            for imported in IMPORT.findall(text):
                if imported in targets and imported != name and imported not in deps:
                    problems.append(f"{os.path.relpath(file, ROOT)}: imports {imported}, which Package.swift does not give {name}: "
                                    f"add it to {name}'s dependencies if the map allows it, or move the code")
        for c_module, homes in C_HOMES.items():
            if c_module in deps and name not in homes:
                problems.append(f"Package.swift: {name} depends on {c_module}, whose only home is {' and '.join(sorted(homes))}")
    for name in KINDS:
        path, deps, _ = targets[name]
        for above in sorted(deps & ABOVE_CORE):
            problems.append(f"Package.swift: the answer kind {name} depends on {above}, which sits above the serving core")
        for file in swift_files(path):
            for number, line in enumerate(without_comments(open(file).read()).split("\n"), 1):
                found = CORE_TYPES.search(line)
                if found:
                    problems.append(f"{os.path.relpath(file, ROOT)}:{number}: the answer kind {name} names the core's {found.group(1)}; "
                                    "take what it needs through OutcomeContext, AnsweringRoute or ConversationSink")
    handler = without_comments(open(os.path.join(ROOT, HANDLER)).read())
    for number, line in enumerate(handler.split("\n"), 1):
        for found in FEATURE_TYPE.findall(line):
            problems.append(f"{HANDLER}:{number}: the handler names {found}; make it a stage of Pipeline (Sources/StubServer/Pipeline/) "
                            "and call it from Pipeline.decide, so the handler only assembles")
        for imported in IMPORT.findall(line):
            if imported in KINDS:
                problems.append(f"{HANDLER}:{number}: the handler imports the answer kind {imported}; the stage that uses it imports it")
    table = {}
    for line in open(os.path.join(ROOT, "docs/ARCHITECTURE.md")):
        row = re.match(r"^\| (\w+) \| (\d+)\b", line)
        if row:
            table[row.group(1)] = int(row.group(2))
    for name, (path, _, kind) in sorted(targets.items()):
        if not path.startswith("Sources/") or kind == "system":
            continue
        count = sum(1 for _ in swift_files(path))
        if count == 0:
            continue
        if name not in table:
            problems.append(f"docs/ARCHITECTURE.md: the module table has no row for {name} ({count} Swift files)")
        elif table[name] != count:
            problems.append(f"docs/ARCHITECTURE.md: the module table gives {name} {table[name]} Swift files; {path} has {count}")
    closure, todo = set(), ["stubd"]
    while todo:
        name = todo.pop()
        if name in closure or name not in targets:
            continue
        closure.add(name)
        todo += targets[name][1]
    if "TargetModel" in closure:
        problems.append("Package.swift: the plain stubd executable depends on TargetModel (through its dependencies); "
                        "reach Swift targets through SwiftTargetCatalog (StubdCommands) and keep the Moya layer in StubdCLI / TargetServing")
    for name in sorted(closure):
        for file in swift_files(targets[name][0]):
            if "FoundationNetworking" in IMPORT.findall(open(file).read()):
                problems.append(f"{os.path.relpath(file, ROOT)}: imports FoundationNetworking, which links libcurl into the plain stubd; "
                                "use the engine's CommandRequest (StubdEngine) instead of URLSession")
    for name in sorted(set(table) - set(targets)):
        problems.append(f"docs/ARCHITECTURE.md: the module table lists {name}, which Package.swift does not declare")
    if problems:
        print("\n".join(problems))
        print(f"check-imports: {len(problems)} problem(s)")
        return 1
    print(f"check-imports: {len(targets)} targets hold to Package.swift; the kinds stay below the core; "
          f"the plain stubd ({len(closure)} modules) has no Moya layer or FoundationNetworking; the handler names no feature; "
          "ARCHITECTURE's table matches the tree")
    return 0


sys.exit(main())
