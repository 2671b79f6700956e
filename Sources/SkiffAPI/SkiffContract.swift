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

    /// The text of `openapi.yaml`.
    package static var document: String {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"),
              let text = try? String(contentsOf: url, encoding: .utf8) else {
            preconditionFailure("SkiffAPI's openapi.yaml is missing from its resource bundle")
        }
        return text
    }
}
