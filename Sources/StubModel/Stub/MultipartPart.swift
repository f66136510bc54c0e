/// One part of a multipart/form-data body, as stubd compares it: field name, optional file name
/// and Content-Type, and the bytes. The boundary is not part of it (Alamofire picks a random one).
public struct MultipartPart: Sendable, Hashable, CustomStringConvertible {
    /// `name="…"` of the Content-Disposition.
    public var name: String
    /// `filename="…"`, if any.
    public var fileName: String?
    /// The part's Content-Type, if any.
    public var contentType: String?
    /// The part's bytes.
    public var body: [UInt8]

    /// Creates a part.
    public init(name: String, fileName: String? = nil, contentType: String? = nil, body: [UInt8]) {
        self.name = name
        self.fileName = fileName
        self.contentType = contentType
        self.body = body
    }

    /// `name (file.png, image/png, 120 bytes)`.
    public var description: String {
        let details = [fileName, contentType, "\(body.count) bytes"].compactMap { $0 }.joined(separator: ", ")
        return "\(name) (\(details))"
    }
}
