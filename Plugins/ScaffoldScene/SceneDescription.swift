import Foundation

/// The shapes a scene comes in: a form (Login), a form shown in stages (Send money, Top up), a paged list with a
/// detail route (Notifications, Cards), or plain flows the author writes.
enum SceneShape: String {
    case plain, form, list
    case stagedForm = "staged form"

    /// A form, in one step or in stages.
    var isForm: Bool { self == .form || self == .stagedForm }
}

/// A validated scene name, its shape and its flows or fields, with every spelling the templates use.
struct SceneDescription {
    /// One flow of the scene (`Load`, `Submit` …) and the key that starts it, if any.
    struct Flow {
        var name: String
        /// Swift for the key, such as `.enter`; nil for `Load`, which runs when the screen loads.
        var key: String?
        /// The key as the status bar shows it, such as `Enter`.
        var keyLabel: String?
    }

    let name: String
    let shape: SceneShape
    let flows: [Flow]
    /// The form's fields (`--form`), UpperCamelCase.
    let fields: [String]
    /// A staged form's stages (`--stages`), in order, UpperCamelCase.
    let stages: [String]

    /// Where scenes and their tests live, relative to the package.
    static let sceneFolders = ["Sources/Skiff/Scenes", "Tests/SkiffTests/Scenes"]
    /// Targets whose type names a scene name must not shadow.
    static let typeSources = ["Sources/Skiff", "Sources/SkiffCore", "Sources/TerminalUI"]
    /// The width of the screen the generated snapshot is taken on.
    static let screenWidth = 100
    /// The blank lines under a form's button on the recorded 100×30 screen, less one per field.
    static let formScreenBlankLines = 24
    /// The most fields a generated form has: they fit the recorded screen with room for their errors.
    static let maxFormFields = 12
    /// How many stages a generated staged form has (one stage is a plain form).
    static let stageCounts = 2...6
    /// Members of a generated `Stage` that a stage's case must not shadow.
    static let stageMembers: Set<String> = ["next", "previous", "rawValue", "allCases", "init", "hashValue"]
    /// The hints the navigation controller adds after the screen's own on a root screen.
    static let trailingHints = "? help  q quit"

    init(name: String, shape: SceneShape, flows flowNames: [String], fields: [String], stages: [String], in package: URL) throws {
        guard Self.isTypeName(name) else {
            throw ScaffoldError("“\(name)” is not an UpperCamelCase Swift type name (a capital letter, then letters and digits)")
        }
        guard !Self.reservedTypeNames.contains(name) else {
            throw ScaffoldError("“\(name)” is reserved in Swift; choose another scene name")
        }
        for folder in Self.sceneFolders {
            let existing = (try? FileManager.default.contentsOfDirectory(atPath: package.appending(path: folder).path)) ?? []
            if let clash = existing.first(where: { $0.lowercased() == name.lowercased() }) {
                throw ScaffoldError("a scene named \(clash) already exists in \(folder)/\(clash)")
            }
        }
        if let file = try Self.fileDeclaring(name, in: package) {
            throw ScaffoldError("\(file) already declares a type named \(name); choose another scene name")
        }

        guard shape != .plain || !flowNames.isEmpty, !flowNames.contains("") else {
            throw ScaffoldError("--flows takes a comma-separated list of flow names, such as Load,Submit")
        }
        for flow in flowNames {
            guard flow != "Back" else {
                throw ScaffoldError("Back is always added (Esc: cancel running work, else leave); leave it out of --flows")
            }
            guard Self.isTypeName(flow) else {
                throw ScaffoldError("flow “\(flow)” is not an UpperCamelCase name such as Load or MarkRead")
            }
            guard flow != name, !["Request", "Response", "ViewModel"].contains(flow) else {
                throw ScaffoldError("flow “\(flow)” would clash with a type of the scene; choose another flow name")
            }
            guard !Self.keywords.contains(lowerCamel(flow)) else {
                throw ScaffoldError("flow “\(flow)” would make a method named after the Swift keyword “\(lowerCamel(flow))”")
            }
        }
        if let repeated = flowNames.first(where: { flow in flowNames.filter { $0 == flow }.count > 1 }) {
            throw ScaffoldError("flow \(repeated) is listed twice")
        }
        if flowNames.filter({ $0 != "Load" }).count > 1 {
            throw ScaffoldError(
                "a plain scene binds one flow besides Load (to Enter); add the others by hand with bind(...) and a command of the key map"
            )
        }
        if shape.isForm {
            guard !fields.isEmpty, !fields.contains("") else {
                throw ScaffoldError("--form takes a comma-separated list of field names, such as FullName,Email")
            }
            for field in fields {
                guard Self.isTypeName(field) else {
                    throw ScaffoldError("field “\(field)” is not an UpperCamelCase name such as FullName")
                }
                guard !Self.keywords.contains(lowerCamel(field)), !["form", "screen", "interactor", "view", "title", "sendButton"].contains(lowerCamel(field)) else {
                    throw ScaffoldError("field “\(field)” would clash with a Swift keyword or a property of the screen; choose another name")
                }
            }
            if let repeated = fields.first(where: { field in fields.filter { $0 == field }.count > 1 }) {
                throw ScaffoldError("field \(repeated) is listed twice")
            }
            guard fields.count <= Self.maxFormFields else {
                throw ScaffoldError("a generated form has at most \(Self.maxFormFields) fields; split the form or add the rest by hand")
            }
        }

        if shape == .stagedForm {
            try Self.checkStages(stages)
        }

        self.name = name
        self.shape = shape
        self.fields = fields
        self.stages = stages
        flows = Self.assignKeys(to: flowNames)
        let hints = flows.compactMap { flow in flow.keyLabel.map { "\($0) \(words(flow.name))  " } }.joined()
        guard 1 + hints.count + Self.trailingHints.count <= Self.screenWidth else {
            throw ScaffoldError("the status bar has no room for the keys of \(flowNames.count) flows; generate fewer and add the rest by hand")
        }
    }

