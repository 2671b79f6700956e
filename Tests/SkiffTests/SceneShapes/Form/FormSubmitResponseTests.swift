import Testing
@testable import Skiff

@Suite("Refused submits")
struct FormSubmitResponseTests {
    typealias Response = FormSubmitOutcome<Register.Field, Void>

    @Test("the server's field errors land on the form's fields, by API name or alias")
    func fieldErrors() {
        let error = NetworkError.validation(detail: "Check the form.", fields: [
            FieldError(field: "fullName", message: "Too long."), FieldError(field: "name", message: "Taken."),
        ])
        guard case .invalid(let problems) = Response.refused(error, aliases: ["name": .phoneNumber]) else {
            Issue.record("expected .invalid")
            return
        }
        #expect(problems == [.fullName: .server("Too long."), .phoneNumber: .server("Taken.")])
    }

    @Test("field errors for fields the form does not have, and other errors, stay errors")
    func otherErrors() {
        let unknown = NetworkError.validation(detail: "Odd.", fields: [FieldError(field: "shoeSize", message: "No.")])
        guard case .failed(unknown) = Response.refused(unknown) else {
            Issue.record("expected .failed")
            return
        }
        guard case .failed(.timeout) = Response.refused(.timeout) else {
            Issue.record("expected .failed(.timeout)")
            return
        }
    }
}
