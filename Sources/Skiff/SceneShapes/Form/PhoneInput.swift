import SkiffCore

/// A phone number as typed into a country code field and a number field.
enum PhoneInput {
    /// Adds the number's problem, if any, to the field it belongs to.
    static func check<Field: Hashable>(
        countryCode: String, number: String, countryCodeField: Field, numberField: Field,
        into problems: inout [Field: InputProblem]
    ) {
        do throws(PhoneNumber.Problem) {
            _ = try PhoneNumber.parse(countryCode: countryCode, number: number)
        } catch {
            switch error {
            case .emptyCountryCode, .invalidCountryCode: problems[countryCodeField] = .phone(error)
            default: problems[numberField] = .phone(error)
            }
        }
    }
}
