import Foundation

extension MultipartEncoding {
    /// The parts Moya 15 hands Alamofire for a target's multipart list: `.data` as given; `.file`
    /// read now, named after the file and typed `application/octet-stream` (Alamofire's answer on
    /// Linux, which has no UTType table) unless both name and type are given; `.stream` read to its
    /// length, with `""` for a missing name or type (Moya passes empty strings).
    public static func parts(_ formData: [MultipartFormData]) throws -> [MultipartPart] {
        try formData.map { part in
            switch part.provider {
            case .data(let data):
                return MultipartPart(name: part.name, fileName: part.fileName, contentType: part.mimeType, body: [UInt8](data))
            case .file(let url):
                let bytes = [UInt8](try Data(contentsOf: url))
                if let fileName = part.fileName, let mimeType = part.mimeType {
                    return MultipartPart(name: part.name, fileName: fileName, contentType: mimeType, body: bytes)
                }
                return MultipartPart(name: part.name, fileName: url.lastPathComponent, contentType: "application/octet-stream", body: bytes)
            case .stream(let stream, let length):
                return MultipartPart(name: part.name, fileName: part.fileName ?? "", contentType: part.mimeType ?? "",
                                     body: readAll(stream, length: length))
            }
        }
    }

    private static func readAll(_ stream: InputStream, length: UInt64) -> [UInt8] {
        stream.open()
        defer { stream.close() }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while UInt64(bytes.count) < length {
            let n = stream.read(&buffer, maxLength: buffer.count)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return Array(bytes.prefix(Int(length)))
    }
}
