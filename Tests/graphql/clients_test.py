"""GraphQL as real clients send it (issue 49), against a stubd serving docs/GRAPHQL.md's example:
gql's HTTPX transport for a query and a batch (`execute_batch`, one POST of an array), an
`application/graphql` POST and an automatic-persisted-query GET made with httpx (missing the
example's POST routes, reaching an imported query's GET route), and the journal's one entry per batch.

Usage: python3 Tests/graphql/clients_test.py path/to/stubd
"""
import json
import os
import subprocess
import sys
import tempfile

import httpx
from gql import Client, GraphQLRequest, gql
from gql.transport.httpx import HTTPXTransport

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
from stubd_server import Stubd  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message)
    if not condition:
        sys.exit(1)


def main():
    page = open(os.path.join(ROOT, "docs", "GRAPHQL.md")).read()
    example = page.split("## A route per operation\n\n```json\n", 1)[1].split("```", 1)[0]
    folder = tempfile.mkdtemp(prefix="stubd-graphql-clients-")
    with open(os.path.join(folder, "graphql.json"), "w") as handle:
        handle.write(example)
    server = Stubd(os.path.abspath(sys.argv[1]), folder, "--quiet")
    try:
        profile = gql("query ProfileQuery($id: Int!) { user(id: $id) { id name } }")
        with Client(transport=HTTPXTransport(url=server.base + "/graphql")) as session:
            one = session.execute(profile, variable_values={"id": 7})
            check(one == {"user": {"id": 7, "name": "Ada"}}, f"gql: a query answered by the route for its variables: {one}")
            batch = session.execute_batch([GraphQLRequest(profile, variable_values={"id": 7}),
                                           GraphQLRequest(profile, variable_values={"id": 9})])
            check(batch == [{"user": {"id": 7, "name": "Ada"}}, {"user": {"id": 9, "name": "someone"}}],
                  f"gql: execute_batch (one POST of two operations) answered as an array, in order; the variable keeps its type: {batch}")
        entries = httpx.get(server.base + "/__stubd/requests").json()["requests"]
        check(len(entries) == 2 and json.loads(entries[1]["body"])[1]["variables"] == {"id": 9},
              f"the journal holds the batch as one request ({len(entries)} entries)")
        raw = httpx.post(server.base + "/graphql", headers={"Content-Type": "application/graphql"},
                         content="query ProfileQuery { user(id: 7) { id name } }")
        check(raw.status_code == 200 and raw.json()["data"]["user"]["name"] == "someone",
              f"an application/graphql POST reaches the operation's route: {raw.status_code} {raw.text[:80]}")
        apq = httpx.get(server.base + "/graphql", params={
            "operationName": "ProfileQuery", "variables": json.dumps({"id": 7}),
            "extensions": json.dumps({"persistedQuery": {"version": 1, "sha256Hash": "ab" * 32}})})
        check(apq.status_code == 404 and "expected POST" in apq.text,
              "a persisted-query GET misses the example's POST routes, saying the method (an imported query has a GET route)")
    finally:
        server.stop()
    # The same GET reaches the route `stubd import graphql` writes for a query (POST and GET alike).
    with open(os.path.join(folder, "Profile.graphql"), "w") as handle:
        handle.write("query ProfileQuery($id: Int!) { user(id: $id) { id name } }\n")
    imported = os.path.join(folder, "imported")
    subprocess.run([os.path.abspath(sys.argv[1]), "import", "graphql", os.path.join(folder, "Profile.graphql"), "--out", imported],
                   check=True, capture_output=True)
    server = Stubd(os.path.abspath(sys.argv[1]), imported, "--quiet")
    try:
        apq = httpx.get(server.base + "/graphql", params={
            "operationName": "ProfileQuery", "variables": json.dumps({"id": 7}),
            "extensions": json.dumps({"persistedQuery": {"version": 1, "sha256Hash": "ab" * 32}})})
        check(apq.status_code == 200 and apq.json() == {"data": {"user": {"id": None, "name": None}}},
              f"a persisted-query GET reaches the imported query's GET route: {apq.status_code} {apq.text[:80]}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
