import Foundation
import Testing
import TerminalUI
@testable import Skiff

/// The wallet's one key map: every key a scene binds, and every key a sentence names, comes from
/// `WalletKeys.standard` (Sources/Skiff/App/WalletKeys.swift); nothing else in the app spells a key.
@Suite("Wallet key map")
struct WalletKeysTests {
    /// The app's sources, except the key map itself.
    static let sources: [(path: String, text: String)] = {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("Sources/Skiff")
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" && $0.lastPathComponent != "WalletKeys.swift" } ?? []
        return files.compactMap { url in
            (try? String(contentsOf: url, encoding: .utf8)).map { (String(url.path.dropFirst(root.path.count + 1)), $0) }
        }.sorted { $0.path < $1.path }
    }()

    @Test("the scan reads the app's sources")
    func scansSources() {
        #expect(Self.sources.count > 50)
        #expect(Self.sources.contains { $0.path == "Sources/Skiff/Scenes/Home/HomeViewController.swift" })
    }

    @Test("the three sentences that spelled keys by hand would be caught if they came back")
    func detectorCatchesHandSpelledKeys() {
        for sentence in [
            "Unfreeze it with f on Cards.", "Your Skiff card is frozen. Unfreeze it first (f on Cards, c from Home).",
            "Cards · c to manage", "Press Esc to go back.", "Saving… (Esc cancels)", "press r to reload", "Enter to submit",
        ] {
            #expect(KeyNaming.namesKey(sentence), "\(sentence)")
        }
        for sentence in [
            "Enter the last four digits printed on your card.", "Enter your password.", "Press ",
            "Cards · \u{FFFC} to manage", "Remove Visa •••• 4242 from your account?", "Log in with a phone number.",
        ] {
            #expect(!KeyNaming.namesKey(sentence), "\(sentence)")
        }
    }

    @Test("no string literal in the app names a key: sentences take key names from the key map")
    func noKeyInStringLiterals() {
        var found: [String] = []
        for (path, text) in Self.sources {
            for literal in KeyNaming.stringLiterals(in: text) where KeyNaming.namesKey(literal) {
                found.append("\(path): \"\(literal)\"")
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("no key is bound or spelled outside the key map: every scene binds through `bind(command)`")
    func oneBindingStyle() throws {
        let spelled = try Regex(#"KeyBinding\s*[(.]|\bKey\.\w|\.(character|ctrl|function)\(|[\s(\[,]\.(escape|enter|tab|backTab)\b"#)
        var found: [String] = []
        for (path, text) in Self.sources {
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//"), line.contains(spelled) else { continue }
                found.append("\(path):\(number + 1): \(code)")
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("a sentence follows the key map: a different map words the same prompt with its key")
    @MainActor
    func sentenceFollowsMap() {
        let standard = WalletKeys.standard
        let remapped = WalletKeys { $0 == .freezeCard ? .init(.character("z"), "freeze") : standard.entry(for: $0) }
        let presenter = CardDetailPresenter(keys: remapped)
        let display = CardDetailDisplayLogicSpy()
        presenter.viewController = display
        var card = Seeds.externalCard
        card.frozen = true
        presenter.presentLoad(response: .init(card: card))
        #expect(display.displayLoadCalls.last?.hint == "Unfreeze it with z.")
    }

    @Test("commands that may share a screen with a text field are not letters, which would type into it")
    func typingScreensUseControlKeys() {
        let keys = WalletKeys.standard
        for command: SceneCommand in [.submit, .retry, .back, .createAccount, .forgotPassword, .logoutWhileTyping, .quitWhileTyping, .showPassword] {
            #expect(keys.keys(for: command).allSatisfy { $0.character == nil }, "\(command)")
        }
    }
}

/// Finds sentences that name a key: "x on Cards", "c to manage", "Press Esc", "(Esc cancels)".
enum KeyNaming {
    private static let patterns: [String] = [
        // A single key letter (or / or ?) followed by where or what for: "f on Cards", "c from Home", "c to manage".
        #"(^|[\s(])[A-Za-z/?] (on|from|to) \w"#,
        // A named key as an instruction.
        #"\b(Esc|Enter|Tab|Space|Ctrl-[A-Za-z]|F\d{1,2}) (to|on|from|cancels)\b"#,
        #"\b[Pp]ress ([A-Za-z/?]\b|Esc|Enter|Tab|Space|Ctrl-|F\d)"#,
    ]

    static func namesKey(_ text: String) -> Bool {
        patterns.contains { pattern in
            guard let regex = try? Regex(pattern) else { return false }
            return text.contains(regex)
        }
    }

    /// The string literals in Swift source, comments skipped; each interpolation is one U+FFFC.
    static func stringLiterals(in source: String) -> [String] {
        var literals: [String] = []
        let characters = Array(source)
        var index = 0
        func peek(_ offset: Int) -> Character? { index + offset < characters.count ? characters[index + offset] : nil }
        while index < characters.count {
            let character = characters[index]
            if character == "/" && peek(1) == "/" {
                while index < characters.count && characters[index] != "\n" { index += 1 }
            } else if character == "/" && peek(1) == "*" {
                index += 2
                while index < characters.count && !(characters[index] == "*" && peek(1) == "/") { index += 1 }
                index += 2
            } else if character == "\"" {
                let multiline = peek(1) == "\"" && peek(2) == "\""
                index += multiline ? 3 : 1
                var literal = ""
                while index < characters.count {
                    let c = characters[index]
                    if multiline ? (c == "\"" && peek(1) == "\"" && peek(2) == "\"") : (c == "\"" || c == "\n") {
                        index += multiline ? 3 : 1
                        break
                    }
                    if c == "\\" && peek(1) == "(" {
                        // Skips the interpolated expression, with its parentheses and any strings inside.
                        var depth = 0
                        index += 1
                        repeat {
                            if characters[index] == "(" { depth += 1 }
                            if characters[index] == ")" { depth -= 1 }
                            if characters[index] == "\"" {
                                index += 1
                                while index < characters.count && characters[index] != "\"" { index += characters[index] == "\\" ? 2 : 1 }
                            }
                            index += 1
                        } while depth > 0 && index < characters.count
                        literal.append("\u{FFFC}")
                        continue
                    }
                    if c == "\\" { index += 2; continue }
                    literal.append(c)
                    index += 1
                }
                literals.append(literal)
            } else {
                index += 1
            }
        }
        return literals
    }
}
