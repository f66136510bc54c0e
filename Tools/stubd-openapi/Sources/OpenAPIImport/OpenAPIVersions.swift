import FixtureFiles
import OpenAPIKit30
import OpenAPIKitCompat
import Yams
import OpenAPIKit

/// Reads either OpenAPI version as one: 3.1 as it is, 3.0 converted to 3.1 by OpenAPIKitCompat,
/// so the importer has one code path. (Kept apart from the importer: OpenAPIKit and
/// OpenAPIKit30 name the same types, and only this file needs both.)
enum OpenAPIVersions {
    private struct VersionProbe: Decodable {
        let openapi: String?
        let swagger: String?
    }

    /// 3.1 as is; 3.0 converted to 3.1 by OpenAPIKitCompat, so one code path reads both.
    static func decode(_ text: String, file: String) throws -> OpenAPIKit.OpenAPI.Document {
        let probe: VersionProbe
        do {
            probe = try YAMLDecoder().decode(VersionProbe.self, from: text)
        } catch {
            throw FixtureError(file: file, field: "", problem: "not valid YAML or JSON (\(error))")
        }
        if probe.swagger != nil { throw FixtureError(file: file, field: "swagger", problem: "Swagger 2.0 is not supported; convert it to OpenAPI 3 first") }
        guard let version = probe.openapi else { throw FixtureError(file: file, field: "openapi", problem: "missing; give an OpenAPI 3.0 or 3.1 document") }
        if version.hasPrefix("3.0") {
            return try YAMLDecoder().decode(OpenAPIKit30.OpenAPI.Document.self, from: text).convert(to: .v3_1_0)
        }
        guard version.hasPrefix("3.1") else { throw FixtureError(file: file, field: "openapi", problem: "version \(version) is not supported; give OpenAPI 3.0 or 3.1") }
        return try YAMLDecoder().decode(OpenAPIKit.OpenAPI.Document.self, from: text)
    }

}
