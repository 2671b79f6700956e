import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory scaffold-scene NAME [--form Field,… [--stages Stage,…] | --list
/// | --flows Load,Submit] [--coordinator]`: writes a scene in the canonical shape from the templates in
/// `Resources/SceneTemplates/`.
@main
struct ScaffoldScene: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let package = context.package.directoryURL
        let options = try Options(arguments)
        let templates = package.appending(path: "Resources/SceneTemplates")
        let manifest = try Manifest(contentsOf: templates.appending(path: "manifest.txt"))
        let scene = try SceneDescription(
            name: options.name, shape: options.shape, flows: options.flows, fields: options.fields, stages: options.stages,
            in: package
        )
        let variables = scene.variables

        var files: [(path: String, text: String)] = []
        var nextSteps = ""
        for entry in manifest.entries where entry.applies(shape: options.shape, withCoordinator: options.withCoordinator) {
            let template = try Template(contentsOf: templates.appending(path: entry.template))
            let text = try template.render(variables)
            if entry.destination == Manifest.printDestination {
                nextSteps += text
            } else {
                files.append((try Template(entry.destination, name: "destination of \(entry.template)").render(variables), text))
            }
        }

        let existing = files.map(\.path).filter { FileManager.default.fileExists(atPath: package.appending(path: $0).path) }
        guard existing.isEmpty else {
            throw ScaffoldError("refusing to overwrite existing files: \(existing.joined(separator: ", "))")
        }
        for file in files {
            let url = package.appending(path: file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.text.write(to: url, atomically: true, encoding: .utf8)
        }

        print("Wrote the \(scene.name) scene:")
        for file in files {
            print("  \(file.path)")
        }
        if files.contains(where: { $0.path.contains("/__Snapshots__/") }) {
            let exclusion = SnapshotExclusion(manifest: package.appending(path: "Package.swift"))
            if try exclusion.add(scene.name) {
                print("  Package.swift: \(scene.name) added to \(SnapshotExclusion.listName), so SkiffTests excludes its __Snapshots__")
            } else {
                Diagnostics.warning("Package.swift has no \(SnapshotExclusion.listName) list: exclude Scenes/\(scene.name)/__Snapshots__ from SkiffTests by hand")
            }
        }
        print("")
        print(nextSteps, terminator: "")
    }
}

/// The command line: the scene's name, its shape (and flows or fields) and whether to write a coordinator.
struct Options {
    static let usage = """
        usage: swift package --allow-writing-to-package-directory scaffold-scene NAME [--coordinator]
                   [--form Field,…      a form of these fields, checked on leave, sent as one request
                      [--stages A,B,…]  … shown in these stages, in order: Enter sends one and moves on, Esc goes back
                   | --list             a paged list whose items open a detail route
                   | --flows Load,Name] plain flows the author writes (Load runs on load, the other gets Enter)
        """

    var name: String
    var shape: SceneShape
    var flows: [String]
    var fields: [String]
    /// The stages of a form shown in stages (`--stages`), in order; empty for any other scene.
    var stages: [String]
    var withCoordinator: Bool

    init(_ arguments: [String]) throws {
        for option in ["--flows", "--form", "--stages"] {
            if let index = arguments.firstIndex(of: option), index + 1 == arguments.count || arguments[index + 1].hasPrefix("-") {
                throw ScaffoldError(
                    "\(option) needs a comma-separated list of names, such as Load,Submit, FullName,Email or Phone,Code\n\(Self.usage)"
                )
            }
        }
        var extractor = ArgumentExtractor(arguments)
        let flowLists = extractor.extractOption(named: "flows")
        let fieldLists = extractor.extractOption(named: "form")
        let stageLists = extractor.extractOption(named: "stages")
        let isList = extractor.extractFlag(named: "list") > 0
        withCoordinator = extractor.extractFlag(named: "coordinator") > 0
        let rest = extractor.remainingArguments
        if let unknown = rest.first(where: { $0.hasPrefix("-") }) {
            throw ScaffoldError("unknown option \(unknown)\n\(Self.usage)")
        }
        guard rest.count == 1, let name = rest.first else {
            throw ScaffoldError("give exactly one scene name\n\(Self.usage)")
        }
        self.name = name
        let split = { (lists: [String]) in
            lists.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        fields = split(fieldLists)
        stages = split(stageLists)
        guard stageLists.isEmpty || !fieldLists.isEmpty else {
            throw ScaffoldError("--stages is for a form: name its fields with --form as well, such as --form Phone,Code --stages Phone,Code\n\(Self.usage)")
        }
        switch (fieldLists.isEmpty, isList) {
        case (false, true):
            throw ScaffoldError("a scene is a form or a list, not both\n\(Self.usage)")
        case (false, false):
            shape = stageLists.isEmpty ? .form : .stagedForm
        case (true, true):
            shape = .list
        case (true, false):
            shape = .plain
        }
        guard shape == .plain || flowLists.isEmpty else {
            throw ScaffoldError("--flows is for plain scenes; a \(shape.rawValue) scene has the flows of its shape\n\(Self.usage)")
        }
        flows = shape != .plain ? [] : flowLists.isEmpty ? ["Load"] : split(flowLists)
    }
}

/// A refusal or a broken template, told to the person running the command.
struct ScaffoldError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
