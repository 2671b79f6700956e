import SkiffCore

/// Home's header: who is signed in, the balance, how many notifications are unread, and whether the live stream
/// reaches the server; the balance and the count follow the stream.
enum Balance {
    /// Everything the Interactor knows; each flow answers with the whole of it.
    struct State: Hashable, Sendable {
        var summary: AccountSummary?
        /// Whether the live stream has lost the server (and is trying again).
        var isOffline = false
    }

    /// Home came on screen: the summary kept from last time (if any) at once, then the server's.
    enum Load {
        struct Request: Sendable {
            var cached: AccountSummary?
            init(cached: AccountSummary? = nil) { self.cached = cached }
        }
    }
    /// `r` on Home, or a load that failed tried again.
    enum Refresh {
        struct Request: Sendable {}
    }
    /// What the live stream says: the balance, the unread count, the connection.
    enum Live {
        struct Request: Sendable {
            var update: LiveUpdate
            init(update: LiveUpdate) { self.update = update }
        }
    }
    /// Esc on Home, or the person logging out: the load in flight is dropped.
    enum Stop {
        struct Request: Sendable {}
    }

    /// What the screen shows of the state.
    struct UpdateViewModel: Hashable, Sendable {
        var name: String
        /// `Balance $1,234.56`, `Balance —` until known.
        var balance: String
        /// `3 unread`, nil when none.
        var unreadBadge: String?
        /// `Offline` while the live stream cannot reach the server.
        var connection: String?
    }

    /// What every flow presents: the whole state.
    typealias Update = StateUpdate<State, UpdateViewModel>
}
