import Foundation

/// A user's notifications: what transfers, top-ups, cards and registration told them, newest first.
struct NotificationService: Sendable {
    let notifications: any NotificationRepository
    let clock: any ServerClock

    /// The most notifications a list holds.
    static let listLimit = 200

    /// The user's newest notifications, at most `listLimit`.
    func notifications(userID: String) async throws -> [NotificationRecord] {
        try await notifications.notifications(userID: userID, limit: Self.listLimit)
    }

    /// Marks the user's notification `id` read now; 404 when the user has no such notification.
    func markRead(id: String, userID: String) async throws {
        guard try await notifications.markRead(id: id, userID: userID, at: clock.now()) else { throw Problem.notFound }
    }
}
