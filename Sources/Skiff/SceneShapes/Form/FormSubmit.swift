/// Enter on a form, in its three VIP shapes: the form as typed, what came of it (`Done`: what the scene learns
/// when the request went through), and what the screen shows. A form scene names it `Submit`.
enum FormSubmit<Form: Sendable, Field: RawRepresentable & Hashable & Sendable, Done: Sendable>
where Field.RawValue == String {
    typealias Request = FormSubmitRequest<Form>
    typealias Response = FormSubmitOutcome<Field, Done>
    typealias ViewModel = FormSubmitViewModel<Field>
}

/// Esc on a form shown in stages: a running request cancelled, else the stage to show again (`Response`), with
/// the words of that stage (`ViewModel`).
enum StagedFormBack<Stage: Hashable & Sendable> {
    struct Request: Sendable {}
    struct Response: Sendable { var stage: Stage }
    struct ViewModel: Hashable, Sendable {
        var stage: Stage
        var instructions: String
    }
}

/// Enter on a form shown in stages (a phone number, then the code sent to it): as `FormSubmit`, and the screen
/// is told which stage to show.
enum StagedFormSubmit<Form: Sendable, Field: RawRepresentable & Hashable & Sendable, Done: Sendable, Stage: Hashable & Sendable>
where Field.RawValue == String {
    typealias Request = FormSubmitRequest<Form>
    typealias Response = FormSubmitOutcome<Field, Done>
    struct ViewModel: Hashable, Sendable {
        var stage: Stage
        var form: FormSubmitViewModel<Field>
    }
}
