import Foundation

/// One operation of an OpenAPI document, as far as routing and sessions care.
package struct OpenAPIOperation: Hashable, Sendable {
    package var id: String
    /// Lowercase, as the document writes it: `get`, `post` …
    package var method: String
    /// The path template, such as `/v1/cards/{id}`.
    package var path: String
    /// True when the operation's `security` is empty (`security: []`), or it has none and neither has the document.
    package var needsNoCredentials: Bool
    /// True when the operation says `x-skiff-allowed-while-locked: true`: a locked session may call it.
    package var isAllowedWhileLocked: Bool
    /// Whether the operation takes an `Idempotency-Key` header parameter (its own or its path's, inline or by
    /// `$ref`), and whether it must be sent; nil when it takes none.
    package var idempotencyKey: IdempotencyKeyUse?
    /// The length and pattern of the `Idempotency-Key` parameter's schema; nil when it takes none or they say nothing.
    package var idempotencyKeyFacets: StringFacets?
    /// How a retry with the same `Idempotency-Key` is answered (`x-skiff-idempotency`); nil when it names none, or
    /// names one this reader does not know.
    package var idempotencyStrategy: IdempotencyStrategy?

    /// How an operation takes an `Idempotency-Key`.
    package enum IdempotencyKeyUse: Hashable, Sendable {
        /// `required: true`: the request must send one.
        case required
        /// Not required: a request may send one.
        case optional
    }

    package init(
        id: String, method: String, path: String, needsNoCredentials: Bool, isAllowedWhileLocked: Bool = false,
        idempotencyKey: IdempotencyKeyUse? = nil, idempotencyKeyFacets: StringFacets? = nil,
        idempotencyStrategy: IdempotencyStrategy? = nil
    ) {
        self.id = id
        self.method = method
        self.path = path
        self.needsNoCredentials = needsNoCredentials
        self.isAllowedWhileLocked = isAllowedWhileLocked
        self.idempotencyKey = idempotencyKey
        self.idempotencyKeyFacets = idempotencyKeyFacets
        self.idempotencyStrategy = idempotencyStrategy
    }
}

/// How an operation answers a retry with the same `Idempotency-Key`, as the contract names it in
/// `x-skiff-idempotency` (docs/decisions/0191).
package enum IdempotencyStrategy: String, Hashable, Sendable, CaseIterable {
    /// The first answer is kept for the caller's key, 24 h, and sent again (`IdempotencyMiddleware`).
    case storedAnswer = "stored-answer"
    /// The ledger keeps the key with what it writes, in the same database transaction, and answers a retry from there.
    case ledger
    /// The key is optional: a one-time code's single use is bound to the request, which is answered again when sent
    /// again (`OneTimeCodeService`).
    case codeReplay = "code-replay"

    /// Whether a request must send the key: only a code replay may go without one.
    package var keyRequired: Bool { self != .codeReplay }
}

