// Foundation's URLSession through stubd's forward proxy (Tests/proxy/proxy_test.py compiles and
// runs it). On Linux, swift-corelibs-foundation ignores connectionProxyDictionary; its libcurl
// takes the proxy from `http_proxy` / `https_proxy`, as every libcurl client does, and trusts the
// system's CA store only (so HTTPS through an intercepting proxy needs stubd's CA installed there).
// On Apple platforms a test sets connectionProxyDictionary, as below.
//   http_proxy=http://127.0.0.1:PORT ./URLSessionProxy http://api.example.com/v1/me
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let configuration = URLSessionConfiguration.ephemeral
#if !canImport(FoundationNetworking)
if let proxy = ProcessInfo.processInfo.environment["http_proxy"].flatMap(URL.init(string:)), let host = proxy.host, let port = proxy.port {
    configuration.connectionProxyDictionary = [kCFNetworkProxiesHTTPEnable as String: 1, kCFNetworkProxiesHTTPProxy as String: host,
                                               kCFNetworkProxiesHTTPPort as String: port]
}
#endif
let session = URLSession(configuration: configuration)
let done = DispatchSemaphore(value: 0)
session.dataTask(with: URL(string: CommandLine.arguments[1])!) { data, response, error in
    if let response = response as? HTTPURLResponse {
        print(response.statusCode, String(decoding: data ?? Data(), as: UTF8.self))
    } else {
        print("error", error.map { "\($0)" } ?? "no answer")
    }
    done.signal()
}.resume()
done.wait()
