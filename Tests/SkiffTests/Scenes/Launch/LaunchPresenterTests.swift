import Foundation
import SkiffCore
import Testing
@testable import Skiff

@MainActor
@Suite("LaunchPresenter")
struct LaunchPresenterTests {
    @Test("the presenter names the server")
    func presenter() {
        let display = LaunchDisplayLogicSpy()
        let sut = LaunchPresenter()
        sut.viewController = display
        sut.presentStart(response: .init(serverDescription: "127.0.0.1:8080"))
        #expect(display.displayStartCalls.last?.subtitle == "Connecting to 127.0.0.1:8080…")
    }
}
