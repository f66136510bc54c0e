"""make test: stubd's reading of GraphQL operation documents against graphql-core (the reference
implementation's Python port) as the oracle (issue 36). For each document below, `stubd import
graphql` must write one route per named operation — the same names graphql-core reads, in order —
each answering a skeleton whose keys are exactly the response names graphql-core's selection sets
give (aliases, fragment spreads and inline fragments followed, fields merged); a document
graphql-core refuses must be refused, naming the file. Then a served route answers a request whose
operation name graphql-core reads from the same document.

    python3 Tests/graphql/oracle_test.py .build/debug/stubd
"""
import json
import os
import subprocess
import sys
import tempfile
import urllib.request

from graphql import parse as graphql_parse
from graphql.error import GraphQLSyntaxError
from graphql.language import FieldNode, FragmentDefinitionNode, FragmentSpreadNode, InlineFragmentNode, OperationDefinitionNode

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
from stubd_server import Stubd  # noqa: E402

BINARY = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/stubd"

DOCUMENTS = {
    "simple": "query ProfileQuery($id: ID!) { user(id: $id) { id name } }",
    "aliases-and-args": 'query Feed($first: Int = 10, $after: String) { feed(first: $first, after: $after, filter: {kind: [A, B], q: "x,y"}) { edges { node { id title: headline } cursor } pageInfo { hasNextPage } } }',
    "fragments": """
        # comments, commas and fragments
        query Repo($owner: String!, $name: String!) {
          repository(owner: $owner, name: $name) { ...RepoFields, issues(first: 5) { nodes { ...IssueFields } } }
        }
        fragment RepoFields on Repository { id name stargazerCount owner { login } }
        fragment IssueFields on Issue { id title author { login } }
    """,
    "inline-and-directives": """
        query Search($q: String!, $withBody: Boolean!) @cached(ttl: 60) {
          search(query: $q) {
            __typename
            ... on Post { id body @include(if: $withBody) }
            ... on User { id login }
            ... @skip(if: false) { score }
          }
        }
    """,
    "several": '''
        mutation SaveSettings($input: SettingsInput!) { saveSettings(input: $input) { ok errors { field message } } }
        subscription OnMessage { messageAdded { id text: body } }
        query Me { viewer { id } }
        query WithString { echo(text: """A block string with "quotes" and \\""" escaped, } too""") other: echo(text: """multi
        line""") }
    ''',
    "merge": "query Merge { viewer { id name } viewer { id email } }",
    "unicode-and-numbers": 'query Numbers { point(x: -1.5e3, y: 0, label: "caf\\u00e9 ☕") { x y } }',
    "schema-beside": """
        type Query { me: User }
        scalar DateTime
        query Beside { me { id } }
    """,
}

BROKEN = {
    "unclosed": "query Broken { user(id: 1) { id }",
    "bad-variable": "query V($: Int) { a }",
    "stray": "query A { a } }",
    "unterminated-string": 'query S { a(x: "open) }',
}


def response_names(selection_set, fragments, seen=()):
    """graphql-core's reading: response names per selection set, spreads followed, fields merged."""
    fields = {}
    for selection in selection_set.selections if selection_set else []:
        if isinstance(selection, FieldNode):
            name = selection.alias.value if selection.alias else selection.name.value
            inner = response_names(selection.selection_set, fragments, seen)
            if name in fields and isinstance(fields[name], dict) and isinstance(inner, dict):
                fields[name] = merge(fields[name], inner)
            else:
                fields.setdefault(name, inner)
        elif isinstance(selection, InlineFragmentNode):
            for name, value in response_names(selection.selection_set, fragments, seen).items():
                fields[name] = merge(fields[name], value) if name in fields else value
        elif isinstance(selection, FragmentSpreadNode):
            fragment = fragments.get(selection.name.value)
            if fragment and selection.name.value not in seen:
                for name, value in response_names(fragment.selection_set, fragments, seen + (selection.name.value,)).items():
                    fields[name] = merge(fields[name], value) if name in fields else value
    return fields if selection_set else None


