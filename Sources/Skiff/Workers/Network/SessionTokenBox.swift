import Synchronization

/// The current session token, shared by every worker's requests; set at login, cleared at logout or a 401.
final class SessionTokenBox: Sendable {
    private let token = Mutex<String?>(nil)

    init() {}

    var current: String? { token.withLock { $0 } }

    func set(_ value: String?) { token.withLock { $0 = value } }
}
