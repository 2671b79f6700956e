@testable import Skiff

/// An idle clock that moves only when told: `advance(by:)` goes off every alarm that falls due, in order.
@MainActor
final class ManualIdleClock: IdleClock {
    private(set) var now: Duration = .zero
    private var alarms: [(id: Int, deadline: Duration, action: @MainActor () -> Void)] = []
    private var nextID = 0
    /// How many alarms were ever set (each one is a wake-up of a real process).
    private(set) var scheduledCount = 0

    /// Alarms set and not yet gone off or cancelled.
    var pendingCount: Int { alarms.count }

    func schedule(at deadline: Duration, _ action: @escaping @MainActor () -> Void) -> IdleAlarm {
        let id = nextID
        nextID += 1
        scheduledCount += 1
        alarms.append((id, deadline, action))
        return IdleAlarm { [weak self] in self?.alarms.removeAll { $0.id == id } }
    }

    func advance(by duration: Duration) {
        let target = now + duration
        while let next = alarms.filter({ $0.deadline <= target }).min(by: { $0.deadline < $1.deadline }) {
            alarms.removeAll { $0.id == next.id }
            now = max(now, next.deadline)
            next.action()
        }
        now = target
    }
}
