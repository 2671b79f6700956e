import SkiffCore

/// What a person typed to register. `Redacted`: it holds the password.
struct Registration: Sendable, Hashable, Redacted {
    var phone: PhoneNumber
    var fullName: String
    var password: String

    init(phone: PhoneNumber, fullName: String, password: String) {
        self.phone = phone
        self.fullName = fullName
        self.password = password
    }
}
