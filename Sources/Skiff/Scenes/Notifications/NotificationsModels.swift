import SkiffCore

/// Notifications: newest first, each marked read when opened.
public enum Notifications {
    public struct State: Hashable, Sendable {
        public var items: [AppNotification] = []
        public var isLoading = false
        public var error: NetworkError?
        public var hasLoaded = false
        public init() {}
    }

    public enum Load {
        public struct Request: Sendable { public init() {} }
    }
    public enum MarkRead {
        public struct Request: Sendable {
            public var index: Int
            public init(index: Int) { self.index = index }
        }
    }
    public enum MarkAllRead {
        public struct Request: Sendable { public init() {} }
    }
    public enum Close {
        public struct Request: Sendable { public init() {} }
    }

    /// What every flow presents: the whole list.
    public enum Update {
        public struct Response: Sendable { public var state: State }
        public struct ViewModel: Hashable, Sendable {
            public struct Row: Hashable, Sendable {
                public var title: String
                public var body: String
                public var date: String
                public var isUnread: Bool
            }
            public var rows: [Row]
            public var summary: String
            public var emptyText: String?
            public var banner: BannerMessage?
            public var isBusy: Bool
        }
    }
}

/// Where Notifications sends the person next.
public enum NotificationsRoute: Sendable {
    /// Back to Home, with how many are still unread (nil when the list never loaded, so nothing is known).
    case close(unread: Int?)
}