/// Reads the operations of an OpenAPI document written in block-style YAML, as `openapi.yaml` is: enough of
/// YAML to follow `paths`, their methods, `operationId`, `security` and header `parameters`, nothing more.
package enum OpenAPIOperations {
    private static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// The operations of `document`, in the order it lists them.
    package static func parse(_ document: String) -> [OpenAPIOperation] {
        let root = outline(document)
        let documentNeedsNoCredentials = root.child("security").map(isEmptySecurity) ?? true
        var operations: [OpenAPIOperation] = []
        let components = root.child("components")?.child("parameters")
        for path in root.child("paths")?.children ?? [] {
            for operation in path.children where methods.contains(operation.key) {
                guard let id = operation.child("operationId")?.value, !id.isEmpty else { continue }
                let parameters = [path, operation].flatMap { $0.child("parameters")?.children ?? [] }
                    .map { parameter($0, components: components) }
                let idempotencyKey = parameters.first {
                    $0.fields["name"] == idempotencyKeyHeader && $0.fields["in"] == "header"
                }
                operations.append(OpenAPIOperation(
                    id: id, method: operation.key, path: path.key,
                    needsNoCredentials: operation.child("security").map(isEmptySecurity) ?? documentNeedsNoCredentials,
                    isAllowedWhileLocked: operation.child("x-skiff-allowed-while-locked")?.value == "true",
                    idempotencyKey: idempotencyKey.map { $0.fields["required"] == "true" ? .required : .optional },
                    idempotencyKeyFacets: idempotencyKey?.schema.flatMap { stringSchemaFacets(fields($0)) },
                    idempotencyStrategy: operation.child("x-skiff-idempotency").flatMap {
                        IdempotencyStrategy(rawValue: unquoted($0.value))
                    }
                ))
            }
        }
        return operations
    }

    /// The header that makes a request safe to retry.
    package static let idempotencyKeyHeader = "Idempotency-Key"

    /// A parameter's scalar fields (`name`, `in`, `required` …) and its `schema`, written inline (`- name: …` and the
    /// lines under it) or as `- $ref: '#/components/parameters/<Name>'`, looked up in `components`.
    private static func parameter(_ item: Node, components: Node?) -> (fields: [String: String], schema: Node?) {
        var fields: [String: String] = [:]
        let first = entry(item.value)
        for (key, value) in [(first.key, first.value)] + item.children.map({ ($0.key, $0.value) }) {
            fields[key] = value.trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
        }
        let prefix = "#/components/parameters/"
        if let reference = fields["$ref"], reference.hasPrefix(prefix),
           let component = components?.child(String(reference.dropFirst(prefix.count))) {
            let fields = component.children.reduce(into: [:]) { fields, node in
                fields[node.key] = node.value.trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
            }
            return (fields, component.child("schema"))
        }
        return (fields, item.child("schema"))
    }

    /// A `security` entry that lists no requirement: `security: []`.
    private static func isEmptySecurity(_ node: Node) -> Bool {
        node.children.isEmpty && node.value.filter { !$0.isWhitespace } == "[]"
    }

    /// One line of the document: its key (`-` for a list item), what follows the colon, and the deeper lines.
    private struct Node {
        var key: String
        var value: String
        var indent: Int
        var children: [Node] = []

        func child(_ key: String) -> Node? { children.first { $0.key == key } }
    }

    /// The document as a tree of keys by indentation. Block scalars and multi-line flow values become children
    /// of their key, where nothing looks for them.
    private static func outline(_ document: String) -> Node {
        var stack = [Node(key: "", value: "", indent: -1)]
        func closeDeepest() {
            let node = stack.removeLast()
            stack[stack.count - 1].children.append(node)
        }
        for line in document.split(whereSeparator: \.isNewline) {
            let content = line.drop { $0 == " " }
            guard !content.isEmpty, !content.hasPrefix("#") else { continue }
            let indent = line.count - content.count
            while stack.count > 1, stack[stack.count - 1].indent >= indent { closeDeepest() }
            let (key, value) = entry(String(content))
            stack.append(Node(key: key, value: value, indent: indent))
        }
        while stack.count > 1 { closeDeepest() }
        return stack[0]
    }

    /// `key: value` as its unquoted key and trimmed value; `- item` as `-` and the item.
    private static func entry(_ content: String) -> (key: String, value: String) {
        if content == "-" || content.hasPrefix("- ") {
            return ("-", content.dropFirst().trimmingCharacters(in: .whitespaces))
        }
        let colon = content.range(of: ": ")?.lowerBound ?? (content.hasSuffix(":") ? content.indices.last : nil)
        guard let colon else { return (content.trimmingCharacters(in: .whitespaces), "") }
        let key = content[..<colon].trimmingCharacters(in: .whitespaces)
            .trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
        return (key, content[content.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
}

/// What JSON Schema asks of a string beyond its type: a length in Unicode scalars and a pattern, with the
/// schema's first example to show a person what it means.
package struct StringFacets: Hashable, Sendable {
    package var minLength: Int?
    package var maxLength: Int?
    package var pattern: String?
    package var example: String?

    package init(minLength: Int? = nil, maxLength: Int? = nil, pattern: String? = nil, example: String? = nil) {
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
        self.example = example
    }
}

extension OpenAPIOperations {
    /// The string properties of the document's object schemas (`components.schemas`) that have a length or a
    /// pattern, by schema and property. A property may write its facets inline (`{ type: string, maxLength: 64 }`),
    /// on the lines under it, or as a `$ref` to a string schema of `components.schemas`.
    package static func stringFacets(_ document: String) -> [String: [String: StringFacets]] {
        let schemas = outline(document).child("components")?.child("schemas")?.children ?? []
        let named = Dictionary(schemas.map { ($0.key, fields($0)) }, uniquingKeysWith: { first, _ in first })
        var facets: [String: [String: StringFacets]] = [:]
        for schema in schemas {
            for property in schema.child("properties")?.children ?? [] {
                var fields = fields(property)
                let prefix = "#/components/schemas/"
                if let reference = fields["$ref"], reference.hasPrefix(prefix) {
                    fields = named[String(reference.dropFirst(prefix.count))] ?? [:]
                }
                guard let found = stringSchemaFacets(fields) else { continue }
                facets[schema.key, default: [:]][property.key] = found
            }
        }
        return facets
    }

    /// The facets of a schema given by its scalar `fields`; nil when it is not a string's or has no length and no pattern.
    private static func stringSchemaFacets(_ fields: [String: String]) -> StringFacets? {
        guard fields["type"] == "string" else { return nil }
        let found = StringFacets(
            minLength: fields["minLength"].flatMap { Int($0) }, maxLength: fields["maxLength"].flatMap { Int($0) },
            pattern: fields["pattern"], example: fields["examples"].flatMap(firstItem)
        )
        guard found.minLength != nil || found.maxLength != nil || found.pattern != nil else { return nil }
        return found
    }

    /// A schema's scalar fields, from its flow mapping (`{ type: string, … }`) or the lines under it, unquoted.
    private static func fields(_ node: Node) -> [String: String] {
        var fields: [String: String] = [:]
        if node.value.hasPrefix("{"), node.value.hasSuffix("}") {
            for item in flowItems(String(node.value.dropFirst().dropLast())) {
                let (key, value) = entry(item)
                fields[key] = unquoted(value)
            }
        }
        for child in node.children where !child.value.isEmpty {
            fields[child.key] = unquoted(child.value)
        }
        return fields
    }

    /// The items of a flow collection's inside, split at the commas outside quotes and brackets.
    private static func flowItems(_ text: String) -> [String] {
        var items: [String] = []
        var current = ""
        var quote: Character?
        var depth = 0
        for character in text {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "[" || character == "{" {
                depth += 1
            } else if character == "]" || character == "}" {
                depth -= 1
            } else if character == ",", depth == 0 {
                items.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
                continue
            }
            current.append(character)
        }
        let last = current.trimmingCharacters(in: .whitespaces)
        if !last.isEmpty { items.append(last) }
        return items
    }

    /// The first item of a flow sequence (`['USD', …]`), unquoted.
    private static func firstItem(_ sequence: String) -> String? {
        guard sequence.hasPrefix("["), sequence.hasSuffix("]") else { return nil }
        return flowItems(String(sequence.dropFirst().dropLast())).first.map(unquoted)
    }

    /// A YAML scalar without its quotes: `'it''s'` is `it's`; a double-quoted one keeps its escapes as written.
    private static func unquoted(_ value: String) -> String {
        if value.count >= 2, value.hasPrefix("'"), value.hasSuffix("'") {
            return String(value.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
        }
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { return String(value.dropFirst().dropLast()) }
        return value
    }
}
