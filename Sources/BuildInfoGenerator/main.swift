// Writes BuildInfo.swift for an executable target (the BuildInfo plugin runs it at build time):
//
//     BuildInfoGenerator --git PATH-TO-.git --output FILE
//
// `enum BuildInfo { static let commit }`: the checked-out commit (12 hex digits), read from the repository's files
// with no `git` program (HEAD, the ref it names, packed-refs; a worktree's `.git` file is followed); "unknown" where
// there is no repository (a source tarball). Foundation only.
import Foundation

func argument(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func read(_ path: String) -> String? {
    (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The repository folder of a `.git` entry: itself, or where a worktree's `.git` file points.
func gitDirectory(_ path: String) -> String? {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
    if isFolder.boolValue { return path }
    guard let line = read(path), line.hasPrefix("gitdir: ") else { return nil }
    let target = String(line.dropFirst("gitdir: ".count))
    return target.hasPrefix("/") ? target : (path as NSString).deletingLastPathComponent + "/" + target
}

func commit(git: String) -> String? {
    guard let directory = gitDirectory(git), let head = read(directory + "/HEAD") else { return nil }
    guard head.hasPrefix("ref: ") else { return head }
    let ref = String(head.dropFirst("ref: ".count))
    // A worktree keeps its HEAD; refs live in the common repository.
    let common = read(directory + "/commondir").map { $0.hasPrefix("/") ? $0 : directory + "/" + $0 } ?? directory
    for folder in [directory, common] {
        if let hash = read(folder + "/" + ref) { return hash }
    }
    for line in (read(common + "/packed-refs") ?? "").split(separator: "\n") where line.hasSuffix(" " + ref) {
        return String(line.prefix { $0 != " " })
    }
    return nil
}

guard let git = argument("--git"), let output = argument("--output") else {
    FileHandle.standardError.write(Data("usage: BuildInfoGenerator --git PATH --output FILE\n".utf8))
    exit(64)
}
let hash = commit(git: git).flatMap { $0.count >= 12 && $0.allSatisfy(\.isHexDigit) ? String($0.prefix(12)) : nil } ?? "unknown"
let source = """
    // Generated at build time by BuildInfoGenerator (the BuildInfo plugin); not in the repository.
    enum BuildInfo {
        /// The commit this binary was built from, or "unknown" outside a git checkout.
        static let commit = "\(hash)"
    }

    """
// Written only when it changes, so that a build with nothing new compiles nothing.
if read(output) != source.trimmingCharacters(in: .whitespacesAndNewlines) {
    try source.write(toFile: output, atomically: true, encoding: .utf8)
}
