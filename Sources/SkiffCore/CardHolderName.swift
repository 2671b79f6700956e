/// The name printed on a card, as a person types it into a new card (client) and as the server stores it.
/// The rules are a person's name's (`FullName`: at most `FullName.maxLength` code points, no control characters,
/// more than spaces); only the sentence for an empty field names the card.
public enum CardHolderName {
    /// The most code points a holder name may have: the contract's `PersonName`.
    public static let maxLength = FullName.maxLength

    /// Why a holder name was refused: a name's reason, worded for a card.
    public struct Problem: Error, Hashable, Sendable {
        public let reason: FullName.Problem

        public init(_ reason: FullName.Problem) {
            self.reason = reason
        }

        /// A sentence a person can act on; the client shows it under the field, the server sends it for `holderName`.
        public var message: String { reason == .empty ? "Enter the name printed on the card." : reason.message }
    }

    /// Checks the name and returns it trimmed of spaces.
    public static func validate(_ raw: String) throws(Problem) -> String {
        do { return try FullName.validate(raw) } catch { throw Problem(error) }
    }
}
