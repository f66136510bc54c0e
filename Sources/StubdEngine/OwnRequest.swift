import CLibevent
import StubdSystem

/// A request of stubd's own (a webhook) waiting for its start time on a worker's loop. Unlike a
/// forwarded request it belongs to no client: it outlives the reply that caused it, and is
/// dropped, unsent, if the server stops first.
final class OwnRequest {
    let request: UpstreamRequest
    let completion: (UpstreamResponse) -> Void
    var timer: OpaquePointer?
    unowned let worker: Worker

    init(request: UpstreamRequest, worker: Worker, completion: @escaping (UpstreamResponse) -> Void) {
        self.request = request
        self.worker = worker
        self.completion = completion
    }
}

extension Worker {
    /// Sends `request` after `seconds` from this loop; `completion` runs on it with the answer.
    func send(_ request: UpstreamRequest, after seconds: Double, then completion: @escaping (UpstreamResponse) -> Void) {
        let own = OwnRequest(request: request, worker: self, completion: completion)
        own.timer = clev_timer_new(base, onOwnRequestTimer, Unmanaged.passUnretained(own).toOpaque())
        var delay = System.timeValue(seconds: max(seconds, 0))
        event_base_update_cache_time(base)
        guard let timer = own.timer, event_add(timer, &delay) == 0 else {
            if let timer = own.timer { event_free(timer) }
            completion(.failed("cannot schedule the request (out of memory)"))
            return
        }
        inFlight.hold(own)
    }

    fileprivate func start(_ own: OwnRequest) {
        inFlight.letGo(own)
        if let timer = own.timer { event_free(timer) }
        own.timer = nil
        dnsStarted = true
        UpstreamCall.start(own.request, for: nil, on: self, completion: own.completion)
    }

}

private func onOwnRequestTimer(_ fd: Int32, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    let own = Unmanaged<OwnRequest>.fromOpaque(arg).takeUnretainedValue()
    own.worker.start(own)
}
