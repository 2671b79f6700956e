import Foundation
import SkiffAPI

extension SkiffAPIHandler {
    func listTransactions(_ input: Operations.ListTransactions.Input) async throws -> Operations.ListTransactions.Output {
        let caller = try Caller.required()
        let page = try await transactions.page(
            userID: caller.userID, limit: Int(input.query.limit ?? 50), query: input.query.query, cursor: input.query.cursor
        )
        return .ok(.init(body: .json(.init(
            items: page.items.map {
                .init(
                    id: String($0.id), amountMinor: $0.amountMinor, currency: $0.currency, merchant: $0.merchant,
                    category: $0.category, createdAt: $0.createdAt, transferId: $0.transferID, note: $0.note,
                    reference: $0.reference
                )
            },
            nextCursor: page.nextCursor,
            searchLimit: page.searchLimit.map { Int32($0) }
        ))))
    }
}
