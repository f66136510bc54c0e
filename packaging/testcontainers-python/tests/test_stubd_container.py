"""The module against stubd's image through a Docker-compatible API (Podman's socket in stubd's
`make test`; DOCKER_HOST says where). Testcontainers' reaper (Ryuk) cannot be pulled there:
TESTCONTAINERS_RYUK_DISABLED=true, and the module's own stop removes the container (checked).

    IMAGE=stubd:latest python3 -m unittest discover -s packaging/testcontainers-python/tests
"""
import json
import os
import ssl
import sys
import tempfile
import threading
import unittest
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from stubd_testcontainers import StubdContainer, StubdExpectationError  # noqa: E402

IMAGE = os.environ.get("IMAGE", "stubd:latest")


def get(url, headers=None, context=None):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=5, context=context) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


class StubdContainerTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp()
        os.chmod(cls.folder, 0o755)  # the image's user (65532) reads it; mkdtemp makes it 0700
        with open(os.path.join(cls.folder, "hello.json"), "w") as file:
            json.dump({"routes": [{"request": {"method": "GET", "path": "/hello"}, "response": {"status": 200, "text": "hi"}}]}, file)
        cls.stubd = StubdContainer(IMAGE, fixtures=cls.folder, https=True)
        cls.stubd.start()
        cls.container_id = cls.stubd.get_wrapped_container().id

    @classmethod
    def tearDownClass(cls):
        client = cls.stubd.get_docker_client().client
        cls.stubd.stop()
        ids = [container.id for container in client.containers.list(all=True)]
        assert cls.container_id not in ids, "stop() left the container behind"

    def test_fixtures_served_and_admin_needs_the_token(self):
        self.assertEqual(get(self.stubd.base_url + "/hello"), (200, "hi"))
        self.assertEqual(get(self.stubd.admin_url + "/health")[0], 401)
        self.assertEqual(self.stubd.admin("GET", "health")["fixtureRoutes"], 1)

    def test_sessions_in_parallel_each_see_their_own_stub_and_count(self):
        errors = []

        def one(index):
            try:
                with self.stubd.session() as session:
                    session.stub("GET", "/v1/me", json={"id": index})
                    for _ in range(index % 3 + 1):
                        status, text = get(self.stubd.base_url + "/v1/me", session.headers)
                        if status != 200 or json.loads(text) != {"id": index}:
                            errors.append(f"session {index}: {status} {text}")
                    session.expect(index % 3 + 1, method="GET", path="/v1/me")
            except Exception as error:  # collected: a thread's failure must fail the test
                errors.append(f"session {index}: {error}")

        threads = [threading.Thread(target=one, args=(index,)) for index in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        self.assertEqual(errors, [])
        self.assertEqual(get(self.stubd.base_url + "/v1/me")[0], 404, "a session's stub is not seen without the session")

    def test_expect_fails_with_the_near_miss(self):
        with self.stubd.session() as session:
            session.stub("GET", "/v1/items", request={"query": {"page": "2"}}, json=[])
            get(self.stubd.base_url + "/v1/items?page=3", session.headers)
            with self.assertRaises(StubdExpectationError) as failure:
                session.expect(1, method="GET", path="/v1/items")
            message = str(failure.exception)
            self.assertIn("expected 1", message)
            self.assertIn("/v1/items?page=3", message)
            self.assertIn("page", message.split("→", 1)[-1])

    def test_https_with_the_exported_ca(self):
        context = ssl.create_default_context(cadata=self.stubd.ca_pem())
        self.assertEqual(get(self.stubd.https_url + "/hello", context=context), (200, "hi"))

    def test_a_failed_start_removes_its_container(self):
        """A stubd that refuses its flags never gets ready: start() raises and the container it
        created is gone (a plain start(), outside a `with`)."""
        broken = StubdContainer(IMAGE, extra_args=["--no-such-flag"], startup_timeout=5)
        with self.assertRaises(Exception):
            broken.start()
        created = broken._container
        self.assertIsNotNone(created, "start() created the container before failing")
        with self.assertRaises(Exception):
            broken.get_docker_client().client.containers.get(created.id)

    def test_the_container_page_snippet_as_written(self):
        """docs/CONTAINERS.md's block, line for line (Tests/docs/snippets_test.py checks the copy),
        in a folder with a `tests/mocks` of its own."""
        here = os.getcwd()
        os.chdir(tempfile.mkdtemp())
        os.makedirs("tests/mocks")
        os.chmod("tests/mocks", 0o755)
        try:
            import requests
            from stubd_testcontainers import StubdContainer

            with StubdContainer("stubd:latest", fixtures="tests/mocks", https=True) as stubd:
                with stubd.session() as session:            # a session per test: tests can run in parallel
                    session.stub("GET", "/v1/me", json={"id": 7})
                    me = requests.get(stubd.base_url + "/v1/me", headers=session.headers).json()   # {"id": 7}
                    session.expect(1, method="GET", path="/v1/me")   # fails with the session's near misses
                ca = stubd.ca_pem()                         # trust it for stubd.https_url
            self.assertEqual(me, {"id": 7})
            self.assertIn("BEGIN CERTIFICATE", ca)
        finally:
            os.chdir(here)


if __name__ == "__main__":
    unittest.main()
