/// What a one-time code is for, as the server stores it and its SMS outbox names it.
public enum CodePurpose: String, Sendable, Codable {
    case registration
    case passwordReset = "password-reset"
    case cardActivation = "card-activation"
    /// The card issuer's code for a top-up above `TransferRules.topUpChallengeAboveMinor` (like 3-D Secure).
    case topUp = "top-up"
}
