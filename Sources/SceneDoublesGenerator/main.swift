// SceneDoubles: the test doubles of every scene, made at build time from the scene's protocols.
//
// Run by the `SceneDoubles` build-tool plugin on SkiffTests (Plugins/SceneDoubles), which hands it the Skiff
// target's Swift files and the names of the scenes (every folder under Sources/Skiff/Scenes but Shared). For each
// scene `<Name>` it reads the protocols `<Name>BusinessLogic`, `<Name>PresentationLogic` and `<Name>DisplayLogic`
// declared in that scene's folder and writes, into the SkiffTests target:
//
//   <Name>BusinessLogicSpy, <Name>PresentationLogicSpy, <Name>DisplayLogicSpy
//       A final class conforming to the protocol (`@MainActor` where the protocol is) that records every call:
//         spy.<method>Calls   the argument of every call of <method>, oldest first, typed as the protocol
//                             types it: `presenter.presentSubmitCalls: [Login.Submit.Response]`,
//                             `display.displayLoadCalls.last?.hint`. A method of several parameters records
//                             a tuple of them, labelled by their names.
//         spy.calls           the name of every call, oldest first, across methods:
//                             `#expect(display.calls == ["displaySubmit", "displayThrottle"])`.
//         spy.reset()         forgets every call so far.
//       `init()` takes nothing; every method returns at once (an async one too). Inherited requirements (such
//       as `FormBusinessLogic`'s) are included, with the associated types the protocol's `where` clause binds.
//
//   <Name>DisplayLogicTap
//       The key fuzzer's tap (Tests/SkiffTests/Fuzz): `init(screen:inspect:)` holds the real view controller
//       weakly and, for every view model, calls `inspect(viewModel)` and then hands it on to the screen.
//
//   SceneTaps (one file for all scenes)
//       `SceneTaps.scenes`: every scene seen. `SceneTaps.uninspectable`: the scenes whose view controller or
//       presenter this generator could not find, with why. `SceneTaps.tap(_:inspect:)`: puts a tap between a
//       screen's presenter and the screen.
//
// It understands what the scenes declare: `@MainActor` protocols of `func name(label: Type)` requirements,
// possibly `async`, and protocols they inherit from elsewhere in Skiff (with `associatedtype`s bound by `where`).
// Anything else (a return value, `throws`, a property, a generic method, a missing protocol) stops the build
// with an error naming the file and line: extend this generator, do not write the double by hand.

import Foundation

// MARK: Parsed declarations

struct Parameter {
    var label: String
    var name: String
    var type: String
}

struct Requirement {
    var name: String
    var parameters: [Parameter]
    var isAsync: Bool
    var signature: String { "\(name)(\(parameters.map { "\($0.label):" }.joined()))" }
}

struct ProtocolDeclaration {
    var name: String
    var file: String
    var line: Int
    var isMainActor: Bool
    var inherited: [String]
    var bindings: [(name: String, type: String)]
    var associatedTypes: [String]
    var requirements: [Requirement]
    /// Why the body could not be read; reported only if a double is made from this protocol.
    var problem: GeneratorError?
}

struct ClassDeclaration {
    var name: String
    var conformances: [String]
    var file: String
}

struct GeneratorError: Error, CustomStringConvertible {
    var file: String
    var line: Int
    var message: String
    var description: String { "\(file):\(line): error: SceneDoubles: \(message)" }
}

// MARK: Reading Swift (the small part the scene protocols use)

/// The text without comments; string literals are kept (a protocol holds none), line breaks are kept.
func stripComments(_ text: String) -> String {
    var out = ""
    var index = text.startIndex
    var inString = false
    var blockDepth = 0
    while index < text.endIndex {
        let character = text[index]
        let next = text.index(after: index)
        let following: Character? = next < text.endIndex ? text[next] : nil
        if blockDepth > 0 {
            if character == "*", following == "/" {
                blockDepth -= 1
                index = text.index(after: next)
                continue
            }
            if character == "/", following == "*" {
                blockDepth += 1
                index = text.index(after: next)
                continue
            }
            if character == "\n" { out.append("\n") }
            index = next
            continue
        }
        if inString {
            out.append(character)
            if character == "\\", let following {
                out.append(following)
                index = text.index(after: next)
                continue
            }
            if character == "\"" || character == "\n" { inString = false }
            index = next
            continue
        }
        if character == "\"" {
            inString = true
            out.append(character)
        } else if character == "/", following == "/" {
            while index < text.endIndex, text[index] != "\n" { index = text.index(after: index) }
            continue
        } else if character == "/", following == "*" {
            blockDepth = 1
            index = text.index(after: next)
            continue
        } else {
            out.append(character)
        }
        index = next
    }
    return out
}

