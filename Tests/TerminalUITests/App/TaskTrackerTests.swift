import Testing
@testable import TerminalUI

@MainActor
@Suite("Task tracker")
struct TaskTrackerTests {
    @Test("settle waits for every tracked task, and for tasks those tasks start")
    func settleWaitsForNested() async {
        let sut = TaskTracker()
        var steps: [String] = []
        sut.run {
            await Task.yield()
            steps.append("outer")
            sut.run {
                await Task.yield()
                steps.append("inner")
            }
        }
        await sut.settle()
        #expect(steps == ["outer", "inner"])
        #expect(sut.runningCount == 0)
    }

    @Test("settle(leaving:) returns while the held tasks still wait, and they end when let go")
    func settleLeavingHeld() async {
        let sut = TaskTracker()
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        var done = false
        sut.run {
            for await _ in stream { break }
            done = true
        }
        sut.run { await Task.yield() }
        await sut.settle { 1 }
        #expect(sut.runningCount == 1)
        #expect(!done)
        continuation.yield()
        await sut.settle()
        #expect(done)
    }
}
