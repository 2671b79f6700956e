import Dispatch
import Synchronization
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

// The handler only writes the signal number into a pipe (async-signal-safe); the main actor reads the pipe
// and acts. A second terminating signal while the first is still unhandled (a stuck main actor) restores
// the terminal right in the handler and exits.

nonisolated(unsafe) private var relayWriteDescriptor: Int32 = -1
private let pendingTerminations = Atomic<Int>(0)
private let continuations = Atomic<Int>(0)

private func relaySignal(_ signal: Int32) {
    if signal == SIGCONT {
        continuations.wrappingAdd(1, ordering: .releasing)
    }
    if signal == SIGINT || signal == SIGTERM || signal == SIGHUP {
        if pendingTerminations.wrappingAdd(1, ordering: .relaxed).newValue >= 2 {
            emergencyRestoreTerminal()
            _exit(128 + signal)
        }
    }
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(relayWriteDescriptor, &byte, 1)
}

/// Delivers SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT and SIGWINCH to the main actor.
@MainActor
final class SignalRelay {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT, SIGWINCH]
    private var watch: ReadableWatch?
    private var readDescriptor: Int32 = -1
    private let onSignal: @MainActor (Int32) -> Void

    init(onSignal: @escaping @MainActor (Int32) -> Void) {
        self.onSignal = onSignal
    }

    /// Installs the handlers; call before the terminal starts so ncurses keeps out of these signals.
    func install() {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return }
        readDescriptor = descriptors[0]
        relayWriteDescriptor = descriptors[1]
        _ = fcntl(relayWriteDescriptor, F_SETFL, fcntl(relayWriteDescriptor, F_GETFL) | O_NONBLOCK)
        _ = fcntl(readDescriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(relayWriteDescriptor, F_SETFD, FD_CLOEXEC)
        pendingTerminations.store(0, ordering: .relaxed)
        for signal in Self.signals {
            setHandler(signal)
        }
        watch = ReadableWatch(descriptor: readDescriptor) { [weak self] in self?.drain() }
    }

    /// Routes one signal to the relay again (after it was set to its default action for a moment).
    func setHandler(_ signal: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = relaySignal
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        _ = sigaction(signal, &action, nil)
    }

    /// Stops the whole job with SIGTSTP, as a terminal's Ctrl-Z would, and returns once it runs again (`fg`).
    ///
    /// The process group stops, not only this process: a shell sees its job stop only when the process it
    /// waits for stops, which is a wrapper script when one started the app. `kill` does not stop the caller
    /// at once when the calling thread blocks SIGTSTP and leaves it to another thread (on Linux the main queue
    /// runs on a worker thread that blocks signals): so this thread takes SIGTSTP itself if it is still
    /// pending, then waits a moment for SIGCONT, and only then routes SIGTSTP to the relay again, which would
    /// otherwise catch the stop meant for the job. An orphaned process group is never stopped by SIGTSTP; the
    /// wait ends after 0.1 s then.
    func stopJob() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        _ = sigaction(SIGTSTP, &action, nil)
        var stopSignal = sigset_t()
        sigemptyset(&stopSignal)
        sigaddset(&stopSignal, SIGTSTP)
        var previousMask = sigset_t()
        _ = pthread_sigmask(SIG_BLOCK, &stopSignal, &previousMask)
        let continuedBefore = continuations.load(ordering: .acquiring)
        _ = kill(0, SIGTSTP)
        _ = pthread_sigmask(SIG_UNBLOCK, &stopSignal, nil)
        _ = pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        for _ in 0..<100 where continuations.load(ordering: .acquiring) == continuedBefore {
            usleep(1_000)
        }
        setHandler(SIGTSTP)
    }

    /// Marks a terminating signal as handled, so a later one is again relayed rather than forced.
    func acknowledgeTermination() {
        pendingTerminations.store(0, ordering: .relaxed)
    }

    /// Puts the default actions back and closes the pipe.
    func uninstall() {
        for signal in Self.signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = SIG_DFL
            sigemptyset(&action.sa_mask)
            _ = sigaction(signal, &action, nil)
        }
        watch?.cancel()
        watch = nil
        if relayWriteDescriptor >= 0 {
            let descriptor = relayWriteDescriptor
            relayWriteDescriptor = -1
            close(descriptor)
        }
        if readDescriptor >= 0 {
            close(readDescriptor)
            readDescriptor = -1
        }
    }

    private func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { read(readDescriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return }
        for byte in bytes[0..<count] {
            onSignal(Int32(byte))
        }
    }
}
