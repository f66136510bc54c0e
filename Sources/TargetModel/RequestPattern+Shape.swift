import Foundation
extension RequestPattern {
    /// The shape of this exact pattern (see `MatchPolicy.shape`): parameter and field names kept
    /// with any values, headers dropped except `required` ones and, for a request with a body,
    /// Content-Type as a bare media type; bytes bodies not compared.
    public func shape(requiredHeaders required: Set<String>) -> RequestPattern {
        let values = withShapeHeaders(requiredHeaders: required)
        let body: BodyPattern
        switch self.body.match {
        case .json(.object(let members)): body = .fields(Array(Set(members.map(\.key))).sorted())
        case .form(let pairs): body = .fields(Array(Set(pairs.map(\.name))).sorted())
        case .multipart(let parts): body = .fields(Array(Set(parts.map(\.name))).sorted())
        case .fields: body = self.body.match
        case .any, .json, .bytes, .contains, .matches, .all, .jsonPath: body = .any
        }
        var shape = RequestPattern(method: method, path: path, query: [], headers: values.headers, body: body)
        shape.query.present = Array(Set(query.pairs.map(\.name) + query.present)).sorted()
        shape.host = host
        return shape
    }

    /// This pattern with the same parameter values and body, but the headers a shape compares:
    /// what tells apart targets that share a shape, whatever platform sends the request.
    public func withShapeHeaders(requiredHeaders required: Set<String>) -> RequestPattern {
        let keep = Set(required.map { $0.lowercased() })
        let headers = self.headers.compactMap { header -> NameValue? in
            if keep.contains(header.name) { return header }
            // The media type describes a body; a bodyless request (Alamofire sets the target's
            // Content-Type even on GET) is matched without it.
            guard header.name == "content-type", self.body.match != .any else { return nil }
            let media = header.value.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? header.value
            return NameValue(header.name, media)
        }
        var pattern = self
        pattern.headers = headers
        return pattern
    }
}
