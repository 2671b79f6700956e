/// The caller of the current request, set by `AuthenticationMiddleware` for the operation's handler.
struct Caller: Sendable {
    var userID: String
    var tokenHash: String

    @TaskLocal static var current: Caller?

    /// The signed-in caller, or 401.
    static func required() throws -> Caller {
        guard let current else { throw Problem.unauthorized }
        return current
    }
}
