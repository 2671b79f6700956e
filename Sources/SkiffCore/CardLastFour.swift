/// The last four digits printed on a card, typed to show the card is in hand (activating the issued card).
public enum CardLastFour {
    /// Why the last four digits were refused.
    public enum Problem: Error, Hashable, Sendable {
        /// Not exactly four digits: the client says so before sending, the server if it is sent anyway.
        case malformed
        /// Four digits that are not the card's: only the server, which holds them, can tell.
        case mismatch

        /// A sentence a person can act on; the client shows it under the field, the server sends it for `last4`.
        public var message: String {
            switch self {
            case .malformed: "Enter the last four digits printed on the card."
            case .mismatch: "These are not the last four digits of this card."
            }
        }
    }

    /// Checks that `raw` is exactly four ASCII digits and returns it.
    public static func validate(_ raw: String) throws(Problem) -> String {
        guard raw.count == 4, raw.allSatisfy(\.isASCIIDigit) else { throw .malformed }
        return raw
    }
}
