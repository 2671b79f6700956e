import Foundation
import SkiffCore
import Testing
@testable import Skiff

@MainActor
final class LaunchDisplaySpy: LaunchDisplayLogic {
    var starts: [Launch.Start.ViewModel] = []
    func displayStart(viewModel: Launch.Start.ViewModel) { starts.append(viewModel) }
}

@MainActor
@Suite("LaunchPresenter")
struct LaunchPresenterTests {
    @Test("the presenter names the server")
    func presenter() {
        let display = LaunchDisplaySpy()
        let sut = LaunchPresenter()
        sut.viewController = display
        sut.presentStart(response: .init(serverDescription: "127.0.0.1:8080"))
        #expect(display.starts.last?.subtitle == "Connecting to 127.0.0.1:8080…")
    }
}
