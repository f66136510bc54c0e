public import Foundation

/// One part of a multipart upload, with Moya 15.0.x's shape (`uploadMultipart([MultipartFormData])`).
public struct MultipartFormData {
    /// Where the part's bytes come from.
    public enum FormDataProvider {
        /// Bytes in memory.
        case data(Foundation.Data)
        /// A file read at send time; Alamofire derives name and MIME type from it when absent.
        case file(URL)
        /// A stream of the given length.
        case stream(InputStream, UInt64)
    }

    /// The part's content.
    public let provider: FormDataProvider
    /// The form field name (`name="…"`).
    public let name: String
    /// The file name (`filename="…"`), if any.
    public let fileName: String?
    /// The part's Content-Type, if any.
    public let mimeType: String?

    /// Creates a part; the labels are Moya's.
    public init(provider: FormDataProvider, name: String, fileName: String? = nil, mimeType: String? = nil) {
        self.provider = provider
        self.name = name
        self.fileName = fileName
        self.mimeType = mimeType
    }
}
