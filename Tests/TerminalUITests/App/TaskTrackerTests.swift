import Testing
@testable import TerminalUI

@MainActor
@Suite("Task tracker", .timeLimit(.minutes(3)))
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

    @Test("a cancelled settle cancels the tasks it waits for, so a wait over its time limit ends")
    func cancelledSettleCancelsWork() async {
        let sut = TaskTracker()
        // A gate that is never opened: only cancellation ends the wait on it.
        let (gate, keepClosed) = AsyncStream<Void>.makeStream()
        var outcome = "still waiting"
        sut.run {
            for await _ in gate {
                outcome = "let through"
                return
            }
            outcome = Task.isCancelled ? "cancelled" : "gate closed"
        }
        let waiter = Task { await sut.settle() }
        waiter.cancel()
        await waiter.value
        #expect(outcome == "cancelled")
        #expect(sut.runningCount == 0)
        keepClosed.finish()
    }
}
