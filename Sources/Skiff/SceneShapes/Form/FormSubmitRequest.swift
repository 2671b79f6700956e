/// Enter on a form: the form as typed.
struct FormSubmitRequest<Form: Sendable>: Sendable {
    var form: Form
}
