/// The app's own checks of a form, before anything is sent: the same checks answer the field the person
/// leaves and the whole form on Enter, in every form scene.
extension FieldValidation.Response {
    /// The answer for the field the request names: its problem among the form's `problems`, if any.
    init(_ request: FieldValidation.Request, problems: [Field: InputProblem]) {
        self.init(field: request.field, problem: problems[request.field])
    }
}

extension FormSubmitResponse {
    /// Whether a form may be sent: true when the app's own checks found no problem; otherwise `present` is
    /// handed `.invalid` with the refused fields, and the answer is false.
    @MainActor
    static func passes(_ problems: [Field: InputProblem], else present: (Self) -> Void) -> Bool {
        guard problems.isEmpty else {
            present(.invalid(problems))
            return false
        }
        return true
    }
}
