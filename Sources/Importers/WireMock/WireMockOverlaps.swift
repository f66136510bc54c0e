import StubModel

/// Mappings of one root that answer the same request (same pattern, scenario step and priority)
/// differently, settled as WireMock settles them where it says how, and reported where it does
/// not — so such a root loads instead of stopping at stubd's "two routes for one request" error.
///
/// WireMock answers with the most recently added of equal stubs. Within one file that is the
/// later mapping (measured with WireMock 2.35.1: a `mappings` array's second entry wins); across
/// files it is whichever file WireMock read last, which follows the order the file system lists
/// them in (on the same root it chose the alphabetically last file once and the first another
/// time), so stubd keeps the first file's in path order and says so.
enum WireMockOverlaps {
    static func resolve(_ files: [ImportedFile]) -> [ImportedFile] {
        var files = files
        var owner: [RouteSlot: (file: Int, index: Int)] = [:]
        var dropped: [Int: Set<Int>] = [:]
        for fileIndex in files.indices {
            for (index, fixture) in files[fileIndex].fixtures.enumerated() {
                let key = RouteSlot(fixture)
                guard let earlier = owner[key] else {
                    owner[key] = (fileIndex, index)
                    continue
                }
                let first = files[earlier.file].fixtures[earlier.index]
                if first == fixture {
                    dropped[fileIndex, default: []].insert(index)
                } else if earlier.file == fileIndex {
                    dropped[fileIndex, default: []].insert(earlier.index)
                    owner[key] = (fileIndex, index)
                    files[fileIndex].unsupported.append("\(files[fileIndex].file): \(first.name) and a later mapping answer \(fixture.request.method) \(fixture.request.path) alike; WireMock answers with the later (most recently added) one, and so does stubd")
                } else {
                    dropped[fileIndex, default: []].insert(index)
                    files[fileIndex].unsupported.append("\(files[fileIndex].file): \(fixture.name) answers \(fixture.request.method) \(fixture.request.path) like \(files[earlier.file].file) at the same priority; WireMock's choice follows the order its file system lists the files, stubd answers with \(files[earlier.file].file) — give one a \"priority\" to decide")
                }
            }
        }
        for (fileIndex, indices) in dropped {
            files[fileIndex].fixtures = files[fileIndex].fixtures.enumerated().filter { !indices.contains($0.offset) }.map(\.element)
        }
        return patternsBesideLiterals(files)
    }

    /// Pattern checks one root may make (literal paths × patterns), and warnings it may give.
    static let checkBound = 200_000
    static let warningBound = 20

    /// A `urlPathPattern` (or `urlPattern`) mapping and a literal-path one of the same method and
    /// priority that both answer one request (`GET /p/215`): WireMock answers with the one it loaded
    /// last, stubd with the literal path (its rule: literal paths before patterns) — said with the
    /// request, so the suite's author gives one a priority. Bounded: at most `checkBound` checks,
    /// each within its own regex budget.
    static func patternsBesideLiterals(_ files: [ImportedFile]) -> [ImportedFile] {
        var files = files
        var literals: [(file: Int, fixture: Fixture, path: String)] = []
        var patterns: [(file: Int, fixture: Fixture, regex: CompiledRegex, url: Bool)] = []
        for (fileIndex, file) in files.enumerated() {
            for fixture in file.fixtures where fixture.scenario == nil {
                switch fixture.request.path {
                case .literal(let segments) where fixture.request.query.pairs.isEmpty:
                    literals.append((fileIndex, fixture, fixture.request.pathExact ?? segments.description))
                case .regex(let expression): patterns.append((fileIndex, fixture, CompiledRegex(expression), false))
                case .urlRegex(let expression): patterns.append((fileIndex, fixture, CompiledRegex(expression), true))
                default: break
                }
            }
        }
        var checks = 0, warnings = 0
        for pattern in patterns {
            for literal in literals where literal.fixture.request.method == pattern.fixture.request.method
                && literal.fixture.priority == pattern.fixture.priority {
                checks += 1
                guard checks <= checkBound, warnings < warningBound else { return files }
                guard pattern.regex.matchesWhole(literal.path, budget: RegexBudget()) else { continue }
                warnings += 1
                files[pattern.file].unsupported.append("\(files[pattern.file].file): \(pattern.fixture.name) (a path pattern) and \(literal.fixture.name) in \(files[literal.file].file) both answer \(literal.fixture.request.method) \(literal.path) at priority \(pattern.fixture.priority); WireMock answers with the one it loaded last, stubd with the literal path — give one a \"priority\" to decide")
            }
        }
        return files
    }
}
