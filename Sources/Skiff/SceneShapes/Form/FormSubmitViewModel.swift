/// What a form screen shows after Enter: each refused field's sentence, a banner, whether a request runs, the
/// inputs to empty (a refused password, a spent code), where to put the cursor, and new words for the
/// introduction when the form moves on to its next stage. `FormScreen.display` shows it.
struct FormSubmitViewModel<Field: Hashable & Sendable>: Hashable, Sendable {
    var fieldErrors: [Field: String] = [:]
    var banner: BannerMessage?
    var isBusy = false
    /// The inputs to empty.
    var clear: Set<Field> = []
    /// The field to put the cursor in, where the person has something to fix.
    var focus: Field?
    /// The introduction's new words; nil leaves it as it is.
    var instructions: String?
    /// The confirmation Enter came to, shown in its box until the form leaves the stage; nil leaves the box as it is.
    var confirmation: FormConfirmation?
}

extension FormSubmitViewModel where Field: CaseIterable {
    /// The fields the checks refused, worded, with the cursor on the first of them in the form's order.
    init(refusing problems: [Field: InputProblem], formatting: Formatting) {
        self.init(fieldErrors: formatting.messages(for: problems), focus: Field.allCases.first { problems[$0] != nil })
    }
}

extension FormSubmitViewModel where Field: CaseIterable & RawRepresentable, Field.RawValue == String {
    /// What every form shows alike for what Enter came to: the refused fields (worded, the cursor on the first of
    /// them), the spinner while the request runs, a failed call's error in a banner with the key prompts
    /// `prompts` gives for it; nothing yet for a success, which the scene words itself.
    init<Done>(
        _ outcome: FormSubmitOutcome<Field, Done>, formatting: Formatting,
        prompts: (NetworkError) -> [KeyPrompt] = { _ in [] }
    ) {
        switch outcome {
        case .invalid(let problems): self.init(refusing: problems, formatting: formatting)
        case .started: self.init(isBusy: true)
        case .failed(let error): self.init(banner: formatting.message(for: error).map { BannerMessage(.error, $0, prompts: prompts(error)) })
        case .succeeded: self.init()
        }
    }
}
