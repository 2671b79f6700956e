import Foundation
import NIOHTTP1
import SkiffCore
import SkiffServer
import Testing
@testable import Skiff

@Suite("APIClient: redirects are not followed")
struct APIClientRedirectTests {
    @Test("a 307 to another server is an error naming it, and the login it would resend never reaches the other server")
    func redirectNotFollowed() async throws {
        let elsewhere = try await RecordingHTTPServer.start { _ in
            .init(status: .ok, headers: [("Content-Type", "application/json")], body: "{}")
        }
        let redirecting = try await RecordingHTTPServer.start { request in
            .init(status: .temporaryRedirect, headers: [("Location", "\(elsewhere.baseURL.absoluteString)\(request.uri)")])
        }
        let api = APIClient(baseURL: redirecting.baseURL, tokens: SessionTokenBox(), timeout: .seconds(10),
                            middlewares: [], onUnauthorised: {})
        let phone = try PhoneNumber.parse(countryCode: DemoCredentials.demo.countryCode, number: DemoCredentials.demo.phoneNumber)

        let error = await #expect(throws: NetworkError.self) {
            _ = try await AuthWorker(api: api).login(phone: phone, password: "a password to keep")
        }
        #expect(error == .server(status: 307, detail: "The server answered 307 (a redirect), which Skiff does not follow."))
        #expect(redirecting.requests == ["POST /v1/auth/login"])
        #expect(elsewhere.requests.isEmpty)

        await api.shutdown()
        await redirecting.stop()
        await elsewhere.stop()
    }
}
