import SkiffCore

/// What Enter on a form shown in stages came to (`outcome`), and the stage the form is at after it. The stage
/// lives in the Interactor alone and comes with every answer, so the Presenter keeps no copy that could fall out
/// of step: it words the stage it is told.
struct StagedFormResponse<Stage: Hashable & Sendable, Field: RawRepresentable & Hashable & Sendable, Done: Sendable>: Sendable
where Field.RawValue == String {
    var outcome: FormSubmitOutcome<Field, Done>
    var stage: Stage

    init(_ outcome: FormSubmitOutcome<Field, Done>, at stage: Stage) {
        self.outcome = outcome
        self.stage = stage
    }

    /// Whether the form may be sent at `stage`: true when the app's own checks found no problem; otherwise
    /// `present` is handed `.invalid` with the refused fields, at that stage, and the answer is false.
    @MainActor
    static func passes(_ problems: [Field: InputProblem], at stage: Stage, else present: (Self) -> Void) -> Bool {
        FormSubmitOutcome<Field, Done>.passes(problems) { present(Self($0, at: stage)) }
    }
}

/// An answer that carries a secret (a development code) says nothing of it.
extension StagedFormResponse: Redacted, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable
where Done: Redacted {}
