import Foundation

/// Writes small private files: the folder private (`PrivateFolder`), the file created with mode 0600 from its
/// first byte, flushed to disk and then renamed over the old one, and the rename flushed too, so it is never
/// readable by others, not even for a moment, a reader finds the old file or the new one whole, never half of one,
/// and a written file survives a power cut. The writer holds an advisory lock (`flock`) on its temporary file
/// (`.<name>.<pid>.<uuid>.tmp`) until the rename; a process killed mid-write leaves the file unlocked, and the next
/// store of that file, or its next write, removes it.
enum PrivateFile {
    static func write(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        try PrivateFolder.prepare(folder)
        removeLeftovers(of: url)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path]) }
        // Closed after the rename: the lock says "being written" for as long as the temporary name exists.
        defer { close(descriptor) }
        let locked = flock(descriptor, LOCK_EX) == 0
        let written = data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let flushed = fsync(descriptor) == 0
        guard locked, written == data.count, flushed, rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        syncFolder(folder)
    }

    /// Flushes `folder`'s entries (a rename into it) to disk.
    private static func syncFolder(_ folder: URL) {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// Removes the temporary files of `url` that no writer holds: left by a process killed between creating one and
    /// renaming it. A process's lock ends with it, whatever becomes of its pid (pids are reused: a check of the pid
    /// alone kept files of killed runs). This process's own temporaries are left to its own writes.
    static func removeLeftovers(of url: URL) {
        let folder = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            guard pid_t(name.dropFirst(prefix.count).prefix { $0 != "." }) != getpid() else { continue }
            let path = folder.appendingPathComponent(name).path
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard descriptor >= 0 else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { unlink(path) }
            close(descriptor)
        }
    }

    /// Creates an empty file at `url` with mode 0600 unless one is there already, so that a library opening it
    /// afterwards (SQLite) finds it private; SQLite gives its journal, -wal and -shm files the same mode.
    static func createIfMissing(_ url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
        }
    }

    static func read(_ url: URL) -> Data? {
        FileManager.default.contents(atPath: url.path)
    }

    static func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }

    /// Renames a file the app cannot use to `<name>.corrupt-<UTC time>` beside it, so the next start begins afresh
    /// and the bytes stay for a person to look at; returns the new name, or nil when the file could not be moved.
    static func setAside(_ url: URL, at date: Date = Date()) -> URL? {
        let stamp = corruptStamp.string(from: date)
        var target = url.appendingPathExtension("corrupt-\(stamp)")
        var suffix = 1
        while FileManager.default.fileExists(atPath: target.path) {
            suffix += 1
            target = url.appendingPathExtension("corrupt-\(stamp)-\(suffix)")
        }
        return rename(url.path, target.path) == 0 ? target : nil
    }

    private static let corruptStamp: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter
    }()
}

/// A file of the app's that was there but could not be read as what it should hold (cut short by a kill, emptied,
/// overwritten): it was set aside (`PrivateFile.setAside`) and the app goes on without it.
struct UnreadableFile: Error, CustomStringConvertible {
    /// Where the file was.
    var file: URL
    /// Where it is now; nil when it could not be moved.
    var setAside: URL?

    var description: String {
        if let setAside { "\(file.path) could not be read; it was moved to \(setAside.lastPathComponent)" }
        else { "\(file.path) could not be read, nor moved aside" }
    }
}

/// The app's folders (data, state, cache): created with mode 0700, and an existing one that group or others
/// may enter is tightened to 0700 when it is ours, or refused.
public enum PrivateFolder {
    /// A folder that cannot be made private, said so that a person can fix it.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// Makes `folder` (with any missing parents) the owner's alone; returns a notice when it had to tighten an
    /// existing folder.
    @discardableResult
    public static func prepare(_ folder: URL) throws -> String? {
        let path = folder.path
        var status = stat()
        if stat(path, &status) != 0 {
            guard errno == ENOENT else { throw Problem(description: "The folder \(path) cannot be read.") }
            try FileManager.default.createDirectory(
                at: folder.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
            )
            guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw Problem(description: "The folder \(path) cannot be created.") }
            guard stat(path, &status) == 0 else { throw Problem(description: "The folder \(path) cannot be read.") }
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw Problem(description: "\(path) is not a folder.") }
        guard status.st_mode & 0o077 != 0 else { return nil }
        let mode = String(status.st_mode & 0o777, radix: 8)
        guard status.st_uid == geteuid(), chmod(path, 0o700) == 0 else {
            throw Problem(description: "The folder \(path) is open to other users (mode \(mode)) and is not yours to change: "
                + "have its owner run `chmod 700 \(path)`, or choose another folder with --data-dir.")
        }
        return "The folder \(path) was open to other users (mode \(mode)); it is now yours alone (700)."
    }
}

extension AppPaths {
    /// Prepares the data, state and cache folders (`PrivateFolder.prepare`); returns a notice per folder tightened.
    public func preparePrivateFolders() throws -> [String] {
        try [data, state, cache].compactMap { try PrivateFolder.prepare($0) }
    }
}
