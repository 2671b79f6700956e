import Testing
@testable import Skiff

@MainActor
@Suite("Idle timer")
struct IdleTimerTests {
    let clock = ManualIdleClock()

    func makeSUT(fired: @escaping @MainActor () -> Void) -> IdleTimer {
        let sut = IdleTimer(timeout: .seconds(300), clock: clock)
        sut.onIdle = fired
        return sut
    }

    @Test("fires once when the timeout passes without activity, then stops")
    func firesAtTheDeadline() {
        var fired = 0
        let sut = makeSUT { fired += 1 }
        sut.start()
        clock.advance(by: .seconds(299))
        #expect(fired == 0)
        clock.advance(by: .seconds(1))
        #expect(fired == 1)
        #expect(!sut.isRunning)
        clock.advance(by: .seconds(3600))
        #expect(fired == 1)
    }

    @Test("activity moves the deadline; keys set no alarm, the early alarm sets one for the new deadline")
    func activityPostpones() {
        var fired = 0
        let sut = makeSUT { fired += 1 }
        sut.start()
        for _ in 0..<50 {
            clock.advance(by: .seconds(4))
            sut.noteActivity()
        }
        #expect(clock.scheduledCount == 1)
        clock.advance(by: .seconds(100))
        #expect(fired == 0)
        #expect(clock.scheduledCount == 2)
        clock.advance(by: .seconds(199))
        #expect(fired == 0)
        clock.advance(by: .seconds(1))
        #expect(fired == 1)
        #expect(clock.scheduledCount == 2)
    }

    @Test("stop cancels the alarm; start counts again from now")
    func stopAndRestart() {
        var fired = 0
        let sut = makeSUT { fired += 1 }
        sut.start()
        sut.stop()
        #expect(clock.pendingCount == 0)
        clock.advance(by: .seconds(600))
        #expect(fired == 0)
        sut.start()
        clock.advance(by: .seconds(300))
        #expect(fired == 1)
    }
}
