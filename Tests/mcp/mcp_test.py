"""`stubd mcp` with PyPI's MCP client (the `mcp` package) over stdio (issue 48): the handshake,
tools/list, and each tool called against a real stubd — stubbing by example and the app's request
answered in the session, misses with their closest route, the snapshot, a fixture file read from
--fixtures (and one outside it refused), save_fixture written only with --allow-write,
verify_drift against --upstream, a session it did not open refused, end_session; no session of
another test (a kit's, a proxy device's) opened by its name, nothing written through a link (issue 58).

Usage: python3 Tests/mcp/mcp_test.py path/to/stubd
"""
import asyncio
import json
import os
import sys
import tempfile
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
from stubd_server import Stubd  # noqa: E402

from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402


def fail(message):
    print(f"FAIL {message}")
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def folder_with(routes, name="routes.json"):
    folder = tempfile.mkdtemp(prefix="stubd-mcp-")
    with open(os.path.join(folder, name), "w") as handle:
        json.dump({"routes": routes}, handle)
    return folder


def admin(base, method, path, body, session):
    request = urllib.request.Request(base + "/__stubd/" + path, method=method, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", "X-Stubd-Session": session})
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def proxied(proxy_port, session, path):
    """GET http://api.victim.example<path> through stubd's proxy as the device `session` (its credentials)."""
    import base64
    import socket
    with socket.create_connection(("127.0.0.1", proxy_port), timeout=5) as connection:
        credentials = base64.b64encode(f"{session}:x".encode()).decode()
        connection.sendall(f"GET http://api.victim.example{path} HTTP/1.1\r\nHost: api.victim.example\r\n"
                           f"Proxy-Authorization: Basic {credentials}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := connection.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), body.decode()


def get(url, session=None):
    request = urllib.request.Request(url, headers={"X-Stubd-Session": session} if session else {})
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


async def call(client, tool, **arguments):
    result = await client.call_tool(tool, arguments)
    return result.content[0].text, result.is_error


async def run(binary, stubd, upstream, fixtures, secret_folder):
    params = StdioServerParameters(command=binary, args=["mcp", "--url", stubd.base, "--fixtures", fixtures,
                                                         "--upstream", upstream.base, "--allow-write"])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as client:
            info = await client.initialize()
            check(info.server_info.name == "stubd", f"server_info: {info.server_info}")
            tools = sorted(tool.name for tool in (await client.list_tools()).tools)
            expected = sorted(["open_session", "list_routes", "stub_request", "stub_fixture", "save_fixture", "read_misses",
                               "read_snapshot", "verify_drift", "end_session"])
            check(tools == expected, f"tools/list: {tools}")
            print(f"ok   handshake ({info.protocol_version}) and tools/list: {len(tools)} tools")

            text, error = await call(client, "open_session")
            check(not error, text)
            session = json.loads(text)["session"]
            check(session.startswith("mcp-"), text)

            text, error = await call(client, "stub_request", session=session, method="GET", path="/users/octocat",
                                     status=200, json={"login": "octocat"})
            check(not error and "added" in text, f"stub_request: {text}")
            status, body = get(stubd.base + "/users/octocat", session)
            check(status == 200 and json.loads(body) == {"login": "octocat"}, f"the stub in the session: {status} {body}")
            status, _ = get(stubd.base + "/users/octocat")
            check(status == 404, f"outside the session the stub is not seen: {status}")
            print("ok   stub_request: the app's request in the session gets the answer; outside it, not")

            get(stubd.base + "/users/octocats", session)
            text, error = await call(client, "read_misses", session=session)
            check(not error and "GET /users/octocats → closest:" in text, f"read_misses: {text}")
            text, error = await call(client, "read_snapshot", session=session)
            check(not error and text.startswith("GET /users/octocat\n") and "GET /users/octocats" in text, f"read_snapshot: {text}")
            text, error = await call(client, "list_routes", session=session)
            check(not error and "GET /users/octocat → 200, 1 hit (this session)" in text and "GET /health" in text,
                  f"list_routes: {text}")
            print("ok   read_misses (closest route), read_snapshot, list_routes")

            text, error = await call(client, "stub_fixture", session=session, file="extra/orders.json")
            check(not error and "added" in text, f"stub_fixture: {text}")
            status, _ = get(stubd.base + "/orders", session)
            check(status == 201, f"the fixture file's route in the session: {status}")
            for outside in ["../secret.json", "/etc/passwd", "extra/../../secret.json", "link/secret.json"]:
                text, error = await call(client, "stub_fixture", session=session, file=outside)
                check(error and ("outside" in text or "no " in text), f"stub_fixture {outside}: {text}")
            print("ok   stub_fixture reads inside --fixtures only (.., absolute and symbolic-link paths refused)")

            text, error = await call(client, "save_fixture", session=session, file="saved.json")
            check(not error, f"save_fixture: {text}")
            with open(os.path.join(fixtures, "saved.json")) as handle:
                saved = json.load(handle)
            check(len(saved["routes"]) == 2, f"saved: {saved}")
            text, error = await call(client, "save_fixture", session=session, file="saved.json")
            check(error and "overwrite" in text, f"save_fixture again: {text}")
            text, error = await call(client, "save_fixture", session=session, file="../saved.json")
            check(error, f"save_fixture outside: {text}")
            # Issue 58: a link to a folder elsewhere, and a link in the file's place, lead nowhere.
            text, error = await call(client, "save_fixture", session=session, file="link/planted.json")
            check(error and not os.path.exists(os.path.join(secret_folder, "planted.json")),
                  f"save_fixture through a symbolic link to a folder outside: {text}")
            print("ok   save_fixture writes the session's stubs into --fixtures (no overwrite unless asked, nothing outside, "
                  "nothing through a link)")

            # Issue 58: naming a kit's session (made over the admin API) or a device's session (the
            # proxy's credentials) opens a fresh session of the agent's own, never the other one.
            for victim in ["kit-checkout-1", "device-a"]:
                added = admin(stubd.base, "POST", "routes", {"request": {"method": "GET", "path": "/victim", "host": "api.victim.example"},
                                                             "response": {"json": {"owner": victim}}}, victim)
                check(added[0] == 201, f"the victim's stub in session {victim}: {added}")
                text, error = await call(client, "open_session", name=victim)
                opened = json.loads(text)["session"] if not error else ""
                check(not error and opened != victim and opened.startswith(victim + "-") and "prefix" in text,
                      f"open_session name={victim} gives a fresh session: {text}")
                text, error = await call(client, "list_routes", session=opened)
                check(not error and "/victim" not in text, f"its list_routes does not show {victim}'s stub: {text}")
                text, error = await call(client, "list_routes", session=victim)
                check(error and "not opened by this server" in text, f"{victim} itself is refused: {text}")
                text, error = await call(client, "end_session", session=opened)
                check(not error, text)
            status, body = get(stubd.base + "/victim", "kit-checkout-1")
            check(status == 200 and json.loads(body) == {"owner": "kit-checkout-1"}, f"the kit session's stub still answers: {status} {body}")
            status, body = proxied(stubd.proxy_port, "device-a", "/victim")
            check(status == 200 and json.loads(body) == {"owner": "device-a"}, f"the proxy session's stub still answers through the proxy: {status} {body}")
            print("ok   open_session with another test's name (a kit's, a proxy device's) opens a fresh session; theirs stay untouched")

            text, error = await call(client, "verify_drift")
            check(not error and "drifted" in text and "$.plan" in text, f"verify_drift: {text}")
            print("ok   verify_drift asks --upstream and reports the drift")

            text, error = await call(client, "list_routes", session="someone-else")
            check(error and "not opened by this server" in text, f"a session it did not open: {text}")
            text, error = await call(client, "end_session", session=session)
            check(not error, text)
            status, _ = get(stubd.base + "/users/octocat", session)
            check(status == 404, f"after end_session the stub is gone: {status}")
            text, error = await call(client, "read_snapshot", session=session)
            check(error, f"an ended session is refused: {text}")
            print("ok   sessions it did not open (or ended) are refused; end_session removes the stubs")

    params = StdioServerParameters(command=binary, args=["mcp", "--url", stubd.base, "--fixtures", fixtures])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as client:
            await client.initialize()
            tools = [tool.name for tool in (await client.list_tools()).tools]
            check("save_fixture" not in tools, f"without --allow-write: {tools}")
            text, error = await call(client, "open_session")
            session = json.loads(text)["session"]
            text, error = await call(client, "save_fixture", session=session, file="other.json")
            check(error and "--allow-write" in text, f"save_fixture without --allow-write: {text}")
            text, error = await call(client, "verify_drift")
            check(error and "--upstream" in text, f"verify_drift without --upstream: {text}")
            check(not os.path.exists(os.path.join(fixtures, "other.json")), "nothing written without --allow-write")
    print("ok   without --allow-write there is no save_fixture and nothing is written; without --upstream no verify_drift")


async def documented_settings(binary, stubd, fixtures):
    """docs/AGENTS.md's settings block as written: its command (stubd, here the binary under test) and
    arguments (its URL, here the test's stubd; its fixtures folder, here the test's)."""
    page = open(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "AGENTS.md")).read()
    block = page.split("<!-- snippet: tested by Tests/mcp/mcp_test.py -->\n```json\n", 1)[1].split("```", 1)[0]
    server = json.loads(block)["mcpServers"]["stubd"]
    check(server["command"] == "stubd", f"docs/AGENTS.md's command: {server}")
    args = [stubd.base if arg == "http://127.0.0.1:8080" else fixtures if arg == "fixtures" else arg for arg in server["args"]]
    async with stdio_client(StdioServerParameters(command=binary, args=args)) as (read, write):
        async with ClientSession(read, write) as client:
            await client.initialize()
            tools = [tool.name for tool in (await client.list_tools()).tools]
            text, error = await call(client, "open_session")
            check(not error and "open_session" in tools and "save_fixture" not in tools, f"the documented settings: {tools} {text}")
    print(f"ok   docs/AGENTS.md's settings block starts a server the client uses ({len(tools)} tools, no save_fixture)")


def main():
    binary = os.path.abspath(sys.argv[1])
    served = folder_with([{"request": {"method": "GET", "path": "/health"}, "response": {"json": {"ok": True}}}])
    fixtures = folder_with([{"request": {"method": "GET", "path": "/plan"}, "response": {"json": {"plan": "free", "id": 1}}}])
    os.makedirs(os.path.join(fixtures, "extra"))
    with open(os.path.join(fixtures, "extra", "orders.json"), "w") as handle:
        json.dump({"routes": [{"request": {"method": "GET", "path": "/orders"}, "response": {"status": 201}}]}, handle)
    secret_folder = tempfile.mkdtemp(prefix="stubd-mcp-outside-")
    with open(os.path.join(secret_folder, "secret.json"), "w") as handle:
        json.dump({"routes": [{"request": {"method": "GET", "path": "/secret"}, "response": {"status": 200}}]}, handle)
    os.symlink(secret_folder, os.path.join(fixtures, "link"))
    real = folder_with([{"request": {"method": "GET", "path": "/plan"}, "response": {"json": {"id": 1}}}])
    stubd = Stubd(binary, served, "--proxy-port", "0", "--ca-dir", tempfile.mkdtemp(prefix="stubd-mcp-ca-"))
    stubd.proxy_port = int(next(line for line in stubd.banner if "proxy on http://127.0.0.1:" in line)
                           .split("proxy on http://127.0.0.1:", 1)[1].split(":", 1)[0])
    upstream = Stubd(binary, real, "--quiet")
    try:
        asyncio.run(run(binary, stubd, upstream, fixtures, secret_folder))
        asyncio.run(documented_settings(binary, stubd, fixtures))
    finally:
        stubd.stop()
        upstream.stop()


if __name__ == "__main__":
    main()
