/// In-process serving of Moya targets: `import TargetServing` brings the whole server
/// (`StubdRuntime`) and Moya's surface (`TargetModel`) with the two calls that join them. Kept out
/// of the serving core so the plain `stubd` links neither the Moya layer nor the
/// FoundationNetworking (and libcurl) its `URLRequest` needs.
@_exported import StubdRuntime
@_exported import TargetModel

extension RouteTable {
    /// Compiles Swift targets (every one, `.never` ones answered at once, unless `options` omit them).
    public convenience init(targets: [any TargetType], options: TargetCompileOptions = TargetCompileOptions()) throws(RouteTableError) {
        try self.init(fixtures: try RouteTable.fixtures(for: targets, options: options))
    }

    /// The fixtures of the targets `options` serve; every target that cannot be turned into a
    /// request is reported, not only the first.
    public static func fixtures(for targets: [any TargetType], options: TargetCompileOptions = TargetCompileOptions()) throws(RouteTableError) -> [Fixture] {
        do {
            return try CompiledTargets.compile(targets, options: options).fixtures
        } catch {
            throw RouteTableError(targetErrors: error.errors.map(\.description))
        }
    }
}

extension StubdServer {
    /// Adds Swift targets as runtime routes, for one session or all.
    @discardableResult
    public func add(targets: [any TargetType], session: SessionID? = nil) throws(RouteTableError) -> [RouteID] {
        try add(try RouteTable.fixtures(for: targets), session: session)
    }
}
