import SkiffCore

/// Launch: decides where the app starts.
enum Launch {
    enum Start {
        struct Request: Sendable {}
        struct Response: Sendable { var serverDescription: String }
        struct ViewModel: Hashable, Sendable { var subtitle: String }
    }
}

/// Where the app starts.
enum LaunchRoute: Sendable {
    case home(Session)
    /// Lock over Home: the saved session was locked.
    case locked(Session)
    /// Login, with a notice when the saved session could not be read.
    case login(Login.Notice?)
}
