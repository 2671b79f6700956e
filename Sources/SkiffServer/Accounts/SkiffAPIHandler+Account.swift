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
}
