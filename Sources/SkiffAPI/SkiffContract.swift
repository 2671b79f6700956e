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

    /// The operations that take a required `Idempotency-Key`: they create something, and a retry with the same
    /// key replays the first answer.
    package static let idempotentOperationIDs: Set<String> = Set(
        operations.filter { $0.idempotencyKey == .required }.map(\.id)
    )

    /// The idempotent operations whose keys the ledger keeps (`x-skiff-idempotency-in-ledger: true`): the key is
    /// stored with the transfer it made, in the same database transaction, so no answer can be lost between them.
    package static let ledgerIdempotentOperationIDs: Set<String> = Set(
        operations.filter { $0.idempotencyKey == .required && $0.keepsIdempotencyInLedger }.map(\.id)
    )

    /// The operations that take an optional `Idempotency-Key`: they consume a one-time code, and a retry with the
    /// key is answered again instead of refused.
    package static let replayableOperationIDs: Set<String> = Set(
        operations.filter { $0.idempotencyKey == .optional }.map(\.id)
    )

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
