import Foundation

/// Whether money can be added from a card: the one rule the app shows before anything is asked and the server
/// applies to every top-up.
public enum TopUpSource {
    /// Why a card cannot be topped up from.
    public enum Refusal: Hashable, Sendable {
        /// The Skiff card spends from the wallet itself.
        case skiffCard
        /// Frozen by its owner until unfrozen.
        case frozen
        /// Past its expiry month.
        case expired
    }

    /// Why money cannot come from this card `now`, or nil when it can.
    public static func refusal(issuedBySkiff: Bool, frozen: Bool, expiryMonth: Int, expiryYear: Int, now: Date) -> Refusal? {
        if issuedBySkiff { return .skiffCard }
        if frozen { return .frozen }
        do {
            _ = try CardExpiry(month: expiryMonth, year: expiryYear, now: now)
        } catch {
            // Only a past expiry refuses: a month the card network reads otherwise is the issuer's to decline.
            if error == .expired { return .expired }
        }
        return nil
    }
}
