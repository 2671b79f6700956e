import Foundation
import Testing

/// One way to start a child flow (docs/decisions/0195): a coordinator shows a screen over another only by
/// starting a child (`startChild`), so only `SceneFlowCoordinator` pushes; and every scene is built in
/// `SceneFactory.swift`, by plain assignments the compiler checks.
@Suite("Coordinator layout")
struct CoordinatorLayoutTests {
    /// The coordinators' sources, by file name.
    static let sources: [(name: String, text: String)] = {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/Skiff/Coordinators")
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.pathExtension == "swift" }.compactMap { url in
            (try? String(contentsOf: url, encoding: .utf8)).map { (url.lastPathComponent, $0) }
        }.sorted { $0.name < $1.name }
    }()

    /// The lines of `text` that do `pattern`, as `file:line: text` (comments skipped).
    static func lines(of file: (name: String, text: String), matching pattern: String) -> [String] {
        file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            let code = line.trimmingCharacters(in: .whitespaces)
            guard !code.hasPrefix("//"), code.contains(pattern) else { return nil }
            return "\(file.name):\(index + 1): \(code)"
        }
    }

    @Test("the scan reads the coordinators")
    func scansSources() {
        #expect(Self.sources.contains { $0.name == "SceneFlowCoordinator.swift" && $0.text.contains("navigation.push(") })
        #expect(Self.sources.contains { $0.name == "HomeCoordinator.swift" })
    }

    @Test("no coordinator pushes a scene itself: a screen over another is a child flow (SceneFlowCoordinator)")
    func onlySceneFlowsPush() {
        let pushes = Self.sources.filter { $0.name != "SceneFlowCoordinator.swift" }
            .flatMap { Self.lines(of: $0, matching: ".push(") }
        #expect(pushes.isEmpty, "start a SceneFlowCoordinator with startChild instead:\n\(pushes.joined(separator: "\n"))")
    }

    @Test("a child's finish is set only by startChild, which removes the child")
    func onlyStartChildSetsOnFinish() {
        let settings = Self.sources.filter { $0.name != "Coordinator.swift" }
            .flatMap { Self.lines(of: $0, matching: ".onFinish = ") }
        #expect(settings.isEmpty, "start the child with startChild(_:onFinish:):\n\(settings.joined(separator: "\n"))")
    }

    @Test("scenes are wired by plain assignment, with no conversion closures")
    func noConversionClosures() {
        let closures = Self.sources.flatMap { Self.lines(of: $0, matching: "{ $0 }") }
        #expect(closures.isEmpty, "\(closures.joined(separator: "\n"))")
    }
}
