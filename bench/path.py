#!/usr/bin/env python3
"""How long the request path is: for one request of each kind — a hit, a miss, a miss forwarded
to an upstream, a route that sends a webhook — the stubd functions that run for it and the source
folders they live in, counted by callgrind on a release build.

    python3 bench/path.py .build/release/stubd [BASELINE_STUBD [BASELINE_SOURCES]]

Each binary runs under callgrind with instrumentation off; after warm-up requests, instrumentation
is switched on for one request of the kind (and, for a webhook, until it has been delivered), then
for an idle window of the same length; functions seen in the idle window (timers, the loop's own
ticks) are not counted. A function is counted when its Swift symbol names one of stubd's modules;
its folder is the folder under Sources/ where its type is declared (found in SOURCES, default the
checkout this script is in). Figures only: it never fails on a count.
"""
import json, os, re, shutil, signal, socket, subprocess, sys, tempfile, time, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULES = ["StubServer", "StubdMatching", "StubdProxy", "StubdHTTP", "StubdState", "StubdTemplates", "StubdStreams", "StubdCollections", "StubdWebSockets", "StubdWebhooks", "StubdEngine", "AdminAPI", "AdminContract", "Dashboard", "StubdRuntime", "StubModel",
           "FixtureFiles", "Recording", "StubdSystem", "TargetModel", "StubdCommands", "StubdCLI", "TargetServing", "StubdCertificates", "Importers"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(port, timeout=120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/__stubd/health", timeout=2).read()
            return
        except Exception:
            time.sleep(0.2)
    raise SystemExit(f"path: stubd on {port} did not answer in {timeout} s")


def send(port, method, path, body=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method, data=body,
                                     headers={"Content-Type": "application/json"} if body else {})
    try:
        urllib.request.urlopen(request, timeout=30).read()
    except urllib.error.HTTPError as error:
        error.read()


def declarations(sources):
    """Type name -> folder under Sources/ (module/subfolder) where it is declared."""
    found = {}
    pattern = re.compile(r"^\s*(?:public |package |private |fileprivate |final |internal |@\w+ )*(?:class|struct|enum|protocol|actor) (\w+)", re.M)
    for folder, _, files in os.walk(os.path.join(sources, "Sources")):
        for name in files:
            if name.endswith(".swift"):
                text = open(os.path.join(folder, name), encoding="utf-8", errors="replace").read()
                relative = os.path.relpath(folder, os.path.join(sources, "Sources"))
                for match in pattern.finditer(text):
                    found.setdefault(match.group(1), relative)
    return found


def functions(dump):
    """Names of functions with instructions in a callgrind dump."""
    out = subprocess.run(["callgrind_annotate", "--threshold=100", dump], capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        m = re.match(r"\s*[\d,]+ \([^)]*\)\s+(?:\S+:)?(\S.*)$", line) or re.match(r"\s*[\d,]+\s+(?:\S+:)?(\S.*)$", line)
        if m:
            names.add(m.group(1).strip())
    return names


def demangle(names):
    mangled = [n for n in names if n.startswith("$s")]
    if not mangled:
        return {}
    out = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(mangled), capture_output=True, text=True).stdout
    return dict(zip(mangled, out.splitlines()))


# Code the compiler writes (copies, destroys, metadata, thunks) is not a step of the path.
GENERATED = re.compile(r"^(outlined |type metadata|lazy protocol witness|protocol witness|destroy for|initializeWithCopy|initializeWithTake|"
                       r"assignWith|getEnumTag|storeEnumTag|reabstraction thunk|partial apply|@objc |value witness|merged |"
                       r".*deinit$|.*__deallocating_deinit$|.*unsafeMutableAddressor$)")


def ours(symbol, readable, types):
    """(function, folder) for a function of one of stubd's modules written in its source, else None."""
    m = re.match(r"\$s(\d+)(\w+)", symbol)
    if not m:
        return None
    length = int(m.group(1))
    module = m.group(2)[:length]
    if module not in MODULES:
        return None
    text = re.sub(r" \[[^\]]*\]$", "", readable)
    text = re.sub(r"^(specialized |generic specialization <[^>]*> of )+", "", text)
    if GENERATED.match(text):
        return None
    text = text.split(" in ")[-1] if text.startswith(("closure", "implicit closure")) else text
    parts = re.findall(r"\b([A-Z]\w*)\.", text)
    folder = module
    for part in parts:
        if part != module and part in types and types[part].split(os.sep)[0] == module:
            folder = types[part]
            break
    return text, folder


def window(binary, folder, scenario, upstream_port):
    port = free_port()
    dumps = tempfile.mkdtemp(prefix="stubd-path-")
    args = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={dumps}/cg.%p",
            binary, "serve", folder, "--port", str(port), "--workers", "1", "--quiet", "--no-cors"]
    if scenario == "forwarded miss":
        args += ["--proxy-unmatched", f"http://127.0.0.1:{upstream_port}"]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_ready(port)
        request = {"hit": ("GET", "/zen", None), "miss": ("GET", "/zen/nothing", None),
                   "forwarded miss": ("GET", "/upstream/zen", None), "webhook route": ("POST", "/pay", b"{}")}[scenario]
        for _ in range(5):
            send(port, *request)
        time.sleep(3 if scenario == "webhook route" else 0.5)

        def measure(act):
            subprocess.run(["callgrind_control", "-z", str(process.pid)], capture_output=True)
            subprocess.run(["callgrind_control", "-i", "on", str(process.pid)], capture_output=True)
            started = time.time()
            act()
            if scenario == "webhook route":
                time.sleep(2.5)  # the webhook leaves after the answer; under valgrind it takes a moment
            subprocess.run(["callgrind_control", "-i", "off", str(process.pid)], capture_output=True)
            before = set(os.listdir(dumps))
            subprocess.run(["callgrind_control", "-d", str(process.pid)], capture_output=True)
            for _ in range(100):
                new = set(os.listdir(dumps)) - before
                if new:
                    time.sleep(0.3)
                    return functions(os.path.join(dumps, sorted(new)[-1])), time.time() - started
                time.sleep(0.1)
            raise SystemExit("path: callgrind wrote no dump")

        busy, seconds = measure(lambda: send(port, *request))
        idle, _ = measure(lambda: time.sleep(seconds))
        return busy - idle
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        shutil.rmtree(dumps, ignore_errors=True)


def label_of(binary):
    return os.path.basename(os.path.dirname(os.path.dirname(os.path.dirname(binary)))) or binary


def count(binary, sources, upstream_port):
    types = declarations(sources)
    folder = tempfile.mkdtemp(prefix="stubd-path-fixtures-")
    json.dump({"routes": [
        {"name": "zen", "request": {"method": "GET", "path": "/zen"}, "response": {"headers": {"Content-Type": "text/plain"}, "text": "Design for failure."}},
        {"name": "pay", "request": {"method": "POST", "path": "/pay"}, "response": {"status": 202, "headers": {"Content-Type": "text/plain"}, "text": "pending"},
         "webhooks": [{"url": f"http://127.0.0.1:{upstream_port}/hooks", "text": "paid"}]},
    ]}, open(os.path.join(folder, "path.json"), "w"))
    stripped = os.path.join(folder, "stubd")
    subprocess.run(["objcopy", "--strip-debug", binary, stripped], check=True)
    rows = {}
    for scenario in ["hit", "miss", "forwarded miss", "webhook route"]:
        names = window(stripped, folder, scenario, upstream_port)
        readable = demangle(names)
        seen = {}
        for name in names:
            found = ours(name, readable.get(name, name), types)
            if found:
                seen[found[0]] = found[1]
        rows[scenario] = (len(seen), sorted(set(seen.values())))
        if os.environ.get("PATH_LIST"):
            for function, where in sorted(seen.items(), key=lambda item: item[1]):
                print(f"  {label_of(binary)} {scenario}: {where}: {function[:160]}")
    shutil.rmtree(folder, ignore_errors=True)
    return rows


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    if not shutil.which("valgrind"):
        subprocess.run(["apt-get", "install", "-y", "-qq", "valgrind"], check=True)
    # The upstream for the forwarded miss and the webhook: a plain stubd (not measured).
    upstream_folder = tempfile.mkdtemp(prefix="stubd-path-upstream-")
    json.dump({"routes": [{"request": {"method": "GET", "pathTemplate": "/upstream/{x}"}, "response": {"text": "from upstream"}},
                          {"request": {"method": "POST", "path": "/hooks"}, "response": {"status": 204}}]},
              open(os.path.join(upstream_folder, "up.json"), "w"))
    upstream_port = free_port()
    upstream = subprocess.Popen([sys.argv[1], "serve", upstream_folder, "--port", str(upstream_port), "--quiet"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_ready(upstream_port)
        runs = [("this build", sys.argv[1], ROOT)]
        if len(sys.argv) > 2:
            runs.append(("baseline", sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(sys.argv[2]))))))
        results = [(label, count(binary, sources, upstream_port)) for label, binary, sources in runs]
    finally:
        upstream.terminate()
        upstream.wait()
        shutil.rmtree(upstream_folder, ignore_errors=True)
    print("| request | " + " | ".join(f"{label}: functions | {label}: folders" for label, _ in results) + " |")
    print("|---|" + "---|---|" * len(results))
    for scenario in ["hit", "miss", "forwarded miss", "webhook route"]:
        cells = []
        for _, rows in results:
            functions_count, folders = rows[scenario]
            cells += [str(functions_count), str(len(folders))]
        print(f"| {scenario} | " + " | ".join(cells) + " |")
    for label, rows in results:
        for scenario, (_, folders) in rows.items():
            print(f"{label}, {scenario}: {', '.join(folders)}")


if __name__ == "__main__":
    main()
