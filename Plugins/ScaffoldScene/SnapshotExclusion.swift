import Foundation

/// Package.swift's `scenesWithSnapshots`: the scenes whose `__Snapshots__` folder the SkiffTests target
/// excludes. A new scene's recorded screen needs its name there, or SwiftPM warns about an unhandled file.
struct SnapshotExclusion {
    static let listName = "scenesWithSnapshots"
    /// Package.swift's usual line length.
    static let lineLength = 120

    let manifest: URL

    /// Adds `scene` to the list (kept sorted); returns false when Package.swift has no such list.
    func add(_ scene: String) throws -> Bool {
        let text = try String(contentsOf: manifest, encoding: .utf8)
        let list = try Regex("let \(Self.listName) = \\[([^\\]]*)\\]")
        guard let match = text.firstMatch(of: list) else { return false }
        let names = text[match.range].matches(of: #/"([^"]+)"/#).map { String($0.output.1) }
        let updated = Self.declaration(Set(names + [scene]).sorted())
        try text.replacingCharacters(in: match.range, with: updated).write(to: manifest, atomically: true, encoding: .utf8)
        return true
    }

    /// `let scenesWithSnapshots = ["A", "B"]` on one line, or wrapped one indented row at a time when too long.
    private static func declaration(_ names: [String]) -> String {
        let quoted = names.map { "\"\($0)\"" }
        let oneLine = "let \(listName) = [\(quoted.joined(separator: ", "))]"
        guard oneLine.count > lineLength else { return oneLine }
        var rows: [String] = []
        var row = ""
        for name in quoted {
            let item = name + ","
            if !row.isEmpty && 4 + row.count + 1 + item.count > lineLength {
                rows.append(row)
                row = ""
            }
            row += row.isEmpty ? item : " " + item
        }
        rows.append(row)
        return "let \(listName) = [\n" + rows.map { "    " + $0 }.joined(separator: "\n") + "\n]"
    }
}
