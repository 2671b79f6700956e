import SkiffCore

/// Notifications: newest first, each marked read when opened.
enum Notifications {
    struct State: Hashable, Sendable {
        var items: [AppNotification] = []
        var isLoading = false
        var error: NetworkError?
        var hasLoaded = false
        init() {}
    }

    enum Load {
        struct Request: Sendable {}
    }
    enum MarkRead {
        typealias Request = RowRequest
    }
    enum MarkAllRead {
        struct Request: Sendable {}
    }
    /// Esc: leave, telling Home how many are unread.
    enum Back {
        struct Request: Sendable {}
    }

    /// What the screen shows of the state.
    struct UpdateViewModel: Hashable, Sendable {
        struct Row: Hashable, Sendable {
            var title: String
            var body: String
            var date: String
            var isUnread: Bool
        }
        var rows: [Row]
        var summary: String
        var emptyText: String?
        var banner: BannerMessage?
        var isBusy: Bool
    }

    /// What every flow presents: the whole list.
    typealias Update = StateUpdate<State, UpdateViewModel>
}
