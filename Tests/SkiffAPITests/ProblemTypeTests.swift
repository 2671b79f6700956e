import Testing
@testable import SkiffAPI

@Suite("Problem types")
struct ProblemTypeTests {
    @Test("every type's URI reads back as that type, and no two share a slug")
    func roundTrip() {
        for type in ProblemType.allCases {
            #expect(ProblemType(uri: type.uri(status: 418)) == type)
        }
        #expect(Set(ProblemType.allCases.map(\.rawValue)).count == ProblemType.allCases.count)
    }

    @Test("a framework's HTTP error carries its status; a URI that is not Skiff's names no type")
    func others() {
        #expect(ProblemType.http.uri(status: 413) == "urn:skiff:problem:http-413")
        #expect(ProblemType.idempotencyInProgress.uri(status: 409) == "urn:skiff:problem:idempotency-in-progress")
        #expect(ProblemType(uri: "urn:skiff:problem:http") == nil)
        #expect(ProblemType(uri: "urn:skiff:problem:http-4x3") == nil)
        #expect(ProblemType(uri: "about:blank") == nil)
        #expect(ProblemType(uri: "urn:other:problem:validation") == nil)
        #expect(ProblemType(uri: "urn:skiff:problem:no-such-thing") == nil)
    }
}
