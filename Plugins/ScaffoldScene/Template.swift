import Foundation

/// A scene template: text with `{{variable}}`, sections `{{#list}}…{{/list}}` repeated once per item, and
/// inverted sections `{{^list}}…{{/list}}` shown only when the list is empty. A line holding nothing but a
/// section tag leaves no blank line behind. An unknown variable is an error, so a typo in a template cannot
/// slip into a generated file.
struct Template {
    /// A value a template can use: text, or a list of contexts for a section.
    enum Value {
        case text(String)
        case list([Context])
    }

    typealias Context = [String: Value]

    private indirect enum Node {
        case text(String)
        case variable(String)
        case section(String, inverted: Bool, [Node])
    }

    private let name: String
    private let nodes: [Node]

    init(contentsOf url: URL) throws {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw ScaffoldError("cannot read the template \(url.path)")
        }
        try self.init(text, name: url.lastPathComponent)
    }

    init(_ text: String, name: String) throws {
        self.name = name
        var tokens = Self.tokens(in: Self.collapsingStandaloneTags(text))[...]
        nodes = try Self.parse(&tokens, until: nil, in: name)
    }

    func render(_ context: Context) throws -> String {
        try Self.render(nodes, [context], in: name)
    }

    private enum Token {
        case text(String)
        case tag(String)
    }

    /// Removes the indentation and line break around a line that holds only a section tag.
    private static func collapsingStandaloneTags(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var result = ""
        let last = lines.removeLast()
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let isSectionTag = trimmed.hasPrefix("{{") && trimmed.hasSuffix("}}")
                && trimmed.components(separatedBy: "{{").count == 2
                && ["#", "^", "/"].contains(trimmed.dropFirst(2).first.map(String.init) ?? "")
            result += isSectionTag ? trimmed : line + "\n"
        }
        return result + last
    }

    private static func tokens(in text: String) -> [Token] {
        var tokens: [Token] = []
        var rest = text[...]
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            if open.lowerBound > rest.startIndex {
                tokens.append(.text(String(rest[..<open.lowerBound])))
            }
            tokens.append(.tag(rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { tokens.append(.text(String(rest))) }
        return tokens
    }

    private static func parse(_ tokens: inout ArraySlice<Token>, until closing: String?, in name: String) throws -> [Node] {
        var nodes: [Node] = []
        while let token = tokens.popFirst() {
            switch token {
            case .text(let text):
                nodes.append(.text(text))
            case .tag(let tag) where tag.hasPrefix("#") || tag.hasPrefix("^"):
                let key = String(tag.dropFirst())
                let body = try parse(&tokens, until: key, in: name)
                nodes.append(.section(key, inverted: tag.hasPrefix("^"), body))
            case .tag(let tag) where tag.hasPrefix("/"):
                guard String(tag.dropFirst()) == closing else {
                    throw ScaffoldError("\(name): {{\(tag)}} closes no open section")
                }
                return nodes
            case .tag(let tag):
                nodes.append(.variable(tag))
            }
        }
        if let closing {
            throw ScaffoldError("\(name): {{#\(closing)}} is never closed")
        }
        return nodes
    }

    private static func render(_ nodes: [Node], _ scopes: [Context], in name: String) throws -> String {
        var output = ""
        for node in nodes {
            switch node {
            case .text(let text):
                output += text
            case .variable(let key):
                guard case .text(let value)? = lookUp(key, in: scopes) else {
                    throw ScaffoldError("\(name): {{\(key)}} is not a text variable here")
                }
                output += value
            case .section(let key, let inverted, let body):
                guard case .list(let items)? = lookUp(key, in: scopes) else {
                    throw ScaffoldError("\(name): {{#\(key)}} is not a section")
                }
                if inverted {
                    if items.isEmpty { output += try render(body, scopes, in: name) }
                } else {
                    for item in items {
                        output += try render(body, scopes + [item], in: name)
                    }
                }
            }
        }
        return output
    }

    private static func lookUp(_ key: String, in scopes: [Context]) -> Value? {
        scopes.reversed().lazy.compactMap { $0[key] }.first
    }
}

/// `Resources/SceneTemplates/manifest.txt`: which template becomes which file.
///
/// One line per file: `TEMPLATE -> DESTINATION`, optionally followed by conditions in brackets, all of which
/// must hold: `[form]`, `[staged]` (a form in stages), `[list]`, `[plain]` (the scene's shape), `[coordinator]` (only with `--coordinator`),
/// `[no coordinator]` (only without it), as in `[list, coordinator]`. Destinations may use the template
/// variables; the destination `-` prints the rendered template instead of writing it. `#` starts a comment line.
struct Manifest {
    struct Entry {
        enum Condition: String, CaseIterable {
            case form, list, plain
            case staged
            case withCoordinator = "coordinator"
            case withoutCoordinator = "no coordinator"
        }

        var template: String
        var destination: String
        var conditions: [Condition]

        func applies(shape: SceneShape, withCoordinator: Bool) -> Bool {
            conditions.allSatisfy { condition in
                switch condition {
                case .form: shape == .form
                case .staged: shape == .stagedForm
                case .list: shape == .list
                case .plain: shape == .plain
                case .withCoordinator: withCoordinator
                case .withoutCoordinator: !withCoordinator
                }
            }
        }
    }

    static let printDestination = "-"

    var entries: [Entry]

    init(contentsOf url: URL) throws {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw ScaffoldError("cannot read \(url.path); run the command from the Skiff package")
        }
        entries = try text.split(separator: "\n").compactMap { rawLine in
            var line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { return nil }
            var conditions: [Entry.Condition] = []
            if line.hasSuffix("]"), let open = line.lastIndex(of: "[") {
                for word in line[line.index(after: open)..<line.index(before: line.endIndex)].split(separator: ",") {
                    let name = word.trimmingCharacters(in: .whitespaces)
                    guard let condition = Entry.Condition(rawValue: name) else {
                        throw ScaffoldError("\(url.lastPathComponent): unknown condition “\(name)” in “\(rawLine)”")
                    }
                    conditions.append(condition)
                }
                line = String(line[..<open]).trimmingCharacters(in: .whitespaces)
            }
            let parts = line.components(separatedBy: " -> ").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw ScaffoldError("\(url.lastPathComponent): “\(rawLine)” is not “TEMPLATE -> DESTINATION”")
            }
            return Entry(template: parts[0], destination: parts[1], conditions: conditions)
        }
    }
}