def merge(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        out = dict(a)
        for key, value in b.items():
            out[key] = merge(out[key], value) if key in out else value
        return out
    return a


def shape(value):
    """A skeleton's keys, nested (null leaves as None), as graphql-core's reading gives them."""
    if isinstance(value, dict):
        return {key: shape(inner) for key, inner in value.items()}
    return None


def main():
    failures = []
    folder = tempfile.mkdtemp()
    for name, text in {**DOCUMENTS, **BROKEN}.items():
        with open(os.path.join(folder, name + ".graphql"), "w") as file:
            file.write(text)
    agreed = 0
    for name, text in DOCUMENTS.items():
        document = graphql_parse(text)
        fragments = {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}
        expected = [(d.name.value, response_names(d.selection_set, fragments)) for d in document.definitions
                    if isinstance(d, OperationDefinitionNode) and d.name]
        out = os.path.join(folder, "out-" + name)
        done = subprocess.run([BINARY, "import", "graphql", os.path.join(folder, name + ".graphql"), "--out", out], capture_output=True, text=True)
        routes = []
        if done.returncode == 0:
            for written in sorted(os.listdir(out)):
                with open(os.path.join(out, written)) as file:
                    routes += json.load(file)["routes"]
        got = [(route["request"]["graphql"]["operationName"], shape(route["response"]["json"]["data"])) for route in routes
               if route["request"]["method"] == "POST"]
        # A query gets a GET route too (persisted queries send it so), with the same answer; a mutation does not.
        queries = {d.name.value for d in document.definitions if isinstance(d, OperationDefinitionNode) and d.name
                   and d.operation.value == "query"}
        gets = sorted((route["request"]["graphql"]["operationName"], json.dumps(route["response"]["json"])) for route in routes
                      if route["request"]["method"] == "GET")
        twins = sorted((route["request"]["graphql"]["operationName"], json.dumps(route["response"]["json"])) for route in routes
                       if route["request"]["method"] == "POST" and route["request"]["graphql"]["operationName"] in queries)
        if got == expected and gets != twins:
            got = got + [("GET routes differ from the queries' POST routes", gets)]
        if got == expected:
            agreed += 1
            print(f"ok   {name}: {[n for n, _ in got]}")
        else:
            failures.append(name)
            print(f"FAIL {name}\n     graphql-core: {expected}\n     stubd:        {got}\n     {done.stderr.strip()[:300]}")
    for name, text in BROKEN.items():
        try:
            graphql_parse(text)
            print(f"FAIL {name}: graphql-core reads it; the test's document is wrong")
            failures.append(name)
            continue
        except GraphQLSyntaxError:
            pass
        done = subprocess.run([BINARY, "import", "graphql", os.path.join(folder, name + ".graphql"), "--out", os.path.join(folder, "out-" + name)],
                              capture_output=True, text=True)
        refused = done.returncode != 0 and f"{name}.graphql" in done.stderr and "line" in done.stderr
        print(("ok   " if refused else "FAIL ") + f"{name}: refused by both ({done.stderr.strip().splitlines()[0] if done.stderr.strip() else 'no message'})")
        if not refused:
            failures.append(name)

    # Served: a request whose operation graphql-core names reaches that operation's route.
    out = os.path.join(folder, "out-fragments")
    stubd = Stubd(BINARY, out, "--quiet")
    try:
        text = DOCUMENTS["fragments"]
        operation = next(d for d in graphql_parse(text).definitions if isinstance(d, OperationDefinitionNode))
        request = urllib.request.Request(stubd.base + "/graphql", method="POST", headers={"Content-Type": "application/json"},
                                         data=json.dumps({"query": text, "variables": {"owner": "a", "name": "b"}}).encode())
        with urllib.request.urlopen(request, timeout=5) as answer:
            data = json.loads(answer.read())["data"]
        served = answer.status == 200 and set(data) == set(response_names(operation.selection_set, {}).keys())
        print(("ok   " if served else "FAIL ") + f"POST /graphql without operationName reaches {operation.name.value} ({answer.status})")
        if not served:
            failures.append("served")
    finally:
        stubd.stop()
    print(f"oracle_test: {agreed} of {len(DOCUMENTS)} documents read as graphql-core reads them; {len(BROKEN)} broken ones refused")
    if failures:
        print(f"oracle_test: {len(failures)} failed")
        sys.exit(1)


if __name__ == "__main__":
    main()
