/// A form's Submit response: the fields it refused, or a call that failed. One place puts the server's
/// per-field errors on the form's own fields, for every form scene.
protocol FormSubmitResponse {
    associatedtype Field: RawRepresentable & Hashable where Field.RawValue == String
    static func invalid(_ problems: [Field: InputProblem]) -> Self
    static func failed(_ error: NetworkError) -> Self
}

extension FormSubmitResponse {
    /// The response to a call that failed: where the server refused named fields, those fields' problems
    /// (by their API name, or by `aliases` where the API names them differently); otherwise the error.
    static func refused(_ error: NetworkError, aliases: [String: Field] = [:]) -> Self {
        guard case .validation(_, let fields) = error else { return .failed(error) }
        var problems: [Field: InputProblem] = [:]
        for field in fields {
            if let key = aliases[field.field] ?? Field(rawValue: field.field) { problems[key] = .server(field.message) }
        }
        return problems.isEmpty ? .failed(error) : .invalid(problems)
    }
}
