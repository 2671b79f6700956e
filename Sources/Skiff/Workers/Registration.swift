import SkiffCore

/// What a person typed to register.
struct Registration: Sendable, Hashable {
    var phone: PhoneNumber
    var fullName: String
    var password: String

    init(phone: PhoneNumber, fullName: String, password: String) {
        self.phone = phone
        self.fullName = fullName
        self.password = password
    }
}
