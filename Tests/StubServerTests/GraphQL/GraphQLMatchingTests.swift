import Foundation
import Testing
import StubdTestSupport
import StubModel
import StubdEngine
import StubdTestTags

/// GraphQL operations as stubs (issue 36, item 5), on a whole stubd served in memory: one
/// `POST /graphql` told apart by operation name (sent, or read from the query document), by a
/// persisted query's hash (POST and GET forms) and by variables (partial); near misses in
/// operations and variables; templates reading the operation and its variables; an answer with
/// `errors` beside partial `data`.
@Suite(.tags(.inMemory)) struct GraphQLMatchingTests {
    static let fixtures = #"""
    {"routes": [
      {"name": "profile-7", "request": {"method": "POST", "path": "/graphql", "graphql": {"operationName": "ProfileQuery", "variables": {"id": 7}}},
       "response": {"json": {"data": {"user": {"id": 7, "name": "Ada"}}}}},
      {"name": "profile-any", "request": {"method": "POST", "path": "/graphql", "graphql": "ProfileQuery"},
       "response": {"template": true, "json": {"data": {"user": {"id": "{{graphql.variables.id}}", "name": "someone"}}, "op": "{{graphql.operationName}}"}}},
      {"name": "settings", "request": {"method": "POST", "path": "/graphql", "graphql": {"operationName": "SaveSettings", "variables": {"input": {"theme": "dark"}}}},
       "response": {"json": {"data": {"saveSettings": null}, "errors": [{"message": "not allowed", "path": ["saveSettings"]}]}}},
      {"name": "persisted", "request": {"method": "GET", "path": "/graphql", "graphql": {"persistedQueryHash": "ecf4edb46db40b5132295c0291d62fb65d6759a9eedfa4d5d612dd5ec54a6b38"}},
       "response": {"json": {"data": {"feed": []}}}}
    ]}
    """#

    static let json = [("Content-Type", "application/json")]

    static func body(_ query: String, name: String? = nil, variables: String = "{}") -> String {
        let escaped = String(data: try! JSONSerialization.data(withJSONObject: [query]), encoding: .utf8)!.dropFirst().dropLast()
        return "{\"query\": \(escaped)" + (name.map { ", \"operationName\": \"\($0)\"" } ?? "") + ", \"variables\": \(variables)}"
    }

    @Test func operationsAreToldApartByNameVariablesAndHash() throws {
        let stubd = try InMemoryStubd(Self.fixtures)
        defer { stubd.stop() }
        func post(_ body: String) throws -> String { try #require(stubd.send("POST", "/graphql", headers: Self.json, body: body)).text }
        let profile = "query ProfileQuery($id: ID!) { user(id: $id) { id name } }"
        #expect(try post(Self.body(profile, name: "ProfileQuery", variables: #"{"id": 7}"#)).contains("Ada"))
        // No operationName: read from the document's only operation.
        #expect(try post(Self.body(profile, variables: #"{"id": 7, "extra": true}"#)).contains("Ada"), "variables match partially")
        let other = try post(Self.body(profile, variables: #"{"id": 8}"#))
        #expect(other.contains("\"id\":8") && other.contains("ProfileQuery"), "a variable alone in a string keeps its JSON type: \(other)")
        let settings = try #require(stubd.send("POST", "/graphql", headers: Self.json,
                                               body: Self.body("mutation SaveSettings($input: SettingsInput!) { saveSettings(input: $input) { ok } }",
                                                               variables: #"{"input": {"theme": "dark", "font": 12}}"#)))
        #expect(settings.status == 200 && settings.text.contains("\"errors\"") && settings.text.contains("\"saveSettings\":null"))
        // Apollo's automatic persisted query, GET form.
        let extensions = #"{"persistedQuery":{"version":1,"sha256Hash":"ecf4edb46db40b5132295c0291d62fb65d6759a9eedfa4d5d612dd5ec54a6b38"}}"#
        let query = "operationName=Feed&variables=%7B%7D&extensions=" + (extensions.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        let persisted = try #require(stubd.get("/graphql?" + query))
        #expect(persisted.status == 200 && persisted.text.contains("feed"), "\(persisted.text)")
    }

    @Test func nearMissesSpeakInOperationsAndVariables() throws {
        let stubd = try InMemoryStubd(Self.fixtures)
        defer { stubd.stop() }
        let miss = try #require(stubd.send("POST", "/graphql", headers: Self.json,
                                           body: Self.body("mutation SaveSettings($input: SettingsInput!) { saveSettings(input: $input) { ok } }",
                                                           variables: #"{"input": {"theme": "light"}}"#)))
        #expect(miss.status == 404)
        #expect(miss.text.contains(#"GraphQL variable input: expected {\"theme\":\"dark\"}, got {\"theme\":\"light\"}"#), "\(miss.text)")
        let unknown = try #require(stubd.send("POST", "/graphql", headers: Self.json, body: Self.body("query FeedQuery { feed { id } }")))
        #expect(unknown.text.contains("GraphQL operation: expected ProfileQuery, got FeedQuery"), "\(unknown.text)")
        let broken = try #require(stubd.send("POST", "/graphql", headers: Self.json, body: Self.body("query { user(id: 1 { id }")))
        #expect(broken.text.contains("a query that does not read"), "\(broken.text)")
        let none = try #require(stubd.send("POST", "/graphql", headers: Self.json, body: #"{"hello": 1}"#))
        #expect(none.text.contains("no GraphQL operation in the request"), "\(none.text)")
    }

    /// Issue 49: GraphQL as apps send it — `application/graphql` bodies; a variables route beside
    /// the operation's general route wins wherever it is listed (and is no overlap); a secret
    /// variable's expected value is hidden in near misses as the sent one is.
    @Test func graphQLAsAppsSendIt() throws {
        let stubd = try InMemoryStubd(#"""
        {"routes": [
          {"name": "general", "request": {"method": "POST", "path": "/graphql", "graphql": "Login"}, "response": {"json": {"data": {"login": "general"}}}},
          {"name": "ada", "request": {"method": "POST", "path": "/graphql", "graphql": {"operationName": "Login", "variables": {"user": "ada", "password": "hunter2"}}},
           "response": {"json": {"data": {"login": "ada"}}}},
          {"name": "profile", "request": {"method": "POST", "path": "/graphql", "graphql": "Profile"}, "response": {"json": {"data": {"user": null}}}}
        ]}
        """#)
        defer { stubd.stop() }
        let login = "mutation Login($user: String!, $password: String!) { login(user: $user, password: $password) }"
        let ada = try #require(stubd.send("POST", "/graphql", headers: Self.json, body: Self.body(login, variables: #"{"user": "ada", "password": "hunter2"}"#)))
        #expect(ada.text.contains("\"login\":\"ada\""), "the route naming variables wins though listed second: \(ada.text)")
        let graphQLBody = try #require(stubd.send("POST", "/graphql?operationName=Profile", headers: [("Content-Type", "application/graphql")],
                                                  body: "query Profile { user { id } }"))
        #expect(graphQLBody.status == 200 && graphQLBody.text.contains("\"user\":null"), "\(graphQLBody.text)")
        let strict = try InMemoryStubd(#"""
        {"routes": [{"name": "ada", "request": {"method": "POST", "path": "/graphql", "graphql": {"operationName": "Login", "variables": {"password": "hunter2"}}},
                     "response": {"json": {}}}]}
        """#)
        defer { strict.stop() }
        let miss = try #require(strict.send("POST", "/graphql", headers: Self.json, body: Self.body(login, variables: #"{"user": "ada", "password": "letmein"}"#)))
        #expect(miss.status == 404 && miss.text.contains("GraphQL variable password: expected (hidden), got (hidden)"), "\(miss.text)")
        #expect(!miss.text.contains("hunter2") && !miss.text.contains("letmein"), "\(miss.text)")
    }

    /// Issue 49: a route naming an operation and its persisted-query hash (what `stubd import graphql`
    /// writes from an Apollo manifest) takes a hashed request without the name, a full one without the
    /// hash, and both when they agree; a request whose name or hash is another's misses, saying which.
    @Test func aRouteWithNameAndHashTakesEither() throws {
        let hash = "ecf4edb46db40b5132295c0291d62fb65d6759a9eedfa4d5d612dd5ec54a6b38"
        let stubd = try InMemoryStubd(#"""
        {"routes": [{"name": "feed", "request": {"method": "POST", "path": "/graphql", "graphql": {"operationName": "Feed", "persistedQueryHash": "\#(hash)"}},
                     "response": {"json": {"data": {"feed": []}}}}]}
        """#)
        defer { stubd.stop() }
        func post(_ body: String) throws -> (Int?, String) {
            let answer = try #require(stubd.send("POST", "/graphql", headers: Self.json, body: body))
            return (answer.status, answer.text)
        }
        let extensions = #"{"persistedQuery": {"version": 1, "sha256Hash": "\#(hash)"}}"#
        #expect(try post(#"{"extensions": \#(extensions)}"#).0 == 200, "the hash alone")
        #expect(try post(Self.body("query Feed { feed { id } }")).0 == 200, "the name alone (a full query)")
        #expect(try post(#"{"operationName": "Feed", "extensions": \#(extensions)}"#).0 == 200, "both, agreeing")
        let otherName = try post(#"{"operationName": "Profile", "extensions": \#(extensions)}"#)
        #expect(otherName.0 == 404 && otherName.1.contains("GraphQL operation: expected Feed, got Profile") && !otherName.1.contains("persisted query"), "\(otherName.1)")
        let otherHash = try post(#"{"operationName": "Feed", "extensions": {"persistedQuery": {"version": 1, "sha256Hash": "00aa"}}}"#)
        #expect(otherHash.0 == 404 && otherHash.1.contains("GraphQL persisted query: expected hash ecf4edb46db40b51…, got 00aa…"), "\(otherHash.1)")
    }
    /// Issue 49: a batch (Apollo's BatchHttpLink: one POST of an array) is answered with the array of
    /// its operations' answers, each looked up alone — sequence steps taken per operation, a miss an
    /// error carrying its near miss — and journaled once; a fault faults the whole request; more than
    /// 32 operations are refused naming the bound.
    @Test func aBatchIsAnsweredAsAnArray() throws {
        let stubd = try InMemoryStubd(#"""
        {"routes": [
          {"name": "flaky", "request": {"method": "POST", "path": "/graphql", "graphql": "Feed"},
           "responses": [{"json": {"data": {"feed": 1}}}, {"json": {"data": {"feed": 2}}}]},
          {"name": "down", "request": {"method": "POST", "path": "/graphql", "graphql": "Down"}, "fault": "reset"},
          {"name": "whole", "request": {"method": "POST", "path": "/graphql", "body": {"json": [{"query": "query Feed { feed }"}, {"query": "query Pinned { feed }"}]}},
           "response": {"text": "the array's own route"}},
          {"name": "search", "request": {"method": "POST", "path": "/search", "body": {"json": [{"query": "shoes"}]}}, "response": {"text": "found"}}
        ]}
        """#)
        defer { stubd.stop() }
        let feed = #"{"query": "query Feed { feed }"}"#
        let batch = try #require(stubd.send("POST", "/graphql", headers: Self.json, body: "[\(feed), \(feed), {\"query\": \"query Gone { x }\"}]"))
        #expect(batch.status == 200)
        let answers = try JSONParser.parse(Array(batch.text.utf8))
        guard case .array(let items) = answers, items.count == 3 else { Issue.record("\(batch.text)"); return }
        let first = try JSONParser.parse(Array(#"{"data": {"feed": 1}}"#.utf8)), second = try JSONParser.parse(Array(#"{"data": {"feed": 2}}"#.utf8))
        #expect(items[0] == first && items[1] == second, "a sequence's steps, one per operation: \(batch.text)")
        #expect(batch.text.contains("stubd: no route answers Gone") && batch.text.contains("GraphQL operation: expected Feed, got Gone"), "\(batch.text)")
        let faulted = stubd.send("POST", "/graphql", headers: Self.json, body: "[\(feed), {\"query\": \"query Down { x }\"}]")
        #expect(faulted?.fault == .reset && faulted?.status == nil, "the reset faults the whole batch: \(String(describing: faulted?.text))")
        let many = "[" + Array(repeating: feed, count: 33).joined(separator: ",") + "]"
        let refused = try #require(stubd.send("POST", "/graphql", headers: Self.json, body: many))
        #expect(refused.status == 400 && refused.text.contains("stubd answers at most 32"), "\(refused.text)")
        let whole = try #require(stubd.send("POST", "/graphql", headers: Self.json, body: #"[{"query": "query Feed { feed }"}, {"query": "query Pinned { feed }"}]"#))
        #expect(whole.text == "the array's own route", "a route for the whole array body answers it: \(whole.text)")
        let search = try #require(stubd.send("POST", "/search", headers: Self.json, body: #"[{"query": "shoes"}]"#))
        #expect(search.text == "found", "a REST array with a query field is no GraphQL batch: \(search.text)")
        let plainArray = try #require(stubd.send("POST", "/graphql", headers: Self.json, body: "[1, 2]"))
        #expect(plainArray.status == 404 && plainArray.text.contains("no GraphQL operation in the request"), "an array that is not a batch is a request like any other")
    }
}
