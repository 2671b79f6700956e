import Foundation
import SkiffCore

/// Notifications, newest first.
protocol NotificationRepository: Sendable {
    func notifications(userID: String, limit: Int) async throws -> [NotificationRecord]
    func insert(_ notification: NotificationRecord) async throws
    /// False when the user has no such notification.
    func markRead(id: String, userID: String, at date: Date) async throws -> Bool
}
