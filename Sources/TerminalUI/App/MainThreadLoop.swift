import CDispatchMainQueue
import Dispatch
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// The main thread serving the main actor itself, and the descriptors it waits on, in one `poll(2)`
/// (decision 0171).
///
/// Under `dispatch_main()` a key woke two threads before the app saw it: libdispatch's manager thread, whose
/// `epoll` saw standard input readable, and then a worker thread that drains the main queue. Here the main thread
/// sleeps in `poll` on the descriptors being watched and on the main queue's own wake-up descriptor (libdispatch's
/// run-loop hooks, which CoreFoundation's run loop uses), so a key wakes the thread that draws its frame.
///
/// A program opts in by calling `run()` from a synchronous `main` once its work is started in a task. Without it
/// (tests, the gallery), `ReadableWatch` falls back to a dispatch read source on the main queue.
public enum MainThreadLoop {
    /// Whether `run()` is serving the main actor.
    @MainActor static private(set) var isServing = false
    /// The descriptors being waited on, in the order they were added.
    @MainActor static var watches: [ReadableWatch] = []

    /// Serves the main queue and every `ReadableWatch` on the main thread until the process exits.
    /// Call on the main thread, from a synchronous `main`; it never returns (end the program with `exit`).
    public static func run() -> Never {
        MainActor.assumeIsolated { serve() }
    }

    @MainActor
    private static func serve() -> Never {
        let queue = _dispatch_get_main_queue_handle_4CF()
        isServing = true
        var descriptors: [pollfd] = []
        while true {
            let watching = watches
            descriptors.removeAll(keepingCapacity: true)
            descriptors.append(pollfd(fd: queue, events: Int16(POLLIN), revents: 0))
            for watch in watching {
                descriptors.append(pollfd(fd: watch.descriptor, events: Int16(POLLIN), revents: 0))
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
            if ready < 0 {
                guard errno == EINTR || errno == EAGAIN else {
                    fatalError("MainThreadLoop: poll failed (errno \(errno))")
                }
                continue
            }
            // Keys first: they are what a person waits for.
            for (index, watch) in watching.enumerated() where !watch.isCancelled {
                let events = descriptors[index + 1].revents
                if events & Int16(POLLNVAL) != 0 {
                    watch.cancel()
                } else if events != 0 {
                    watch.fire()
                }
            }
            if descriptors[0].revents != 0 {
                var count: UInt64 = 0
                _ = read(queue, &count, MemoryLayout<UInt64>.size)
                _dispatch_main_queue_callback_4CF(nil)
            }
        }
    }
}

/// Calls a handler on the main actor whenever a descriptor is readable (or at its end: hang-up, error), until
/// cancelled: from `MainThreadLoop`'s `poll` when it serves the main actor, else through a dispatch read source on
/// the main queue.
@MainActor
final class ReadableWatch {
    let descriptor: Int32
    private let handler: @MainActor () -> Void
    private var source: DispatchSourceRead?
    private(set) var isCancelled = false

    init(descriptor: Int32, handler: @escaping @MainActor () -> Void) {
        self.descriptor = descriptor
        self.handler = handler
        if MainThreadLoop.isServing {
            MainThreadLoop.watches.append(self)
        } else {
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .main)
            source.setEventHandler {
                MainActor.assumeIsolated { handler() }
            }
            source.resume()
            self.source = source
        }
    }

    func fire() {
        handler()
    }

    /// Stops watching; the handler is not called again.
    func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        source?.cancel()
        source = nil
        MainThreadLoop.watches.removeAll { $0 === self }
    }
}
