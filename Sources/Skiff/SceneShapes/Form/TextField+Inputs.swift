import TerminalUI

extension TextField {
    /// A field that takes only ASCII digits.
    static func digits(_ text: String = "", placeholder: String = "", maxLength: Int) -> TextField {
        let field = TextField(text: text, placeholder: placeholder, maxLength: maxLength)
        field.inputFilter = { ("0"..."9").contains($0) }
        return field
    }

    /// A country calling code: `+` and digits.
    static func countryCode() -> TextField {
        let field = TextField(maxLength: 4)
        field.inputFilter = { $0 == "+" || ("0"..."9").contains($0) }
        return field
    }

    /// A phone number as people write it: digits, spaces, dashes, dots and brackets.
    static func phoneNumber() -> TextField {
        let field = TextField(maxLength: 20)
        field.inputFilter = { ("0"..."9").contains($0) || " -().".contains($0) }
        return field
    }
}
