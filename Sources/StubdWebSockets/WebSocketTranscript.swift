import Foundation
package import StubdEngine
package import Recording
package import StubModel
import Synchronization

/// One conversation's messages as the journal keeps them — each with its side and time, text
/// cut to `messageBytesLimit` bytes, JSON with secret members hidden, binary as base64, at most
/// `messageLimit` of them — and the document the exchange's record holds when it ends. Both a
/// scripted conversation (`WebSocketPlayer`) and a relayed one (`WebSocketRelay`) keep one;
/// notes may come from any thread (a test's push).
package final class WebSocketTranscript: Sendable {
    /// Messages kept, and bytes kept of each.
    package static let messageLimit = 200
    package static let messageBytesLimit = 4096

    private let started = DispatchTime.now().uptimeNanoseconds
    private let redactor: Redactor
    private let kept = Mutex<(entries: [JSONValue], dropped: Int)>(([], 0))
    /// Told of each message noted (a live view), once the conversation is registered. Boxed: a
    /// bare closure as a `Mutex`'s value is re-abstracted on every access, and each access through
    /// `withLock` wrapped it in two more thunks (found by perf: 75 % of a busy loop's time).
    private final class Listener: Sendable {
        let call: @Sendable (JSONValue) -> Void
        init(_ call: @escaping @Sendable (JSONValue) -> Void) { self.call = call }
    }
    private let listener = Mutex<Listener?>(nil)

    package init(redactor: Redactor) { self.redactor = redactor }

    /// Seconds since the conversation opened.
    package var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 }

    /// Notes a message from `side` (`client` or `server`).
    package func note(_ message: WebSocketMessage, from side: String) {
        var entry: [(key: String, value: JSONValue)] = [("from", .string(side)), ("at", .number((elapsed * 1000).rounded() / 1000))]
        switch message {
        case .text(let text):
            if let json = try? JSONParser.parse(Array(text.utf8)), case .object = json {
                let hidden = JSONWriter.write(redactor.json(json), pretty: false)
                entry.append(("text", .string(String(hidden.utf8.prefix(Self.messageBytesLimit)) ?? "")))
            } else {
                entry.append(("text", .string(String(decoding: text.utf8.prefix(Self.messageBytesLimit), as: UTF8.self))))
            }
            if text.utf8.count > Self.messageBytesLimit { entry.append(("size", .number(Double(text.utf8.count)))) }
        case .binary(let bytes):
            entry.append(("base64", .string(Data(bytes.prefix(Self.messageBytesLimit)).base64EncodedString())))
            entry.append(("size", .number(Double(bytes.count))))
        }
        let note = JSONValue.object(entry)
        kept.withLock { kept in
            if kept.entries.count < Self.messageLimit { kept.entries.append(note) } else { kept.dropped += 1 }
        }
        listener.withLock { $0 }?.call(note)
    }

    /// Tells `listener` of every message noted from now on.
    package func onNote(_ listener: @escaping @Sendable (JSONValue) -> Void) {
        let box = Listener(listener)
        self.listener.withLock { $0 = box }
    }

    /// The messages so far (a live view).
    package var messages: [JSONValue] { kept.withLock { $0.entries } }

    /// `{"messages": […], "closed": {"by", "code", "reason"}, "messagesNotKept"}`, compact.
    package func document(code: Int?, reason: String, by: WebSocketEnding) -> [UInt8] {
        var ending: [(key: String, value: JSONValue)] = [("by", .string(by.rawValue))]
        if let code { ending.append(("code", .number(Double(code)))) }
        if !reason.isEmpty { ending.append(("reason", .string(reason))) }
        let (entries, dropped) = kept.withLock { ($0.entries, $0.dropped) }
        var document: [(key: String, value: JSONValue)] = [("messages", .array(entries)), ("closed", .object(ending))]
        if dropped > 0 { document.append(("messagesNotKept", .number(Double(dropped)))) }
        return Array(JSONWriter.write(.object(document), pretty: false).utf8)
    }
}