    /// Refuses stages that would not make a `Stage` enum the generated scene can move through.
    private static func checkStages(_ stages: [String]) throws {
        guard !stages.contains("") else {
            throw ScaffoldError("--stages takes a comma-separated list of stage names, such as Phone,Code")
        }
        for stage in stages {
            guard isTypeName(stage) else {
                throw ScaffoldError("stage “\(stage)” is not an UpperCamelCase name such as Phone or Confirm")
            }
            guard !keywords.contains(lowerCamel(stage)), !stageMembers.contains(lowerCamel(stage)) else {
                throw ScaffoldError("stage “\(stage)” would clash with a Swift keyword or a member of the Stage enum; choose another name")
            }
        }
        if let repeated = stages.first(where: { stage in stages.filter { $0 == stage }.count > 1 }) {
            throw ScaffoldError("stage \(repeated) is listed twice")
        }
        guard stageCounts.contains(stages.count) else {
            throw ScaffoldError(
                "a staged form has \(stageCounts.lowerBound) to \(stageCounts.upperBound) stages (one stage is a plain form: leave out --stages)"
            )
        }
    }

    /// `Load` runs when the screen loads; the first other flow gets Enter, the next ones a letter of their
    /// name that is still free (never `q`, which quits), or a function key.
    private static func assignKeys(to names: [String]) -> [Flow] {
        var taken: Set<Character> = ["q"]
        var nextFunctionKey = 2
        var enterTaken = false
        return names.map { name in
            if name == "Load" { return Flow(name: name, key: nil, keyLabel: nil) }
            if !enterTaken {
                enterTaken = true
                return Flow(name: name, key: ".enter", keyLabel: "Enter")
            }
            let wordInitials = words(name).split(separator: " ").compactMap(\.first)
            let candidates = wordInitials + Array(name.lowercased())
            if let letter = candidates.first(where: { $0.isLetter && $0.isASCII && !taken.contains($0) }) {
                taken.insert(letter)
                return Flow(name: name, key: ".character(\"\(letter)\")", keyLabel: String(letter))
            }
            defer { nextFunctionKey += 1 }
            return Flow(name: name, key: ".function(\(nextFunctionKey))", keyLabel: "F\(nextFunctionKey)")
        }
    }