/// Splits at `separator` outside brackets, parentheses and angle brackets.
func splitTopLevel(_ text: Substring, on separator: Character) -> [String] {
    var parts: [String] = []
    var depth = 0
    var current = ""
    for character in text {
        switch character {
        case "(", "[", "<", "{": depth += 1
        case ")", "]", ">", "}": depth -= 1
        default: break
        }
        if character == separator, depth == 0 {
            parts.append(current)
            current = ""
        } else {
            current.append(character)
        }
    }
    parts.append(current)
    return parts.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
}

func isIdentifier(_ text: String) -> Bool {
    guard let first = text.first, first.isLetter || first == "_" else { return false }
    return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
}

/// Every protocol and class declared at the top level of `file`.
func declarations(in file: String) throws -> (protocols: [ProtocolDeclaration], classes: [ClassDeclaration]) {
    let text = stripComments(try String(contentsOfFile: file, encoding: .utf8))
    let lines = text.components(separatedBy: "\n")
    var protocols: [ProtocolDeclaration] = []
    var classes: [ClassDeclaration] = []
    var index = 0
    let modifiers: Set<String> = ["public", "internal", "package", "fileprivate", "private", "final", "open", "nonisolated"]
    while index < lines.count {
        let line = lines[index]
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        var position = 0
        var attributes: [String] = []
        while position < words.count, words[position].hasPrefix("@") || modifiers.contains(words[position]) {
            if words[position].hasPrefix("@") { attributes.append(words[position]) }
            position += 1
        }
        let startsAtTopLevel = !line.hasPrefix(" ") && !line.hasPrefix("\t")
        guard startsAtTopLevel, position < words.count, ["protocol", "class", "extension"].contains(words[position]) else {
            index += 1
            continue
        }
        // The declaration's header runs to its opening brace.
        var header = ""
        var end = index
        while end < lines.count {
            header += " " + lines[end]
            if lines[end].contains("{") { break }
            end += 1
        }
        let previous = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
        if previous.hasPrefix("@") { attributes += previous.split(separator: " ").map(String.init) }
        guard let brace = header.firstIndex(of: "{") else {
            throw GeneratorError(file: file, line: index + 1, message: "a declaration without a body")
        }
        let keyword = words[position]
        guard let keywordRange = header.range(of: keyword + " "), keywordRange.upperBound <= brace else {
            throw GeneratorError(file: file, line: index + 1, message: "a \(keyword) header this generator cannot read")
        }
        let headerText = header[keywordRange.upperBound..<brace]
        let name = String(headerText.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        var rest = headerText.dropFirst(name.count)
        if rest.first == "<" {
            var depth = 0
            while let character = rest.first {
                rest = rest.dropFirst()
                if character == "<" { depth += 1 }
                if character == ">" { depth -= 1; if depth == 0 { break } }
            }
        }
        var inheritance = rest.trimmingCharacters(in: .whitespaces)
        var whereClause = ""
        if let range = inheritance.range(of: " where ") ?? inheritance.range(of: "where ", options: .anchored) {
            whereClause = String(inheritance[range.upperBound...])
            inheritance = String(inheritance[..<range.lowerBound])
        }
        if inheritance.hasPrefix(":") { inheritance.removeFirst() }
        let inherited = splitTopLevel(Substring(inheritance), on: ",").map { $0.replacingOccurrences(of: "@preconcurrency ", with: "") }

        // The body runs to the brace that closes it.
        var depth = 0
        var body = ""
        var bodyLine = index
        var started = false
        scan: for lineIndex in index..<lines.count {
            var characters = lines[lineIndex][...]
            // The body opens at the header's first brace, which may stand on a later line (a `where` clause).
            if !started, let open = characters.firstIndex(of: "{") { characters = characters[open...] }
            else if !started { continue }
            for character in characters {
                if character == "{" { depth += 1; if !started { started = true; bodyLine = lineIndex; continue } }
                if character == "}" { depth -= 1; if depth == 0 { index = lineIndex + 1; break scan } }
                if started { body.append(character) }
            }
            if started { body.append("\n") }
            index = lineIndex + 1
        }

        if keyword != "protocol" {
            // A class, or an extension that may add conformances to one.
            classes.append(ClassDeclaration(name: name, conformances: inherited, file: file))
            continue
        }
        var declaration = ProtocolDeclaration(
            name: name, file: file, line: bodyLine + 1, isMainActor: attributes.contains("@MainActor"), inherited: inherited,
            bindings: [], associatedTypes: [], requirements: []
        )
        do {
            for constraint in splitTopLevel(Substring(whereClause), on: ",") {
                let sides = constraint.components(separatedBy: "==").map { $0.trimmingCharacters(in: .whitespaces) }
                guard sides.count == 2, isIdentifier(sides[0]) else {
                    throw GeneratorError(file: file, line: bodyLine + 1, message: "\(name): a where clause other than `Name == Type` (\(constraint))")
                }
                declaration.bindings.append((sides[0], sides[1]))
            }
            try readMembers(of: &declaration, body: body)
        } catch let error as GeneratorError {
            declaration.problem = error
        }
        protocols.append(declaration)
    }
    return (protocols, classes)
}

/// The requirements in a protocol's body; anything but `func` and `associatedtype` is refused.
func readMembers(of declaration: inout ProtocolDeclaration, body: String) throws {
    // Members end at a line break outside parentheses.
    var members: [(text: String, line: Int)] = []
    var current = ""
    var depth = 0
    var line = declaration.line
    var memberLine = line
    for character in body {
        if character == "(" { depth += 1 }
        if character == ")" { depth -= 1 }
        if character == "\n" {
            line += 1
            if depth == 0 {
                let text = current.trimmingCharacters(in: .whitespaces)
                if !text.isEmpty { members.append((text, memberLine)) }
                current = ""
                memberLine = line
                continue
            }
            current.append(" ")
            continue
        }
        if current.isEmpty, character == " " || character == "\t" { memberLine = line }
        current.append(character)
    }
    let text = current.trimmingCharacters(in: .whitespaces)
    if !text.isEmpty { members.append((text, memberLine)) }

    let file = declaration.file, protocolName = declaration.name
    for member in members {
        let fail = { (why: String) in
            GeneratorError(file: file, line: member.line, message: "\(protocolName): \(why): `\(member.text)`")
        }
        if member.text.hasPrefix("associatedtype ") {
            let name = member.text.dropFirst("associatedtype ".count).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            declaration.associatedTypes.append(String(name))
            continue
        }
        guard member.text.hasPrefix("func ") else {
            throw fail("only `func` and `associatedtype` requirements are understood")
        }
        let signature = member.text.dropFirst("func ".count)
        let name = String(signature.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        guard !name.isEmpty else { throw fail("a method without a name") }
        var rest = signature.dropFirst(name.count)
        guard rest.first == "(" else { throw fail("a generic method") }
        var depth = 0
        var parameterText = Substring("")
        for (offset, character) in rest.enumerated() {
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if depth == 0 {
                let close = rest.index(rest.startIndex, offsetBy: offset)
                parameterText = rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
                break
            }
        }
        let effects = rest.split(separator: " ").map(String.init)
        guard effects.allSatisfy({ $0 == "async" }) else {
            throw fail("only methods that return nothing and do not throw (possibly `async`) are understood")
        }
        var parameters: [Parameter] = []
        for parameter in splitTopLevel(parameterText, on: ",") {
            guard let colon = parameter.firstIndex(of: ":") else { throw fail("a parameter without a type") }
            let names = parameter[..<colon].split(separator: " ").map(String.init)
            let type = parameter[parameter.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard (1...2).contains(names.count), names.allSatisfy({ isIdentifier($0) || $0 == "_" }), !type.contains("="),
                  !type.hasPrefix("inout"), !type.hasSuffix("...")
            else { throw fail("a parameter other than `label name: Type`") }
            let inner = names.count == 2 ? names[1] : names[0]
            guard inner != "_" else { throw fail("a parameter without a name") }
            parameters.append(Parameter(label: names[0], name: inner, type: type))
        }
        declaration.requirements.append(Requirement(name: name, parameters: parameters, isAsync: effects.contains("async")))
    }
}

// MARK: Writing the doubles

let roles = ["BusinessLogic", "PresentationLogic", "DisplayLogic"]
let ignoredParents: Set<String> = ["AnyObject", "Sendable"]

/// A protocol with everything it inherits: requirements (its own first) and the associated types bound.
func flatten(_ declaration: ProtocolDeclaration, in all: [String: ProtocolDeclaration], isInherited: Bool = false) throws
    -> (requirements: [Requirement], typealiases: [(String, String)], isMainActor: Bool, isClassBound: Bool)
{
    if let problem = declaration.problem { throw problem }
    var requirements = declaration.requirements
    var typealiases: [(String, String)] = []
    var isMainActor = declaration.isMainActor
    var isClassBound = declaration.inherited.contains("AnyObject")
    var associated = Set(declaration.associatedTypes)
    for parent in declaration.inherited where !ignoredParents.contains(parent) {
        let parentName = String(parent.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        guard let found = all[parentName] else {
            throw GeneratorError(
                file: declaration.file, line: declaration.line,
                message: "\(declaration.name) inherits \(parent), which is not a protocol declared in the Skiff target"
            )
        }
        let flat = try flatten(found, in: all, isInherited: true)
        isMainActor = isMainActor || flat.isMainActor
        isClassBound = isClassBound || flat.isClassBound
        for requirement in flat.requirements where !requirements.contains(where: { $0.signature == requirement.signature }) {
            requirements.append(requirement)
        }
        associated.formUnion(found.associatedTypes)
        typealiases += flat.typealiases
    }
    for binding in declaration.bindings { typealiases.append((binding.name, binding.type)) }
    let bound = Set(typealiases.map(\.0))
    if !isInherited, let unbound = associated.subtracting(bound).sorted().first {
        throw GeneratorError(
            file: declaration.file, line: declaration.line,
            message: "\(declaration.name) leaves the associated type \(unbound) open; bind it with `where \(unbound) == SomeType`"
        )
    }
    return (requirements, typealiases, isMainActor, isClassBound)
}

func parameterList(_ requirement: Requirement) -> String {
    requirement.parameters.map { $0.label == $0.name ? "\($0.name): \($0.type)" : "\($0.label) \($0.name): \($0.type)" }
        .joined(separator: ", ")
}

func callArguments(_ requirement: Requirement) -> String {
    requirement.parameters.map { $0.label == "_" ? $0.name : "\($0.label): \($0.name)" }.joined(separator: ", ")
}

func recordedType(_ requirement: Requirement) -> String {
    if requirement.parameters.count == 1 { return requirement.parameters[0].type }
    return "(" + requirement.parameters.map { "\($0.name): \($0.type)" }.joined(separator: ", ") + ")"
}

func recordedValue(_ requirement: Requirement) -> String {
    if requirement.parameters.count == 1 { return requirement.parameters[0].name }
    return "(" + requirement.parameters.map { "\($0.name): \($0.name)" }.joined(separator: ", ") + ")"
}

func spy(for declaration: ProtocolDeclaration, in all: [String: ProtocolDeclaration]) throws -> String {
    let flat = try flatten(declaration, in: all)
    let name = declaration.name + "Spy"
    var seen: [String: Requirement] = [:]
    for requirement in flat.requirements {
        if let other = seen[requirement.name] {
            throw GeneratorError(
                file: declaration.file, line: declaration.line,
                message: "\(declaration.name) has two methods named \(requirement.name) (\(other.signature), \(requirement.signature)); the spy records calls by method name"
            )
        }
        guard requirement.name != "calls", requirement.name != "reset" else {
            throw GeneratorError(file: declaration.file, line: declaration.line, message: "a method named \(requirement.name) clashes with the spy's own")
        }
        seen[requirement.name] = requirement
    }
    var out = "/// Records every call to `\(declaration.name)`: `<method>Calls` (arguments, oldest first), `calls` (names, in order).\n"
    if flat.isMainActor { out += "@MainActor\n" }
    out += "final class \(name): \(declaration.name) {\n"
    for (alias, type) in flat.typealiases { out += "    typealias \(alias) = \(type)\n" }
    out += "    /// The name of every call, oldest first.\n"
    out += "    private(set) var calls: [String] = []\n"
    for requirement in flat.requirements {
        let labels = requirement.parameters.map(\.name).joined(separator: ", ")
        out += "    /// The \(labels) of every `\(requirement.signature)` call, oldest first.\n"
        out += "    private(set) var \(requirement.name)Calls: [\(recordedType(requirement))] = []\n"
    }
    out += "\n    init() {}\n\n"
    out += "    /// Forgets every call so far.\n    func reset() {\n        calls = []\n"
    for requirement in flat.requirements { out += "        \(requirement.name)Calls = []\n" }
    out += "    }\n"
    for requirement in flat.requirements {
        out += "\n    func \(requirement.name)(\(parameterList(requirement)))\(requirement.isAsync ? " async" : "") {\n"
        out += "        calls.append(\"\(requirement.name)\")\n"
        out += "        \(requirement.name)Calls.append(\(recordedValue(requirement)))\n"
        out += "    }\n"
    }
    out += "}\n"
    return out
}

func tap(for declaration: ProtocolDeclaration, in all: [String: ProtocolDeclaration]) throws -> String {
    let flat = try flatten(declaration, in: all)
    let name = declaration.name.replacingOccurrences(of: "DisplayLogic", with: "") + "DisplayLogicTap"
    var out = "/// Between the presenter and the screen: shows every view model to `inspect`, then hands it to the screen.\n"
    if flat.isMainActor { out += "@MainActor\n" }
    out += "final class \(name): \(declaration.name) {\n"
    for (alias, type) in flat.typealiases { out += "    typealias \(alias) = \(type)\n" }
    out += "    private weak var screen: (any \(declaration.name))?\n"
    out += "    private let inspect: \(flat.isMainActor ? "@MainActor " : "")(Any) -> Void\n\n"
    out += "    init(screen: any \(declaration.name), inspect: @escaping \(flat.isMainActor ? "@MainActor " : "")(Any) -> Void) {\n"
    out += "        self.screen = screen\n        self.inspect = inspect\n    }\n"
    for requirement in flat.requirements {
        out += "\n    func \(requirement.name)(\(parameterList(requirement)))\(requirement.isAsync ? " async" : "") {\n"
        for parameter in requirement.parameters { out += "        inspect(\(parameter.name))\n" }
        out += "        \(requirement.isAsync ? "await " : "")screen?.\(requirement.name)(\(callArguments(requirement)))\n"
        out += "    }\n"
    }
    out += "}\n"
    return out
}

let header = """
    // Generated by SceneDoubles (Sources/SceneDoublesGenerator/main.swift) from the scene's protocols: do not edit.
    import Foundation
    import SkiffCore
    import TerminalUI
    @testable import Skiff


    """

// MARK: Main

func run() throws {
    var arguments = Array(CommandLine.arguments.dropFirst())
    func option(_ name: String) -> [String] {
        var values: [String] = []
        while let index = arguments.firstIndex(of: name), index + 1 < arguments.count {
            values.append(arguments[index + 1])
            arguments.removeSubrange(index...(index + 1))
        }
        return values
    }
    guard let output = option("--output").first else {
        throw GeneratorError(file: "SceneDoubles", line: 0, message: "usage: --output DIR [--scene NAME …] FILE.swift …")
    }
    let scenes = option("--scene")
    let files = arguments

    var protocols: [String: ProtocolDeclaration] = [:]
    var classes: [ClassDeclaration] = []
    var folderOf: [String: String] = [:]
    for file in files {
        let found = try declarations(in: file)
        for declaration in found.protocols { protocols[declaration.name] = declaration }
        classes += found.classes
        let components = URL(fileURLWithPath: file).pathComponents
        if let scenesIndex = components.lastIndex(of: "Scenes"), scenesIndex + 2 < components.count {
            folderOf[file] = components[scenesIndex + 1]
        }
    }

    var uninspectable: [(String, String)] = []
    var tapCases: [String] = []
    for scene in scenes {
        var text = header
        for role in roles {
            let protocolName = scene + role
            guard let declaration = protocols[protocolName], folderOf[declaration.file] == scene else {
                throw GeneratorError(
                    file: "Sources/Skiff/Scenes/\(scene)", line: 1,
                    message: "the scene \(scene) declares no protocol \(protocolName) in its folder (every scene has \(roles.map { scene + $0 }.joined(separator: ", ")))"
                )
            }
            text += try spy(for: declaration, in: protocols) + "\n"
            if role == "DisplayLogic" {
                let flat = try flatten(declaration, in: protocols)
                guard flat.isClassBound else {
                    uninspectable.append((scene, "\(protocolName) is not AnyObject-bound, so a tap cannot hold the screen weakly"))
                    continue
                }
                text += try tap(for: declaration, in: protocols) + "\n"
                let screens = Set(classes.filter { $0.conformances.contains(protocolName) }.map(\.name)).sorted()
                let presenters = Set(classes.filter { $0.conformances.contains(scene + "PresentationLogic") }.map(\.name)).sorted()
                guard screens.count == 1, let screen = screens.first.flatMap({ name in classes.first { $0.name == name } }) else {
                    uninspectable.append((scene, "\(screens.count) classes conform to \(protocolName), not one"))
                    continue
                }
                guard presenters.count == 1, let presenter = presenters.first.flatMap({ name in classes.first { $0.name == name } }) else {
                    uninspectable.append((scene, "\(presenters.count) classes conform to \(scene)PresentationLogic, not one"))
                    continue
                }
                tapCases.append("""
                        case let screen as \(screen.name):
                            guard let presenter = presenter(of: screen.interactor, as: \(presenter.name).self) else {
                                return .uninspectable("\(screen.name): no \(presenter.name) inside its interactor")
                            }
                            let tap = \(scene)DisplayLogicTap(screen: screen, inspect: inspect)
                            presenter.viewController = tap
                            return .tapped(tap)
                """)
            }
        }
        try write(text, to: URL(fileURLWithPath: output).appending(path: "Generated\(scene)Doubles.swift").path)
    }

    var index = header
    index += """
        /// The fuzzer's taps for every scene SceneDoubles saw (see Sources/SceneDoublesGenerator/main.swift).
        @MainActor
        enum SceneTaps {
            /// Every scene: each folder under Sources/Skiff/Scenes but Shared, as the build handed them over.
            nonisolated static let scenes: [String] = [\(scenes.map { "\"\($0)\"" }.joined(separator: ", "))]

            /// The scenes for which no tap could be made, with why.
            nonisolated static let uninspectable: [String: String] = [\(uninspectable.isEmpty ? ":" : uninspectable.map { "\"\($0.0)\": \"\($0.1)\"" }.joined(separator: ", "))]

            enum Outcome {
                /// The tap now between the screen's presenter and the screen; keep it (the presenter holds it weakly).
                case tapped(AnyObject)
                /// Not a scene's screen (a kit dialog, the help overlay).
                case notAScene
                /// A scene's screen whose view models the tap cannot see, with why.
                case uninspectable(String)
            }

            /// Puts a tap between `screen`'s presenter and `screen`, which shows every later view model to `inspect`.
            static func tap(_ screen: ViewController, inspect: @escaping @MainActor (Any) -> Void) -> Outcome {
                switch screen {
        \(tapCases.joined(separator: "\n"))
                case let screen as SceneViewController:
                    return .uninspectable("\\(type(of: screen)) is a scene screen SceneDoubles did not see")
                default:
                    return .notAScene
                }
            }

            /// The presenter an interactor keeps (privately), found by its type.
            private static func presenter<Presenter>(of interactor: Any?, as type: Presenter.Type) -> Presenter? {
                guard let interactor else { return nil }
                return Mirror(reflecting: interactor).children.lazy.compactMap { $0.value as? Presenter }.first
            }
        }

        """
    try write(index, to: URL(fileURLWithPath: output).appending(path: "GeneratedSceneTaps.swift").path)
}

/// Writes only when the text changed, so an unchanged scene is not compiled again.
func write(_ text: String, to path: String) throws {
    if let existing = try? String(contentsOfFile: path, encoding: .utf8), existing == text { return }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
}

do {
    try run()
} catch let error as GeneratorError {
    FileHandle.standardError.write(Data((error.description + "\n").utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("error: SceneDoubles: \(error)\n".utf8))
    exit(1)
}
