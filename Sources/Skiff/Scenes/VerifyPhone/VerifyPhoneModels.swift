import Foundation
import SkiffCore

/// Verify phone: the 6-digit code sent at registration.
public enum VerifyPhone {
    public enum Load {
        public struct Request: Sendable { public init() {} }
        public struct Response: Sendable {
            public var phone: PhoneNumber
            public var challenge: VerificationChallenge
            /// The code from the development outbox, when the app runs its own server.
            public var developmentCode: String?
        }
        public struct ViewModel: Hashable, Sendable {
            public var instructions: String
            public var developmentBanner: BannerMessage?
        }
    }

    public enum Submit {
        public struct Request: Sendable {
            public var code: String
            public init(code: String) { self.code = code }
        }
        public enum Response: Sendable {
            case invalid(InputProblem)
            case started
            case failed(NetworkError)
            case succeeded
            /// A new code went out.
            case resent
        }
        public struct ViewModel: Hashable, Sendable {
            public var codeError: String?
            public var banner: BannerMessage?
            public var isBusy: Bool
            public var clearCode: Bool
        }
    }

    public enum Resend {
        public struct Request: Sendable { public init() {} }
    }

    public enum Cancel {
        public struct Request: Sendable { public init() {} }
    }
}

/// Where Verify phone sends the person next.
public enum VerifyPhoneRoute: Sendable {
    case verified(Session)
    case cancelled
}
