/// What every form scene's Interactor does with its form: check one field as the person leaves it, and submit
/// the whole form.
@MainActor
protocol FormBusinessLogic<Field, Form>: AnyObject {
    associatedtype Field: Hashable & Sendable
    associatedtype Form: Sendable
    func validateField(request: FieldValidation<Field, Form>.Request)
    func submit(request: FormSubmitRequest<Form>)
}
