import Foundation
import SkiffCore

/// Home: who, how much, cards and transactions.
public enum Home {
    /// Everything the Interactor knows; each flow answers with the whole of it.
    public struct State: Hashable, Sendable {
        public enum Activity: Hashable, Sendable { case idle, loading, loadingMore }

        public var summary: AccountSummary?
        public var cards: [Card] = []
        public var transactions: [Transaction] = []
        public var nextCursor: String?
        public var query: String = ""
        public var activity: Activity = .idle
        public var error: NetworkError?
        /// Set while the data shown is from the cache: when it was saved.
        public var cachedAt: Date?
        /// A one-off note for the person (a card was added, …).
        public var notice: String?

        public init() {}
    }

    public enum Load {
        public struct Request: Sendable { public init() {} }
    }
    public enum Refresh {
        public struct Request: Sendable { public init() {} }
    }
    public enum LoadMore {
        public struct Request: Sendable { public init() {} }
    }
    public enum Search {
        public struct Request: Sendable {
            public var query: String
            public init(query: String) { self.query = query }
        }
    }
    public enum SelectTransaction {
        public struct Request: Sendable {
            public var index: Int
            public init(index: Int) { self.index = index }
        }
    }
    public enum Navigate {
        public enum Destination: Sendable { case addCard, activateCard, notifications }
        public struct Request: Sendable {
            public var destination: Destination
            public init(destination: Destination) { self.destination = destination }
        }
    }
    public enum Logout {
        public struct Request: Sendable { public init() {} }
    }
    /// Esc: stop a refresh, search or page that is still loading.
    public enum Cancel {
        public struct Request: Sendable { public init() {} }
    }

    /// What every flow presents: the whole state.
    public enum Update {
        public struct Response: Sendable {
            public var state: State
        }
        public struct ViewModel: Hashable, Sendable {
            public struct CardRow: Hashable, Sendable {
                public var title: String
                public var detail: String
                public var needsActivation: Bool
            }
            public struct TransactionRow: Hashable, Sendable {
                /// `22 Nov  Lyft · Transport`.
                public var text: String
                public var amount: String
                public var isIncoming: Bool
            }

            public var name: String
            public var balance: String
            public var unreadBadge: String?
            public var cards: [CardRow]
            /// Shown in place of the cards when there are none.
            public var cardsEmptyText: String?
            public var transactions: [TransactionRow]
            public var transactionsTitle: String
            public var emptyText: String?
            public var banner: BannerMessage?
            public var isBusy: Bool
            public var isLoadingMore: Bool
        }
    }
}

/// Where Home sends the person next.
public enum HomeRoute: Sendable {
    case addCard
    case activateCard(Card)
    case notifications
    case transaction(Transaction)
    case loggedOut
}
