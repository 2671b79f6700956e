import Foundation
import SkiffCore

struct NotificationRecord: Sendable, Equatable {
    var id: String
    var userID: String
    var title: String
    var body: String
    var createdAt: Date
    var readAt: Date?
}
