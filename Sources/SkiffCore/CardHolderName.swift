/// The name printed on a card, as typed when the card is added: a person's name (`FullName`'s rules) with no digits.
/// Names on cards carry none, and a card number typed in the name field by mistake must be refused, never sent on as
/// a name, kept and shown in full.
public enum CardHolderName {
    /// The most code points a holder name may have: the contract's `PersonName`.
    public static let maxLength = FullName.maxLength

    /// Why a holder name was refused, worded for a card.
    public enum Problem: Error, Hashable, Sendable {
        /// A name's reason (`FullName.Problem`).
        case name(FullName.Problem)
        /// A digit, of any script (`Nd`): names on cards have none.
        case digits

        /// A sentence a person can act on; the client shows it under the field, the server sends it for `holderName`.
        public var message: String {
            switch self {
            case .name(.empty): "Enter the name printed on the card."
            case .name(let reason): reason.message
            case .digits: "Enter the name as printed on the card, with no digits: the card's number goes in its own field."
            }
        }
    }

    /// Checks the name and returns it trimmed of spaces.
    public static func validate(_ raw: String) throws(Problem) -> String {
        let name: String
        do { name = try FullName.validate(raw) } catch { throw .name(error) }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .decimalNumber }) else { throw .digits }
        return name
    }
}
