import Foundation
import SkiffAPI

extension SkiffAPIHandler {
    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        let caller = try Caller.required()
        let overview = try await accounts.overview(userID: caller.userID)
        let user = overview.user
        return .ok(.init(body: .json(.init(
            user: user.api,
            balance: .init(amountMinor: user.balanceMinor, currency: user.currency),
            unreadNotifications: overview.unreadNotifications
        ))))
    }

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

    func listNotifications(_ input: Operations.ListNotifications.Input) async throws -> Operations.ListNotifications.Output {
        let caller = try Caller.required()
        return .ok(.init(body: .json(try await notifications.notifications(userID: caller.userID).map {
            .init(id: $0.id, title: $0.title, body: $0.body, createdAt: $0.createdAt, read: $0.readAt != nil)
        })))
    }

    func markNotificationRead(_ input: Operations.MarkNotificationRead.Input) async throws -> Operations.MarkNotificationRead.Output {
        let caller = try Caller.required()
        try await notifications.markRead(id: input.path.id, userID: caller.userID)
        return .noContent(.init())
    }
}
