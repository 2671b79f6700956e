import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The rule for the server's secret files (the server key, the SMS outbox, the SQLite database): a regular file
/// that only its owner may read or write. The mode is read from the open descriptor, so the file checked is the
/// file then used.
enum OwnerOnlyFile {
    /// Why a file is refused, worded for the person who can fix it.
    struct Refusal: Error, CustomStringConvertible {
        let description: String

        /// `what` (such as "The key file") at `path` can be read or written by group or others.
        static func openToOthers(_ what: String, path: String, mode: mode_t) -> Refusal {
            Refusal(description: "\(what) \(path) can be read or written by other users (mode \(String(mode & 0o777, radix: 8))); "
                + "make it the owner's alone with `chmod 600 \(path)` and start again.")
        }
    }

    /// Whether a file of `mode` may be read or written by group or others.
    static func isOpenToOthers(_ mode: mode_t) -> Bool {
        mode & 0o077 != 0
    }

    /// Throws `Refusal.openToOthers` when the file open as `descriptor` is open to group or others.
    static func check(_ descriptor: Int32, _ what: String, path: String) throws(Refusal) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Refusal(description: "\(what) \(path) cannot be examined.") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw Refusal(description: "\(what) \(path) is not a regular file.") }
        guard !isOpenToOthers(status.st_mode) else { throw .openToOthers(what, path: path, mode: status.st_mode) }
    }

    /// Checks the file at `path`, if there is one, as `openChecked` does, and closes it again.
    static func checkExisting(_ path: String, flags: Int32, _ what: String, followingLinks: Bool = true) throws(Refusal) {
        if let descriptor = try openChecked(path, flags: flags, what, followingLinks: followingLinks) {
            close(descriptor)
        }
    }

    /// Opens `path` with `flags` (plus close-on-exec and, so that a FIFO cannot hold the server, non-blocking) and
    /// checks it; with `followingLinks` false a symbolic link is refused, not followed. Nil when there is no file
    /// (and `flags` does not create one).
    static func openChecked(
        _ path: String, flags: Int32, _ what: String, followingLinks: Bool = true
    ) throws(Refusal) -> Int32? {
        let descriptor = open(path, flags | O_CLOEXEC | O_NONBLOCK | (followingLinks ? 0 : O_NOFOLLOW), 0o600)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP: throw Refusal(description: "\(what) \(path) is a symbolic link, which is not followed: give the path of the file itself.")
            default: throw Refusal(description: "\(what) \(path) cannot be opened: \(String(cString: strerror(errno))).")
            }
        }
        do {
            try check(descriptor, what, path: path)
        } catch {
            close(descriptor)
            throw error
        }
        return descriptor
    }

    /// The first line of the owner-only file at `path` (a secret: an API key, a signing secret), checked as
    /// `openChecked` does; refused when missing or empty.
    static func firstLine(of path: String, _ what: String) throws(Refusal) -> String {
        guard let descriptor = try openChecked(path, flags: O_RDONLY, what) else {
            throw Refusal(description: "\(what) \(path) does not exist.")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let text = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
        guard let line = text.split(separator: "\n", omittingEmptySubsequences: false).first?
            .trimmingCharacters(in: .whitespaces), !line.isEmpty
        else { throw Refusal(description: "\(what) \(path) is empty: its first line should hold the secret.") }
        return line
    }
}
