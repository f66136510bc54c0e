"""stubd in a container for Python tests: `StubdContainer` starts stubd's image (fixtures mounted
read-only at /fixtures, the admin API behind a token it makes), waits until stubd serves
(`GET /__stubd/ready`, the endpoint the image's HEALTHCHECK asks), and hands out sessions — each
test's own stubs, counts and journal, selected by the `X-Stubd-Session` header — as the Swift
kit's `StubdSession` does, so tests sharing one container can run in parallel.
"""
from __future__ import annotations

import json
import os
import secrets
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Optional

from testcontainers.core.container import DockerContainer
from testcontainers.core.wait_strategies import HttpWaitStrategy

__all__ = ["StubdContainer", "StubdSession", "StubdExpectationError"]

HTTP_PORT = 8080
HTTPS_PORT = 8443
SESSION_HEADER = "X-Stubd-Session"


class StubdExpectationError(AssertionError):
    """A session's expectation that did not hold; the message lists the session's requests that
    matched no stub, each with stubd's near miss (which field differed, and how)."""


class StubdContainer(DockerContainer):
    """stubd's image as a Testcontainers container.

    fixtures: a folder of fixture files mounted at /fixtures (None keeps the image's own — the
    demo fixtures, or those a derived image baked in). https: also serve HTTPS on 8443 with the
    container's CA (`ca_pem()` exports it). token: the admin token (a random one by default).
    extra_args: more `stubd serve` flags (`["--sessions-only"]`, `["--replay-speed", "max"]`).
    """

    def __init__(self, image: str = "stubd:latest", fixtures: Optional[str] = None, https: bool = False,
                 token: Optional[str] = None, extra_args: Optional[list[str]] = None, startup_timeout: float = 30, **kwargs: Any):
        self.token = token or secrets.token_hex(16)
        self.https = https
        args = (["--https-port", str(HTTPS_PORT)] if https else []) + list(extra_args or [])
        wait = HttpWaitStrategy(HTTP_PORT, "/__stubd/ready").for_status_code(200).with_startup_timeout(startup_timeout)
        super().__init__(image, env={"STUBD_ADMIN_TOKEN": self.token}, command=args or None, _wait_strategy=wait, **kwargs)
        self.with_exposed_ports(HTTP_PORT, *([HTTPS_PORT] if https else []))
        if fixtures is not None:
            self.with_volume_mapping(os.path.abspath(fixtures), "/fixtures", "ro")

    def start(self) -> "StubdContainer":
        """Starts the container and waits for stubd; on any failure after the container exists (a
        stubd that refuses its flags or fixtures, a wait that times out) the container is removed
        before the error propagates, so a failed `start()` outside a `with` leaves nothing running."""
        try:
            return super().start()
        except BaseException:
            if getattr(self, "_container", None) is not None:
                try:
                    self.stop()
                except Exception:  # the original failure is the one to report
                    pass
            raise

    @property
    def base_url(self) -> str:
        """Where clients send requests: http://HOST:PORT (no trailing slash)."""
        return f"http://{self.get_container_host_ip()}:{self.get_exposed_port(HTTP_PORT)}"

    @property
    def https_url(self) -> str:
        """The HTTPS base URL (with https=True); trust `ca_pem()` to verify it."""
        if not self.https:
            raise ValueError("start StubdContainer(https=True) to serve HTTPS")
        return f"https://localhost:{self.get_exposed_port(HTTPS_PORT)}"

    @property
    def admin_url(self) -> str:
        """The admin API's base: every call needs `Authorization: Bearer <token>` (sessions add it)."""
        return self.base_url + "/__stubd"

    def ca_pem(self) -> str:
        """The container's local CA certificate (PEM), what an HTTPS client must trust."""
        code, output = self.exec(["/usr/bin/stubd", "cert", "--pem", "-"])
        if code != 0:
            raise RuntimeError(f"stubd cert --pem - failed ({code}): {output!r}")
        return output.decode()

    def admin(self, method: str, path: str, body: Any = None, session: Optional[str] = None) -> Any:
        """One admin call (`path` after /__stubd/), its JSON answer; raises with stubd's message."""
        headers = {"Authorization": f"Bearer {self.token}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if session:
            headers[SESSION_HEADER] = session
        request = urllib.request.Request(f"{self.admin_url}/{path}", data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"{method} /__stubd/{path}: {error.code} {error.read().decode(errors='replace')}") from None

    def session(self, name: Optional[str] = None) -> "StubdSession":
        """A session of its own (a fresh id unless named): use as a context manager, which ends it."""
        return StubdSession(self, name or f"py-{secrets.token_hex(6)}")


class StubdSession:
    """One test's share of a stubd: stubs only its requests see, and its own journal and counts.
    Send `headers` (the session header) with every request the code under test makes."""

    def __init__(self, container: StubdContainer, session_id: str):
        self.container = container
        self.id = session_id

    @property
    def headers(self) -> dict[str, str]:
        """The header that puts a request in this session."""
        return {SESSION_HEADER: self.id}

    def stub(self, method: str, path: str, status: int = 200, *, json: Any = None, text: Optional[str] = None,
             headers: Optional[dict[str, str]] = None, request: Optional[dict] = None) -> str:
        """Adds a route for this session only; its id. `request` adds fixture-format matchers
        (query, headers, body) to the method and path."""
        response: dict[str, Any] = {"status": status}
        if json is not None:
            response["json"] = json
        if text is not None:
            response["text"] = text
        if headers:
            response["headers"] = headers
        route = {"request": {"method": method, "path": path, **(request or {})}, "response": response}
        return self.container.admin("POST", "routes", route, session=self.id)["added"][0]

    def requests(self, **filters: str) -> list[dict]:
        """The session's journal entries (filters: method, path, route, matched)."""
        query = urllib.parse.urlencode(filters)
        return self.container.admin("GET", "requests" + (f"?{query}" if query else ""), session=self.id)["requests"]

    def count(self, method: Optional[str] = None, path: Optional[str] = None) -> int:
        """How many of the session's requests match (re-sends after a fault not counted)."""
        return sum(1 for entry in self.requests(**_filters(method, path)) if not entry.get("resend"))

    def expect(self, count: int, method: Optional[str] = None, path: Optional[str] = None) -> None:
        """Fails with the session's near misses unless exactly `count` requests matched."""
        actual = self.count(method, path)
        if actual == count:
            return
        misses = [f"  {entry['method']} {entry['url']}" + (f" → {entry['nearMiss']}" if entry.get("nearMiss") else "")
                  for entry in self.requests(matched="false")]
        shown = " ".join(filter(None, [method, path])) or "any request"
        raise StubdExpectationError(f"session {self.id}: expected {count} × {shown}, got {actual}"
                                    + ("\nrequests that matched no stub:\n" + "\n".join(misses) if misses else ""))

    def end(self) -> None:
        """Forgets the session's routes, journal and state."""
        self.container.admin("POST", "reset", session=self.id)

    def __enter__(self) -> "StubdSession":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.end()


def _filters(method: Optional[str], path: Optional[str]) -> dict[str, str]:
    found = {"matched": "true"}
    if method:
        found["method"] = method
    if path:
        found["path"] = path
    return found
