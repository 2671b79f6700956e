import Foundation
import PackagePlugin

/// Gives the executable target it is applied to (`skiff`, `skiff-server`) a `BuildInfo.commit`, for `--version`:
/// `BuildInfoGenerator` reads it from the checkout's `.git` files. Applied to the two small executables only, so a
/// new commit recompiles those, not the libraries under them.
@main
struct BuildInfoPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let git = context.package.directoryURL.appending(path: ".git")
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildInfo.swift")
        return [
            .buildCommand(
                displayName: "Reading the commit for \(target.name) --version",
                executable: try context.tool(named: "BuildInfoGenerator").url,
                arguments: ["--git", git.path, "--output", output.path],
                inputFiles: Self.inputs(git: git),
                outputFiles: [output]
            ),
        ]
    }

    /// The files whose change means another commit: HEAD, the ref it names, packed-refs (those that exist).
    static func inputs(git: URL) -> [URL] {
        var directory = git
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: git.path, isDirectory: &isFolder) else { return [] }
        if !isFolder.boolValue {
            guard let line = try? String(contentsOf: git, encoding: .utf8), line.hasPrefix("gitdir: ") else { return [] }
            directory = URL(fileURLWithPath: line.dropFirst("gitdir: ".count).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        var files = [directory.appending(path: "HEAD")]
        let common = (try? String(contentsOf: directory.appending(path: "commondir"), encoding: .utf8))
            .map { directory.appending(path: $0.trimmingCharacters(in: .whitespacesAndNewlines)).standardizedFileURL } ?? directory
        if let head = try? String(contentsOf: directory.appending(path: "HEAD"), encoding: .utf8), head.hasPrefix("ref: ") {
            let ref = head.dropFirst("ref: ".count).trimmingCharacters(in: .whitespacesAndNewlines)
            files.append(common.appending(path: ref))
        }
        files.append(common.appending(path: "packed-refs"))
        return files.filter { FileManager.default.fileExists(atPath: $0.path) }
    }
}
