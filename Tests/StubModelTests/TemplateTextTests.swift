import Testing
import StubModel
import StubdTestTags

/// Socket-free: what the template language accepts, and what it says about what it does not.
@Suite(.tags(.inMemory)) struct TemplateTextTests {
    static func values(_ text: String) throws -> [TemplateValue] {
        try TemplateText.parse(text).get().parts.compactMap { if case .value(let value) = $0 { value } else { nil } }
    }

    @Test func requestNamesInStubdsAndWireMocksSpellings() throws {
        #expect(try Self.values("{{request.method}} {{request.url}} {{request.path}}") == [.method, .url, .path])
        #expect(try Self.values("{{request.path.[2]}}{{request.pathSegments.[0]}}{{request.requestLine.pathSegments.[1]}}") == [.pathSegment(2), .pathSegment(0), .pathSegment(1)])
        #expect(try Self.values("{{request.path.id}}") == [.pathParameter("id")])
        #expect(try Self.values("{{request.query.q}}{{request.requestLine.query.q}}{{request.query.q.[0]}}") == [.query("q"), .query("q"), .query("q")])
        #expect(try Self.values("{{request.headers.X-Trace}}{{request.headers.[Content-Type]}}") == [.header("x-trace"), .header("content-type")])
        #expect(try Self.values("{{request.cookies.sid}}{{request.body}}{{route.name}}{{session}}") == [.cookie("sid"), .body, .routeName, .session])
        #expect(try Self.values("{{ uuid }}{{randomValue type='UUID'}}") == [.uuid, .uuid])
    }

    @Test func helpersTakeTheirArguments() throws {
        guard case .now(let format)? = try Self.values("{{now offset='-2 days' format='yyyy-MM-dd' timezone='Europe/Paris'}}").first else {
            Issue.record("now")
            return
        }
        #expect(format.pattern == "yyyy-MM-dd" && format.offsetSeconds == -172_800 && format.timeZone == "Europe/Paris")
        guard case .now(let yearly)? = try Self.values("{{now offset='1 years'}}").first else {
            Issue.record("now offset='1 years' did not read as now")
            return
        }
        #expect(yearly.offsetMonths == 12 && yearly.pattern == nil)
        guard case .random(let length, let alphabet)? = try Self.values("{{randomValue length=12 type='NUMERIC'}}").first else {
            Issue.record("randomValue did not read as random")
            return
        }
        #expect(length == 12 && alphabet == "0123456789")
        guard case .jsonPath(let path)? = try Self.values("{{jsonPath request.body '$.user.name'}}").first else {
            Issue.record("jsonPath did not read as jsonPath")
            return
        }
        #expect(path.text == "$.user.name")
    }

    /// Issue 49: WireMock's multi-valued request parts, names assigned in an earlier string of the same
    /// JSON body, and a bare name nothing defines — empty in WireMock's dialect, refused in stubd's.
    @Test func wireMockShapesReadAsWireMockReadsThem() throws {
        let indexed = try TemplateText.parse("{{request.query.ids.[2]}} {{request.headers.X-Tag.[1]}} {{request.query.ids.[0]}}").get()
        #expect(indexed.parts == [.value(.queryAt("ids", 2)), .literal(" "), .value(.headerAt("x-tag", 1)), .literal(" "), .value(.query("ids"))])
        var known: Set<String> = []
        _ = try TemplateText.parse("{{#assign 'x'}}hi{{/assign}}", dialect: .wiremock, known: &known).get()
        #expect(known == ["x"])
        #expect((try? TemplateText.parse("{{x}}", dialect: .wiremock, known: &known).get()) != nil)
        #expect((try? TemplateText.parse("{{x}}", dialect: .stubd).get()) == nil, "alone, x is unknown")
        let nested = try TemplateText.parse("{{#if request.method}}{{#assign 'y'}}1{{/assign}}{{/if}}{{math y '+' 1}}", dialect: .wiremock).get()
        #expect(nested.emptyNames.isEmpty, "an assign inside a block stays known after it")
        let missing = try TemplateText.parse("[{{currentYear}}] {{currentYear}} {{currentDay}}", dialect: .wiremock).get()
        #expect(missing.emptyNames == ["currentYear", "currentDay"])
        #expect((try? TemplateText.parse("{{fnow format='yyyy'}}", dialect: .wiremock).get()) == nil, "an unknown helper with arguments is still refused")
        // WooCommerce's `{{now format=customformat}}`: the option is the variable's value, not the letters of its name.
        let now = try TemplateText.parse("{{#assign 'customformat'}}yyyy{{/assign}}{{now format=customformat}}", dialect: .wiremock).get()
        guard case .expression(.helper(.date, let arguments, let options), _)? = now.parts.last else { Issue.record("\(now.parts)"); return }
        #expect(arguments == [.value(.now(NowFormat()))] && options.map(\.name) == ["format"])
    }

    @Test func literalsAndEscapes() throws {
        let text = try TemplateText.parse(#"a \{{b}} {{request.method}} c"#).get()
        #expect(text.parts == [.literal("a {{b}} "), .value(.method), .literal(" c")])
        #expect(try TemplateText.parse("no braces").get().isConstant)
    }

    @Test func problemsNameTheColumnAndTheFix() {
        let cases: [(String, Int, String)] = [
            ("id {{reqest.path}}", 4, #"unknown name "reqest.path""#),
            ("{{request.path}} {{now offset='soon'}}", 18, "offset 'soon': write an amount and a unit"),
            ("{{randomValue}}", 1, "randomValue needs length="),
            ("x {{request.method", 3, "{{ without }}"),
            ("a {{> header}}", 3, "partials ({{> name}}) are not supported"),
            ("{{#each (jsonPath request.body '$.a')}}x", 1, "{{#each}} is never closed"),
            ("{{#if request.method}}x{{/each}}", 24, "{{/each}} closes {{#if}}"),
            ("{{#loop request.method}}x{{/loop}}", 1, "is not a block stubd knows"),
            ("{{eq request.method}}", 1, "eq takes 2 argument(s), got 1"),
            ("{{#each (jsonPath request.body '$.a')}}{{name}}{{/each}}{{name}}", 57, #"unknown name "name""#),
            ("{{currentYear}}", 1, #"unknown name "currentYear""#),
            ("{{now timezone='Mars/Olympus'}}", 1, "is not a time zone name"),
        ]
        for (text, column, message) in cases {
            guard case .failure(let problem) = TemplateText.parse(text) else {
                Issue.record("\(text) should not parse")
                continue
            }
            #expect(problem.column == column, "\(text): \(problem)")
            #expect(problem.message.contains(message), "\(text): \(problem)")
        }
    }
}
