import Foundation
import Testing

/// The server's shape, read from its sources (ARCHITECTURE.md's map): arrows point down, and the money rules live in
/// one place. Each check names the file and line that breaks it.
@Suite("Server layout")
struct ServerLayoutTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/SkiffServer")

    /// Every Swift file of the server, by path relative to `Sources/SkiffServer`, with its lines minus comments.
    static func files() throws -> [(path: String, lines: [(number: Int, text: String)])] {
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        var files: [(String, [(Int, String)])] = []
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
                let code = line.components(separatedBy: "//").first ?? ""
                return code.trimmingCharacters(in: .whitespaces).isEmpty ? nil : (index + 1, code)
            }
            files.append((String(url.path.dropFirst(sources.path.count + 1)), lines))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    static func offending(_ files: [(path: String, lines: [(number: Int, text: String)])], _ pattern: String) -> [String] {
        let regex = try! Regex(pattern)
        return files.flatMap { file in
            file.lines.filter { $0.text.contains(regex) }.map { "\(file.path):\($0.number): \($0.text.trimmingCharacters(in: .whitespaces))" }
        }
    }

    @Test("The server is laid out by area: no Services/, Repositories/ or Controllers/ folder, no grab-bag records file")
    func byArea() throws {
        let paths = try Self.files().map(\.path)
        #expect(!paths.isEmpty)
        #expect(paths.filter { $0.hasPrefix("Services/") || $0.hasPrefix("Repositories/") || $0.hasPrefix("Controllers/") } == [])
        #expect(paths.filter { ["Records.swift", "Repositories.swift", "LedgerRecords.swift"].contains($0) } == [])
        for area in ["Ledger", "TopUps", "Auth", "Cards", "Spending", "Events", "Notifications", "Infrastructure"] {
            #expect(paths.contains { $0.hasPrefix(area + "/") }, "no \(area)/")
        }
    }

    @Test("A repository, a store and the database layer name no service")
    func repositoriesNameNoService() throws {
        let stores = try Self.files().filter {
            $0.path.hasSuffix("Repository.swift") || $0.path.hasPrefix("Database/SQLite/") || $0.path.hasPrefix("Database/Postgres/")
                || $0.path.hasSuffix("Schema.swift") || $0.path.hasSuffix("Records.swift")
        }
        #expect(stores.count > 20)
        #expect(Self.offending(stores, #"\b[A-Z][A-Za-z]*Service\b"#) == [])
    }

    @Test("A handler reads no repository and no middleware's type")
    func handlersThroughServices() throws {
        let handlers = try Self.files().filter { $0.path.contains("SkiffAPIHandler") }
        #expect(handlers.count >= 10)
        #expect(Self.offending(handlers, #"\brepositories\b|Middleware\b"#) == [])
    }

    @Test("No money refusal is decided in a store file: only Ledger.swift answers insufficient funds, the day's limit, the step-up, the key")
    func refusalsDecidedOnce() throws {
        let stores = try Self.files().filter { $0.path.hasPrefix("Ledger/") || $0.path.hasPrefix("TopUps/") || $0.path.hasPrefix("Database/") }
            .filter { $0.path.contains("SQLite") || $0.path.contains("Postgres") }
        #expect(stores.count >= 6)
        let refusals = #"\.(insufficientFunds|overDailyLimit|stepUpInvalid|payeeHasNoWallet|keyReused|replayed|noWallet)\b|NoWallet\(\)"#
        #expect(Self.offending(stores, refusals) == [])
    }
}
