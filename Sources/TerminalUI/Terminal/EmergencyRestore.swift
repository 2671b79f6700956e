#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Everything here is touched from signal handlers, so it lives in memory allocated once and is only read or
// written with async-signal-safe calls (write, tcsetattr, sigaction, raise).

nonisolated(unsafe) private let savedTermios = UnsafeMutablePointer<termios>.allocate(capacity: 1)
nonisolated(unsafe) private let resetBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 512)
nonisolated(unsafe) private let resetLength = UnsafeMutablePointer<Int>.allocate(capacity: 1)
nonisolated(unsafe) private let isArmed = allocateFlags(1)
nonisolated(unsafe) private let previousActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
nonisolated(unsafe) private let hasPreviousAction = allocateFlags(65)

private func allocateFlags(_ count: Int) -> UnsafeMutablePointer<Bool> {
    let flags = UnsafeMutablePointer<Bool>.allocate(capacity: count)
    flags.initialize(repeating: false, count: count)
    return flags
}

/// Signals a Swift trap, an abort or a bad memory access raise.
let crashSignals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

/// Restores the terminal with async-signal-safe calls only: writes the reset sequences and puts back the
/// saved terminal settings. Safe to call from a signal handler; does nothing unless armed.
func emergencyRestoreTerminal() {
    guard isArmed.pointee else { return }
    isArmed.pointee = false
    _ = write(1, resetBytes, resetLength.pointee)
    _ = tcsetattr(0, TCSANOW, savedTermios)
}

private func crashHandler(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
    emergencyRestoreTerminal()
    let index = Int(signal)
    if index < 65 && hasPreviousAction[index] {
        _ = sigaction(signal, previousActions + index, nil)
    } else {
        setDefaultAction(signal)
    }
    let fromFault = (info?.pointee.si_code ?? 0) > 0 && signal != SIGTRAP
    if fromFault {
        // A faulting instruction runs again on return and reaches the previous handler (the Swift backtracer)
        // with the real context, which reports the crash and ends the process.
        return
    }
    // Sent by kill or raise (abort): let the previous handler run now, then die by the default action.
    var unblock = sigset_t()
    sigemptyset(&unblock)
    sigaddset(&unblock, signal)
    _ = sigprocmask(SIG_UNBLOCK, &unblock, nil)
    _ = raise(signal)
    setDefaultAction(signal)
    _ = raise(signal)
    _exit(128 + signal)
}

private func setDefaultAction(_ signal: Int32) {
    var fallback = sigaction()
    fallback.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&fallback.sa_mask)
    _ = sigaction(signal, &fallback, nil)
}

/// Remembers how to give the terminal back if the process dies, and installs crash handlers that do so.
///
/// `reset` is the byte sequence that leaves the alternate screen, shows the cursor and resets attributes.
func armEmergencyRestore(termios saved: termios, reset: [UInt8]) {
    savedTermios.pointee = saved
    let count = min(reset.count, 512)
    for i in 0..<count {
        resetBytes[i] = reset[i]
    }
    resetLength.pointee = count
    isArmed.pointee = true
    for signal in crashSignals {
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = crashHandler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_SIGINFO
        let index = Int(signal)
        hasPreviousAction[index] = sigaction(signal, &action, previousActions + index) == 0
    }
}

/// Forgets the saved state and puts the previous crash handlers back (after a normal stop).
func disarmEmergencyRestore() {
    isArmed.pointee = false
    for signal in crashSignals {
        let index = Int(signal)
        if hasPreviousAction[index] {
            _ = sigaction(signal, previousActions + index, nil)
            hasPreviousAction[index] = false
        }
    }
}
