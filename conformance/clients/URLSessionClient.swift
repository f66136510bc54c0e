// URLSession (swift-corelibs-foundation on Linux, CFNetwork on macOS; one session, so
// connections are reused) running conformance steps.
// Usage: URLSessionClient BASE_URL "METHOD PATH"...  (METHOD JSON posts {"name":"milk","qty":2} as
// application/json, Alamofire's spelling; STUBD_USER_AGENT, when set, replaces its User-Agent). Prints ok<TAB>status<TAB>body, or error<TAB>domain code message.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let arguments = CommandLine.arguments.dropFirst()
let base = arguments.first ?? ""
let configuration = URLSessionConfiguration.ephemeral
configuration.timeoutIntervalForRequest = 2
let session = URLSession(configuration: configuration)
for step in arguments.dropFirst() {
    let parts = step.split(separator: " ", maxSplits: 1).map(String.init)
    var request = URLRequest(url: URL(string: base + parts[1])!)
    if let agent = ProcessInfo.processInfo.environment["STUBD_USER_AGENT"], !agent.isEmpty {
        request.setValue(agent, forHTTPHeaderField: "User-Agent")
    }
    if parts[0] == "JSON" {
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"name":"milk","qty":2}"#.utf8)
    } else {
        request.httpMethod = parts[0]
    }
    let done = DispatchSemaphore(value: 0)
    session.dataTask(with: request) { data, response, error in
        if let error = error as NSError? {
            print("error\t\(error.domain) \(error.code) \(error.localizedDescription)")
        } else {
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            let text = String(decoding: (data ?? Data()).prefix(40), as: UTF8.self)
            print("ok\t\(status)\t\(text.split(whereSeparator: \.isWhitespace).joined(separator: " "))")
        }
        done.signal()
    }.resume()
    done.wait()
}
