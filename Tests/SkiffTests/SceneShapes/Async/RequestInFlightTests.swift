import Testing
import TerminalUI
@testable import Skiff

@MainActor
@Suite("RequestInFlight", .timeLimit(.minutes(3)))
struct RequestInFlightTests {
    let tasks = TaskTracker()

    @Test("a second start while one runs is ignored; the first finishes with its result")
    func oneAtATime() async {
        let sut = RequestInFlight(tasks: tasks)
        var results: [Result<Int, NetworkError>] = []
        sut.call({ () async throws(NetworkError) in 1 }, then: { results.append($0) })
        sut.call({ () async throws(NetworkError) in 2 }, then: { results.append($0) })
        #expect(sut.isRunning)
        await tasks.settle()
        #expect(results == [.success(1)])
        #expect(!sut.isRunning)
    }

    @Test("Esc cancels a running request, which still finishes; with nothing running it leaves")
    func cancelOrLeave() async {
        let sut = RequestInFlight(tasks: tasks)
        let gate = Gate()
        var results: [Result<Void, NetworkError>] = []
        var left = 0
        sut.call({ () async throws(NetworkError) in try await gate.wait() }, then: { results.append($0.map { _ in }) })
        await tasks.settle { gate.held }
        sut.cancel { left += 1 }
        await tasks.settle()
        #expect(left == 0)
        guard case .failure(.cancelled)? = results.last else {
            Issue.record("got \(results)")
            return
        }
        sut.cancel { left += 1 }
        #expect(left == 1)
    }

    @Test("an abandoned request never finishes, and a new one may start at once")
    func abandon() async {
        let sut = RequestInFlight(tasks: tasks)
        let gate = Gate()
        var finished: [String] = []
        sut.call({ () async throws(NetworkError) in try await gate.wait() }, then: { _ in finished.append("first") })
        sut.abandon()
        #expect(!sut.isRunning)
        sut.call({ () async throws(NetworkError) in 2 }, then: { _ in finished.append("second") })
        await tasks.settle()
        #expect(finished == ["second"])
    }

    @Test("going away cancels the running request")
    func cancelledWhenGone() async {
        var sut: RequestInFlight? = RequestInFlight(tasks: tasks)
        let gate = Gate()
        var finished = false
        sut?.call({ () async throws(NetworkError) in try await gate.wait() }, then: { _ in finished = true })
        sut = nil
        await tasks.settle()
        #expect(gate.held == 0)
        #expect(!finished)
    }
}
