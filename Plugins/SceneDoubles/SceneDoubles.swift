import Foundation
import PackagePlugin

/// Makes the test doubles of every scene for the target it is applied to (SkiffTests): the spies of each scene's
/// three protocols and the key fuzzer's display taps, written by `SceneDoublesGenerator` from the Skiff target's
/// sources at build time (the API is described at the top of Sources/SceneDoublesGenerator/main.swift).
@main
struct SceneDoubles: BuildToolPlugin {
    /// The folder under the Skiff target whose subfolders are scenes, and the one that is not a scene.
    static let scenesFolder = "Scenes"
    static let sharedFolder = "Shared"

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let skiff = context.package.targets.first(where: { $0.name == "Skiff" }) as? SourceModuleTarget else {
            throw SceneDoublesError("the package has no Skiff source target to read scenes from")
        }
        let sources = skiff.sourceFiles(withSuffix: "swift").map(\.url)
        let scenesRoot = skiff.directoryURL.appending(path: Self.scenesFolder)
        let scenes = try FileManager.default.contentsOfDirectory(atPath: scenesRoot.path)
            .filter { $0 != Self.sharedFolder && !$0.hasPrefix(".") }
            .filter { name in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: scenesRoot.appending(path: name).path, isDirectory: &isFolder)
                    && isFolder.boolValue
            }
            .sorted()
        let output = context.pluginWorkDirectoryURL.appending(path: "SceneDoubles")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        var arguments = ["--output", output.path]
        for scene in scenes { arguments += ["--scene", scene] }
        arguments += sources.map(\.path)
        return [
            .buildCommand(
                displayName: "Generating the doubles of \(scenes.count) scenes",
                executable: try context.tool(named: "SceneDoublesGenerator").url,
                arguments: arguments,
                inputFiles: sources,
                outputFiles: scenes.map { output.appending(path: "Generated\($0)Doubles.swift") }
                    + [output.appending(path: "GeneratedSceneTaps.swift")]
            ),
        ]
    }
}

struct SceneDoublesError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
