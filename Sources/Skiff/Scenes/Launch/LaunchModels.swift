import SkiffCore

/// Launch: decides where the app starts.
public enum Launch {
    public enum Start {
        public struct Request: Sendable { public init() {} }
        public struct Response: Sendable { public var serverDescription: String }
        public struct ViewModel: Hashable, Sendable { public var subtitle: String }
    }
}

/// Where the app starts.
public enum LaunchRoute: Sendable {
    case home(Session)
    case login
}
