import StubServer
import AdminAPI
import Dashboard
import StubdEngine
import Recording
import Dispatch
import Foundation
public import Logging
import Synchronization
import FixtureFiles
public import StubModel

/// Reloads a server's fixtures when their files change (`stubd serve --watch`).
///
/// Polls every file under the fixture paths (bodies in `__files/` included) for a changed
/// modification time, size or file list — simple, portable, and cheap at a twice-a-second
/// interval. A good edit is swapped in as a new table (connections and runtime routes are
/// untouched); a broken one leaves the old table serving and logs every `file: field: problem`.
/// `@unchecked`: the only non-Sendable member is the dispatch timer, which is thread-safe to cancel.
public final class FixtureWatcher: @unchecked Sendable {
    /// What one reload did, for logs and tests.
    public enum ReloadResult: Sendable {
        /// The new table is being served.
        case reloaded(routes: Int)
        /// The edit is broken; the previous table keeps serving.
        case rejected(problems: [String])
    }

    private let paths: [String]
    private let server: StubdServer
    private let alsoServed: [Fixture]
    private let logger: Logger?
    private let onReload: (@Sendable (ReloadResult) -> Void)?
    private let timer: any DispatchSourceTimer
    private let lastSignature: Mutex<[String]>

    /// Starts watching `paths` for `server`, checking every `interval` seconds. `alsoServed` (a
    /// targets package's compiled Swift targets) is served with every reload.
    public init(paths: [String], server: StubdServer, alsoServed: [Fixture] = [], interval: Double = 0.5, logger: Logger? = nil,
                onReload: (@Sendable (ReloadResult) -> Void)? = nil) {
        self.paths = paths
        self.alsoServed = alsoServed
        self.server = server
        self.logger = logger
        self.onReload = onReload
        self.lastSignature = Mutex(FixtureWatcher.signature(of: paths))
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "stubd.fixture-watcher"))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in self?.check() }
        timer.resume()
    }

    /// Stops watching.
    public func stop() { timer.cancel() }

    deinit { timer.cancel() }

    private func check() {
        let signature = Self.signature(of: paths)
        let changed = lastSignature.withLock { last in
            defer { last = signature }
            return last != signature
        }
        guard changed else { return }
        let outcome = reload()
        switch outcome {
        case .reloaded(let routes):
            logger?.info("reloaded \(routes) routes from \(paths.joined(separator: " "))")
        case .rejected(let problems):
            for problem in problems { logger?.error("\(problem)") }
            logger?.error("fixtures not reloaded; the previous \(server.table.routes.count) routes keep serving")
        }
        onReload?(outcome)
    }

    /// Loads and compiles the fixtures now; serves them if they are valid.
    @discardableResult
    public func reload() -> ReloadResult {
        do {
            let table = try RouteTable(fixtures: try FixtureLoader.load(paths: paths) + alsoServed)
            server.replaceFixtures(table)
            return .reloaded(routes: table.routes.count)
        } catch let errors as FixtureErrors {
            return .rejected(problems: errors.errors.map(\.description))
        } catch {
            return .rejected(problems: ["\(error)"])
        }
    }

    /// Path, size and modification time of every file under `paths`, sorted.
    static func signature(of paths: [String]) -> [String] {
        var lines: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { lines.append("missing \(path)"); continue }
            // Each folder once: a symbolic-link loop is walked around, not into (the loader names it).
            let files = isDirectory.boolValue ? FixtureLoader.allFiles(under: path) : [path]
            for file in files {
                guard let attributes = try? manager.attributesOfItem(atPath: file) else { continue }
                let size = (attributes[.size] as? NSNumber)?.intValue ?? -1
                let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                lines.append("\(file) \(size) \(modified)")
            }
        }
        return lines.sorted()
    }
}
