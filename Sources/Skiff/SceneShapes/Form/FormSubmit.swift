/// Enter on a form, in its three VIP shapes: the form as typed, what came of it (`Done`: what the scene learns
/// when the request went through), and what the screen shows. A form scene names it `Submit`.
enum FormSubmit<Form: Sendable, Field: RawRepresentable & Hashable & Sendable, Done: Sendable>
where Field.RawValue == String {
    typealias Request = FormSubmitRequest<Form>
    typealias Response = FormSubmitOutcome<Field, Done>
    typealias ViewModel = FormSubmitViewModel<Field>
}

/// Esc on a form shown in stages: a running request cancelled, else the stage to show again with what its words
/// are made of besides the stage (`facts`: the balance, the card chosen; `Void` where the stage says it all), and
/// those words. The Interactor sends it whole, so the Presenter words the stage from it alone.
enum StagedFormBack<Stage: Hashable & Sendable, Facts: Sendable> {
    struct Request: Sendable {}
    struct Response: Sendable {
        var stage: Stage
        var facts: Facts
    }
    struct ViewModel: Hashable, Sendable {
        var stage: Stage
        var instructions: String
    }
}

extension StagedFormBack.Response where Facts == Void {
    init(stage: Stage) {
        self.init(stage: stage, facts: ())
    }
}

/// Enter on a form shown in stages (a phone number, then the code sent to it): as `FormSubmit`, and every answer
/// says the stage the form is at after it (`StagedFormResponse`), which the screen is told.
enum StagedFormSubmit<Form: Sendable, Field: RawRepresentable & Hashable & Sendable, Done: Sendable, Stage: Hashable & Sendable>
where Field.RawValue == String {
    typealias Request = FormSubmitRequest<Form>
    typealias Response = StagedFormResponse<Stage, Field, Done>
    /// What Enter came to, before it is told at which stage.
    typealias Outcome = FormSubmitOutcome<Field, Done>
    struct ViewModel: Hashable, Sendable {
        var stage: Stage
        var form: FormSubmitViewModel<Field>
    }
}

extension StagedFormSubmit.ViewModel where Field: CaseIterable {
    /// What every form shows alike for what Enter came to (`FormSubmitViewModel`), at the stage the answer names.
    init(_ response: StagedFormResponse<Stage, Field, Done>, formatting: Formatting, prompts: (NetworkError) -> [KeyPrompt] = { _ in [] }) {
        self.init(stage: response.stage, form: .init(response.outcome, formatting: formatting, prompts: prompts))
    }
}
