import SkiffCore

/// Everything the scenes need from outside: workers, stores, time and wording. Built once by the app (or by a
/// test with doubles) and handed to the coordinators.
struct AppDependencies {
    var auth: any AuthWorking
    var account: any AccountWorking
    var cards: any CardWorking
    var notifications: any NotificationsWorking
    var transfers: any TransferWorking
    var sessions: any SessionStoring
    var preferences: any PreferencesStoring
    var cache: any CacheStoring
    /// The development SMS outbox, when the app runs its own server.
    var outbox: (any DevelopmentOutboxReading)?
    /// The token every signed-in request carries.
    var tokens: SessionTokenBox
    /// Shown on Login when the app runs its own server with demo data.
    var demo: DemoCredentials?
    /// `127.0.0.1:43121 (embedded)` or the remote server's address, for the launch screen.
    var serverDescription: String
    var clock: SceneClock
    var formatting: Formatting
    /// The app's one key map: every scene binds its keys through it, and every sentence that names a key asks it.
    var keys: WalletKeys
    /// The live event stream (nil: Home is updated only when it fetches).
    var liveEvents: (any LiveEventsWorking)?

    /// Ends or forgets the signed-in session, over `auth`, `sessions` and `cache`.
    var session: SessionWorker { SessionWorker(auth: auth, sessions: sessions, cache: cache) }

    init(
        auth: any AuthWorking, account: any AccountWorking, cards: any CardWorking,
        notifications: any NotificationsWorking, transfers: any TransferWorking, sessions: any SessionStoring, preferences: any PreferencesStoring,
        cache: any CacheStoring, outbox: (any DevelopmentOutboxReading)?, tokens: SessionTokenBox,
        demo: DemoCredentials?, serverDescription: String, clock: SceneClock = .live, formatting: Formatting = Formatting(),
        keys: WalletKeys = .standard, liveEvents: (any LiveEventsWorking)? = nil
    ) {
        self.auth = auth
        self.account = account
        self.cards = cards
        self.notifications = notifications
        self.transfers = transfers
        self.sessions = sessions
        self.preferences = preferences
        self.cache = cache
        self.outbox = outbox
        self.tokens = tokens
        self.demo = demo
        self.serverDescription = serverDescription
        self.clock = clock
        self.formatting = formatting
        self.keys = keys
        self.liveEvents = liveEvents
    }
}
