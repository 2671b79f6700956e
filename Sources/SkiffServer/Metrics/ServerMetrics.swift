import Prometheus
import SkiffAPI
import Synchronization

/// What an operator scrapes at `GET /metrics` (Prometheus text): requests by operation and status with their
/// latency, rate-limit refusals, transfers and top-ups by outcome, the database pool's use, the active sessions and
/// the open event streams.
///
/// One registry per server, not swift-metrics' process-wide `MetricsSystem`: a test process runs many servers, and
/// each must count only its own requests (docs/decisions/0163-metrics-on-a-loopback-port.md).
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()

    /// The latency buckets, in seconds: 1 ms to 10 s.
    static let latencyBuckets: [Duration] = [
        .milliseconds(1), .microseconds(2_500), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
        .microseconds(2_500_000), .seconds(5), .seconds(10),
    ]

    /// The label of a request the contract does not describe (`/health`, `/openapi.yaml`, an unknown path).
    static let otherOperation = "other"

    private static var requests: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "skiff", subsystem: "http", metricName: "requests", unitName: "total",
            helpText: "Requests answered, by the contract's operationId and the status code."
        )
    }
    private static var latency: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "skiff", subsystem: "http", metricName: "request_duration", unitName: "seconds",
            helpText: "Time from a request's arrival to its response head, by operationId."
        )
    }
    private static var refusals: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "skiff", metricName: "rate_limit_refusals", unitName: "total",
            helpText: "Requests refused with 429 by a rate limit, by operationId."
        )
    }
    private static var transfers: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "skiff", metricName: "transfers", unitName: "total",
            helpText: "Transfer requests by outcome: sent, replayed (same Idempotency-Key) or the problem's type."
        )
    }
    private static var topUps: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "skiff", metricName: "topups", unitName: "total",
            helpText: "Top-up requests (and code confirmations) by outcome: completed, code-required, replayed or the problem's type."
        )
    }
    private let databaseInUse: Gauge
    private let databaseCapacity: Gauge
    private let sessions: Gauge
    private let streams: Gauge

    init() {
        databaseInUse = registry.makeGauge(descriptor: MetricNameDescriptor(
            namespace: "skiff", subsystem: "database", metricName: "connections_in_use", unitName: "",
            helpText: "Database operations running now on this instance's pool."
        ))
        databaseCapacity = registry.makeGauge(descriptor: MetricNameDescriptor(
            namespace: "skiff", subsystem: "database", metricName: "connections_max", unitName: "",
            helpText: "Connections this instance's pool may hold open at once."
        ))
        sessions = registry.makeGauge(descriptor: MetricNameDescriptor(
            namespace: "skiff", metricName: "sessions_active", unitName: "",
            helpText: "Sessions that would authenticate now, on every instance (read from the database at each scrape)."
        ))
        streams = registry.makeGauge(descriptor: MetricNameDescriptor(
            namespace: "skiff", metricName: "event_streams_open", unitName: "",
            helpText: "GET /v1/events streams open on this instance."
        ))
    }

    /// Each operation's latency histogram and its request counter by status, made once: making them again for every
    /// request (descriptor, label checks, the registry's lock) was a few µs of every request (issue 47's profile).
    private struct RequestInstruments {
        var latency: DurationHistogram
        var requests: [Int: Counter] = [:]
    }
    private let instruments = Mutex([String: RequestInstruments]())

    /// Counts one answered request.
    func record(_ answer: RequestObservation.Answer) {
        let (counter, histogram) = instruments.withLock { instruments in
            if let entry = instruments[answer.operation], let counter = entry.requests[answer.status] {
                return (counter, entry.latency)
            }
            var entry = instruments[answer.operation] ?? RequestInstruments(
                latency: registry.makeDurationHistogram(
                    descriptor: Self.latency, labels: [("operation", answer.operation)], buckets: Self.latencyBuckets
                )
            )
            let counter = registry.makeCounter(
                descriptor: Self.requests, labels: [("operation", answer.operation), ("status", String(answer.status))]
            )
            entry.requests[answer.status] = counter
            instruments[answer.operation] = entry
            return (counter, entry.latency)
        }
        counter.increment()
        histogram.record(answer.duration)
        if answer.status == 429 {
            registry.makeCounter(descriptor: Self.refusals, labels: [("operation", answer.operation)]).increment()
        }
        switch answer.operation {
        case "sendTransfer":
            registry.makeCounter(descriptor: Self.transfers, labels: [("outcome", answer.outcome(success: "sent"))]).increment()
        case "createTopUp", "confirmTopUp":
            let success = answer.status == 202 ? "code-required" : "completed"
            registry.makeCounter(descriptor: Self.topUps, labels: [("outcome", answer.outcome(success: success))]).increment()
        default:
            break
        }
    }

    /// The text a scrape gets, with the gauges read now.
    func exposition(database: DatabaseUsage, activeSessions: Int?, eventStreams: Int) -> [UInt8] {
        streams.set(Int64(eventStreams))
        databaseInUse.set(Int64(database.inFlight))
        databaseCapacity.set(Int64(database.capacity))
        if let activeSessions { sessions.set(Int64(activeSessions)) }
        return registry.emitToBuffer()
    }
}
