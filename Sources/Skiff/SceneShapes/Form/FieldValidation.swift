/// Checking one field as the person leaves it: the same three shapes in every form scene, which names it
/// `ValidateField`.
enum FieldValidation<Field: Hashable & Sendable, Form: Sendable> {
    struct Request: Sendable {
        var field: Field
        var form: Form
        init(field: Field, form: Form) {
            self.field = field
            self.form = form
        }
    }
    struct Response: Sendable {
        var field: Field
        var problem: InputProblem?
    }
    struct ViewModel: Hashable, Sendable {
        var field: Field
        var message: String?
    }
}
