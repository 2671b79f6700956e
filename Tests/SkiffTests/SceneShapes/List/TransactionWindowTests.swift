import SkiffCore
import Testing
@testable import Skiff

@Suite("TransactionWindow")
struct TransactionWindowTests {
    func page(_ start: Int, _ count: Int = 50) -> [Transaction] { (start..<start + count).map { Seeds.transaction($0) } }

    func threePages() -> TransactionWindow {
        var window = TransactionWindow(firstPage: page(0), nextCursor: "c50")
        window.append(page(50), fetchedWith: "c50", next: "c100")
        window.append(page(100, 20), fetchedWith: "c100", next: nil)
        return window
    }

    @Test("rows are found across pages by index; past the end is nil")
    func rows() {
        let window = threePages()
        #expect(window.count == 120)
        #expect(window[0]?.id == "t_0")
        #expect(window[49]?.id == "t_49")
        #expect(window[50]?.id == "t_50")
        #expect(window[119]?.id == "t_119")
        #expect(window[120] == nil)
        #expect(window[-1] == nil)
        #expect(window.nextCursor == nil)
    }

    @Test("pages far from the screen are let go but keep their place; the first page always stays")
    func letGo() {
        var window = threePages()
        let near = window.pages(near: 110..<119, pageSize: 50)
        #expect(near == 1..<3)
        let letFirst = window.letGo(outside: 2..<3)
        #expect(letFirst)
        #expect(window.count == 120)
        #expect(window[0]?.id == "t_0")
        #expect(window[60] == nil)
        #expect(window[110]?.id == "t_110")
        let letAgain = window.letGo(outside: 2..<3)
        #expect(!letAgain)
        #expect(window.missingPage(in: 0..<3)?.index == 1)
        #expect(window.missingPage(in: 0..<3)?.cursor == "c50")
    }

    @Test("a page fetched again is put back; a shorter answer keeps the rows below in order")
    func refill() {
        var window = threePages()
        window.letGo(outside: 0..<1)
        window.refill(page: 1, with: page(50))
        #expect(window[75]?.id == "t_75")
        #expect(window.missingPage(in: 0..<3)?.index == 2)
        window.refill(page: 2, with: page(100, 5))
        #expect(window.count == 105)
        #expect(window[104]?.id == "t_104")
        window.letGo(outside: 0..<1)
        window.refill(page: 1, with: [])
        #expect(window.count == 55)
        #expect(window[50] == nil)
        window.refill(page: 2, with: page(100, 5))
        #expect(window[50]?.id == "t_100")
    }
}
