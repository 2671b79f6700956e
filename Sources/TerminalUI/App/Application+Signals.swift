#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// Signals: SIGINT, SIGTERM and SIGHUP quit, Ctrl-Z / SIGTSTP suspends, SIGCONT and SIGWINCH redraw.
extension Application {
    /// The exit status when the terminal goes away (input closed, or SIGHUP).
    var hangUpStatus: Int32 { 128 + SIGHUP }

    func handleSignal(_ signal: Int32) {
        switch signal {
        case SIGINT, SIGTERM, SIGHUP:
            signalRelay?.acknowledgeTermination()
            quit(status: 128 + signal)
        case SIGTSTP:
            suspend()
        case SIGCONT:
            // Stopped by something other than our own Ctrl-Z (which has already taken the terminal back):
            // the shell may have reset the terminal meanwhile, so enter program mode again and redraw fully.
            terminal.resume()
            terminal.updateSize()
            needsDisplay = true
            needsFullFrame = true
            render()
        case SIGWINCH:
            dispatch(.resize)
            renderIfNeeded()
        default:
            break
        }
    }

    /// Gives the terminal to the shell and stops the job (Ctrl-Z); on `fg` takes it back and redraws.
    public func suspend() {
        guard isStarted else { return }
        terminal.suspend()
        if terminal.inputFileDescriptor != nil {
            signalRelay?.stopJob()
        }
        terminal.resume()
        terminal.updateSize()
        needsDisplay = true
        needsFullFrame = true
        render()
    }
}
