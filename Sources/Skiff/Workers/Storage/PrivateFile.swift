import Foundation

/// Writes small private files: the folder private (`PrivateFolder`), the file created with mode 0600 from its
/// first byte and then renamed over the old one, so it is never readable by others, not even for a moment.
enum PrivateFile {
    static func write(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        try PrivateFolder.prepare(folder)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path]) }
        let written = data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == data.count, rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
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
