import SkiffCore

/// What a form's Submit answers: refused fields, the request running, the call failed, or it went through with
/// what the scene learns then (`Done`: `Void` for a one-step form; the code sent, the card activated … for a form
/// in stages; `Never` where going through leaves the scene without a word).
enum FormSubmitOutcome<Field: RawRepresentable & Hashable & Sendable, Done: Sendable>: Sendable, FormSubmitResponse
where Field.RawValue == String {
    case invalid([Field: InputProblem])
    case started
    case failed(NetworkError)
    case succeeded(Done)
}

/// An outcome that carries a secret (a development code) says nothing of it.
extension FormSubmitOutcome: Redacted, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable
where Done: Redacted {}
