import Foundation
import SkiffAPI

extension SkiffAPIHandler {
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
