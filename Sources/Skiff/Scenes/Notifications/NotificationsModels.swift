import SkiffCore

/// Notifications: newest first; Enter opens one in full (its title, date and whole text), marking it read.
enum Notifications {
    struct State: Hashable, Sendable {
        var items: [AppNotification] = []
        var isLoading = false
        var error: NetworkError?
        var hasLoaded = false
        /// The notification shown in full, if one is open.
        var openID: String?
        init() {}
    }

    enum Load {
        struct Request: Sendable {}
    }
    /// Enter: open the selected notification in full, marking it read.
    enum Open {
        typealias Request = RowRequest
    }
    enum MarkAllRead {
        struct Request: Sendable {}
    }
    /// Esc: back to the list from an open notification; from the list, leave.
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
        /// A notification in full: the list gives way to it.
        struct Opened: Hashable, Sendable {
            var title: String
            var date: String
            var body: String
        }
        var rows: [Row]
        /// The open notification, or nil while the list shows.
        var opened: Opened?
        var summary: String
        var emptyText: String?
        var banner: BannerMessage?
        var isBusy: Bool
    }

    /// What every flow presents: the whole list.
    typealias Update = StateUpdate<State, UpdateViewModel>
}
