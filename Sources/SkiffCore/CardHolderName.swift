/// The name printed on a card, as a person types it into a new card (client) and as the server stores it.
/// The rules are a person's name's (`FullName`: at most `FullName.maxLength` code points, no control characters,
/// more than spaces); only the sentence for an empty field names the card.
public enum CardHolderName {
    /// The most code points a holder name may have: the contract's `PersonName`.
    public static let maxLength = FullName.maxLength

    /// Why a holder name was refused.
    public enum Problem: Error, Hashable, Sendable {
        case empty
        case tooLong
        case controlCharacters

        /// A sentence a person can act on; the client shows it under the field, the server sends it for `holderName`.
        public var message: String {
            switch self {
            case .empty: "Enter the name printed on the card."
            case .tooLong: FullName.Problem.tooLong.message
            case .controlCharacters: FullName.Problem.controlCharacters.message
            }
        }
    }

    /// Checks the name and returns it trimmed of spaces.
    public static func validate(_ raw: String) throws(Problem) -> String {
        do {
            return try FullName.validate(raw)
        } catch {
            switch error {
            case .empty: throw .empty
            case .tooLong: throw .tooLong
            case .controlCharacters: throw .controlCharacters
            }
        }
    }
}
