import Foundation

/// The contract this module was generated from (`openapi.yaml`, shipped as its resource), read at first use.
package enum SkiffContract {
    /// Every operation of the contract.
    package static let operations: [OpenAPIOperation] = OpenAPIOperations.parse(document)

    /// The operations the contract marks `security: []`: they answer without a session.
    package static let unauthenticatedOperationIDs: Set<String> = Set(
        operations.filter(\.needsNoCredentials).map(\.id)
    )

    /// The operations the contract marks `x-skiff-allowed-while-locked: true`: a locked session may call them.
    package static let operationIDsAllowedWhileLocked: Set<String> = Set(
        operations.filter(\.isAllowedWhileLocked).map(\.id)
    )

    /// Each operation's idempotency strategy, by operation id: the operations that name one in
    /// `x-skiff-idempotency`, which are the ones that take an `Idempotency-Key` header.
    package static let idempotencyStrategies: [String: IdempotencyStrategy] = Dictionary(
        uniqueKeysWithValues: operations.compactMap { operation in operation.idempotencyStrategy.map { (operation.id, $0) } }
    )

    /// What an `Idempotency-Key` must be: the length and pattern of the header parameter's schema, which every
    /// operation that takes the header gives alike.
    package static let idempotencyKeyFacets: StringFacets = {
        let all = Set(operations.compactMap(\.idempotencyKeyFacets))
        guard all.count == 1, let facets = all.first else {
            preconditionFailure("openapi.yaml gives the Idempotency-Key header \(all.count) different schemas, not one")
        }
        return facets
    }()

    /// The length and pattern of every string property of the contract's object schemas that has one, by schema
    /// and property: what a request body must hold to match the schema.
    package static let stringFacets: [String: [String: StringFacets]] = OpenAPIOperations.stringFacets(document)

    /// The text of `openapi.yaml`.
    package static var document: String {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"),
              let text = try? String(contentsOf: url, encoding: .utf8) else {
            preconditionFailure("SkiffAPI's openapi.yaml is missing from its resource bundle")
        }
        return text
    }
}
