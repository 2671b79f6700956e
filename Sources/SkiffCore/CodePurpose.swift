/// What a one-time code is for, as the server stores it and its SMS outbox names it.
public enum CodePurpose: String, Sendable, Codable {
    case registration
    case passwordReset = "password-reset"
    case cardActivation = "card-activation"
}
