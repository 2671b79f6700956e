import Foundation
import SkiffAPI

extension SkiffAPIHandler {
    func streamEvents(_ input: Operations.StreamEvents.Input) async throws -> Operations.StreamEvents.Output {
        let caller = try Caller.required()
        var after: Int64?
        if let raw = input.headers.lastEventID {
            guard (1...19).contains(raw.utf8.count), raw.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            else {
                throw Problem.validation([.init(field: "Last-Event-ID", message: "Send the id of the last event received.")])
            }
            // Ids are never that large, so an id past Int64 has nothing after it.
            after = Int64(raw) ?? Int64.max - 1
        }
        // Only a client that names the stream's type waits for events; `*/*`, or no Accept, gets the catch-up and the
        // end (decision 0157).
        let waits = input.headers.accept.contains { $0.contentType == .textEventStream }
        guard let subscription = events.hub.subscribe(userID: caller.userID, address: ClientAddress.current) else {
            throw Problem.eventStreamsLimited(retryAfter: Int(events.settings.limits.eventKeepAliveInterval))
        }
        // A client that goes away frees its place at once (issue 45: a dead stream kept it 20-40 s).
        RequestConnection.closed?.whenComplete { _ in subscription.end() }
        let stream = EventStream(
            settings: events.settings, subscription: subscription, userID: caller.userID, tokenHash: caller.tokenHash,
            after: after, waits: waits
        )
        return .ok(.init(body: .textEventStream(stream.encoded())))
    }
}

/// The event streams of a server: the hub that rings them and what each reads with.
struct EventStreams: Sendable {
    let hub: EventHub
    let settings: EventStream.Settings
}
