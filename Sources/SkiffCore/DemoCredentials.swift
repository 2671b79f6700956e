/// The demo account: seeded by a development server, shown on Login when the app runs its own server.
public struct DemoCredentials: Hashable, Sendable, Redacted {
    public var countryCode: String
    public var phoneNumber: String
    public var password: String
    public var fullName: String

    public init(countryCode: String, phoneNumber: String, password: String, fullName: String) {
        self.countryCode = countryCode
        self.phoneNumber = phoneNumber
        self.password = password
        self.fullName = fullName
    }

    /// The one demo account.
    public static let demo = DemoCredentials(
        countryCode: "+1", phoneNumber: "202 555 0143", password: "sail-away-2026", fullName: "Alex Rivera"
    )
}