    /// What the templates can use: `{{Name}}`, `{{name}}`, `{{title}}`, `{{kebab}}`, `{{outcome}}` (what the
    /// scene's child flow finishes with), the shape sections `{{#plain}}`, `{{#form}}`, `{{#list}}`, and:
    /// plain: `{{#flows}}`, `{{#keyedFlows}}` (flows started by a key), `{{#hasKeyedFlows}}` and `{{#load}}`
    /// (when a Load flow runs as the screen loads); inside a flow `{{Flow}}`, `{{flow}}`, `{{flowWords}}`,
    /// `{{FlowWords}}`, `{{key}}`, `{{keyLabel}}`.
    /// form (`{{#form}}` holds for a staged form too): `{{#fields}}` with `{{Field}}`, `{{field}}`, `{{fieldWords}}`,
    /// `{{FieldWords}}`; `{{firstField}}`, `{{lastField}}`, `{{fieldList}}`, `{{#screenPadding}}`, once per blank
    /// line under the form's button on the recorded screen, and `{{sendParameters}}` / `{{sendIgnored}}`, the
    /// types `send` takes and as many `_`.
    /// staged form (`{{#staged}}`, `{{^staged}}`): `{{#stages}}` with `{{Stage}}`, `{{stage}}`, `{{stageWords}}`,
    /// `{{StageWords}}`; `{{firstStage}}`, `{{secondStage}}`, `{{lastStage}}`, `{{stageList}}`, `{{StageFirstWords}}`
    /// (the first stage's, as the first screen shows them).
    var variables: Template.Context {
        let flowContexts: [(Flow, Template.Context)] = flows.map { flow in
            var context: Template.Context = [
                "Flow": .text(flow.name),
                "flow": .text(lowerCamel(flow.name)),
                "flowWords": .text(words(flow.name)),
                "FlowWords": .text(sentence(flow.name)),
            ]
            if let key = flow.key, let label = flow.keyLabel {
                context["key"] = .text(key)
                context["keyLabel"] = .text(label)
            }
            return (flow, context)
        }
        let keyed = flowContexts.filter { $0.0.key != nil }.map(\.1)
        let fieldContexts: [Template.Context] = fields.map { field in
            [
                "Field": .text(field),
                "field": .text(lowerCamel(field)),
                "fieldWords": .text(words(field)),
                "FieldWords": .text(sentence(field)),
            ]
        }
        let fieldWords = fields.map(words)
        let fieldList = fieldWords.count < 2
            ? fieldWords.joined()
            : fieldWords.dropLast().joined(separator: ", ") + " and " + (fieldWords.last ?? "")
        let stageContexts: [Template.Context] = stages.map { stage in
            [
                "Stage": .text(stage),
                "stage": .text(lowerCamel(stage)),
                "stageWords": .text(words(stage)),
                "StageWords": .text(sentence(stage)),
            ]
        }
        let staged = shape == .stagedForm
        return [
            "plain": .list(shape == .plain ? [[:]] : []),
            "form": .list(shape.isForm ? [[:]] : []),
            "staged": .list(staged ? [[:]] : []),
            "list": .list(shape == .list ? [[:]] : []),
            "outcome": .text(shape.isForm ? "Void" : "Never"),
            "sendParameters": .text(staged ? "(\(name).Stage, \(name).Form)" : "(\(name).Form)"),
            "sendIgnored": .text(staged ? "_, _" : "_"),
            "stages": .list(stageContexts),
            "firstStage": .text(stages.first.map(lowerCamel) ?? ""),
            "secondStage": .text(stages.dropFirst().first.map(lowerCamel) ?? ""),
            "lastStage": .text(stages.last.map(lowerCamel) ?? ""),
            "stageList": .text(stages.map(words).joined(separator: ", then ")),
            "StageFirstWords": .text(stages.first.map { "Step 1 of \(stages.count): \(sentence($0))." } ?? ""),
            "fields": .list(fieldContexts),
            "firstField": .text(fields.first.map(lowerCamel) ?? ""),
            "lastField": .text(fields.last.map(lowerCamel) ?? ""),
            "fieldList": .text(fieldList),
            "screenPadding": .list(Array(repeating: [:], count: max(0, Self.formScreenBlankLines - fields.count))),
            "Name": .text(name),
            "name": .text(lowerCamel(name)),
            "title": .text(sentence(name)),
            "kebab": .text(words(name).replacingOccurrences(of: " ", with: "-")),
            "flows": .list(flowContexts.map(\.1)),
            "keyedFlows": .list(keyed),
            "hasKeyedFlows": .list(keyed.isEmpty ? [] : [[:]]),
            "load": .list(flows.contains { $0.name == "Load" } ? [[:]] : []),
        ]
    }

    private static func isTypeName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, ("A"..."Z").contains(first) else { return false }
        return text.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }

    /// The first Swift file in the wallet, core or kit targets that declares a type called `name`.
    private static func fileDeclaring(_ name: String, in package: URL) throws -> String? {
        let declaration = try Regex("\\b(class|struct|enum|protocol|actor|typealias)\\s+\(name)\\b")
        for folder in typeSources {
            let root = package.appending(path: folder)
            guard let files = FileManager.default.enumerator(atPath: root.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                guard let text = try? String(contentsOf: root.appending(path: file), encoding: .utf8) else { continue }
                if text.contains(declaration) { return "\(folder)/\(file)" }
            }
        }
        return nil
    }

    private static let reservedTypeNames: Set<String> = ["Any", "Self", "Type", "Protocol"]

    /// Swift keywords a flow's method name (`load(request:)`) cannot be.
    private static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer",
        "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "as", "false", "is", "nil", "self", "super", "throws", "true", "try", "back",
    ]
}

/// `MarkRead` → `markRead`, `URLFetch` → `urlFetch`.
func lowerCamel(_ name: String) -> String {
    let characters = Array(name)
    var upperRun = characters.prefix(while: \.isUppercase).count
    if upperRun > 1 && upperRun < characters.count { upperRun -= 1 }
    return String(characters.prefix(upperRun)).lowercased() + String(characters.dropFirst(upperRun))
}

/// `TransactionDetail` → `transaction detail`; a run of capitals stays one word (`URLFetch` → `url fetch`).
func words(_ name: String) -> String {
    let characters = Array(name)
    var result = ""
    for (index, character) in characters.enumerated() {
        let startsWord = index > 0 && character.isUppercase
            && (!characters[index - 1].isUppercase || (index + 1 < characters.count && characters[index + 1].isLowercase))
        if startsWord { result += " " }
        result += character.lowercased()
    }
    return result
}

/// `TransactionDetail` → `Transaction detail`.
func sentence(_ name: String) -> String {
    let text = words(name)
    return text.prefix(1).uppercased() + text.dropFirst()
}
