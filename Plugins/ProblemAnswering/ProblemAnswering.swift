import Foundation
import PackagePlugin

/// Gives the target it is applied to (`Skiff`) a `ProblemAnswering` conformance for the `Output` of every operation
/// of SkiffAPI's `openapi.yaml` that answers a problem document as `default`, written by
/// `ProblemAnsweringGenerator`: nobody lists the operations, and a new one can go through `APIClient.send` at once.
@main
struct ProblemAnsweringPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let api = try context.package.targets(named: ["SkiffAPI"]).first else { return [] }
        let contract = api.directoryURL.appending(path: "openapi.yaml")
        let output = context.pluginWorkDirectoryURL.appending(path: "ProblemAnswering+Operations.swift")
        return [
            .buildCommand(
                displayName: "Deriving \(target.name)'s ProblemAnswering conformances from openapi.yaml",
                executable: try context.tool(named: "ProblemAnsweringGenerator").url,
                arguments: ["--contract", contract.path, "--output", output.path],
                inputFiles: [contract],
                outputFiles: [output]
            ),
        ]
    }
}
