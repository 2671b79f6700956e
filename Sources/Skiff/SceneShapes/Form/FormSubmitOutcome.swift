/// What a one-step form's Submit answers: refused fields, the request running, the call failed, or done.
enum FormSubmitOutcome<Field: RawRepresentable & Hashable & Sendable>: Sendable, FormSubmitResponse
where Field.RawValue == String {
    case invalid([Field: InputProblem])
    case started
    case failed(NetworkError)
    case succeeded
}
