/// Time for the idle lock: the current moment and one alarm. Passed in, so tests move time by hand.
@MainActor
protocol IdleClock: AnyObject {
    /// Time since an arbitrary origin.
    var now: Duration { get }
    /// Calls `action` on the main actor at `deadline`, unless the returned alarm is cancelled first.
    func schedule(at deadline: Duration, _ action: @escaping @MainActor () -> Void) -> IdleAlarm
}

/// An alarm set with `IdleClock.schedule`.
struct IdleAlarm {
    let cancel: @MainActor () -> Void
}

/// The monotonic clock; an alarm is one task asleep until its deadline (no polling).
@MainActor
final class LiveIdleClock: IdleClock {
    private let origin = ContinuousClock.now

    init() {}

    var now: Duration { ContinuousClock.now - origin }

    func schedule(at deadline: Duration, _ action: @escaping @MainActor () -> Void) -> IdleAlarm {
        // A timer, not work: left out of the tracked tasks, so waiting for those never waits for the lock.
        let task = Task { @MainActor [origin] in
            do { try await Task.sleep(until: origin + deadline, clock: .continuous) } catch { return }
            action()
        }
        return IdleAlarm { task.cancel() }
    }
}

/// Calls `onIdle` once `timeout` has passed without `noteActivity()`.
///
/// One alarm is set for the deadline. A key only records when it came; when the alarm goes off early because
/// keys came meanwhile, it is set again for the new deadline. So typing costs no timer work, and an idle
/// process wakes once, at the deadline.
@MainActor
final class IdleTimer {
    let timeout: Duration
    private let clock: any IdleClock
    private var lastActivity: Duration = .zero
    private var alarm: IdleAlarm?
    /// Called when the timeout has passed without activity; the timer is stopped by then.
    var onIdle: @MainActor () -> Void = {}

    init(timeout: Duration, clock: any IdleClock) {
        self.timeout = timeout
        self.clock = clock
    }

    /// Whether an alarm is set.
    var isRunning: Bool { alarm != nil }

    /// Starts counting from now.
    func start() {
        lastActivity = clock.now
        arm(at: lastActivity + timeout)
    }

    /// Restarts the count: a key was pressed.
    func noteActivity() {
        lastActivity = clock.now
    }

    /// Cancels the alarm.
    func stop() {
        alarm?.cancel()
        alarm = nil
    }

    private func arm(at deadline: Duration) {
        alarm?.cancel()
        alarm = clock.schedule(at: deadline) { [weak self] in self?.alarmWentOff() }
    }

    private func alarmWentOff() {
        alarm = nil
        let deadline = lastActivity + timeout
        if clock.now >= deadline {
            onIdle()
        } else {
            arm(at: deadline)
        }
    }
}

/// How the app locks itself when left alone: after how long, on which clock.
struct IdleLockSettings {
    var after: Duration
    var clock: any IdleClock
}
