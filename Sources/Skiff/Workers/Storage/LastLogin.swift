/// What the app remembers about the last login: the country code and phone number, never the password.
struct LastLogin: Hashable, Sendable, Codable {
    var countryCode: String
    var phoneNumber: String

    init(countryCode: String, phoneNumber: String) {
        self.countryCode = countryCode
        self.phoneNumber = phoneNumber
    }
}
