import Foundation
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

    // MARK: Month headings

    /// A row on `day` of `month` 2026 at noon UTC (newest first when listed in falling order).
    func row(_ id: String, _ month: Int, _ day: Int, amountMinor: Int64 = -100, currency: String = "USD") -> Transaction {
        var components = DateComponents(year: 2026, month: month, day: day, hour: 12)
        components.timeZone = .gmt
        return Transaction(
            id: id, amount: Money(amountMinor: amountMinor, currency: currency), merchant: "M", category: "C",
            createdAt: Calendar(identifier: .gregorian).date(from: components)!
        )
    }

    func lines(_ window: TransactionWindow) -> [TransactionWindow.Line] {
        (0..<window.lineCount).compactMap { window.line(at: $0) }
    }

    @Test("each month's first row has a heading above it, also where a month goes on into the next page")
    func monthHeadings() {
        var window = TransactionWindow(firstPage: [row("a", 11, 20), row("b", 11, 2), row("c", 10, 30)], nextCursor: "c3")
        window.append([row("d", 10, 4), row("e", 9, 1)], fetchedWith: "c3", next: nil)
        let november = TransactionMonth(year: 2026, month: 11), october = TransactionMonth(year: 2026, month: 10)
        #expect(lines(window) == [
            .month(november), .transaction(0), .transaction(1),
            .month(october), .transaction(2), .transaction(3),
            .month(TransactionMonth(year: 2026, month: 9)), .transaction(4),
        ])
        #expect(window.lineCount == 8)
        #expect(window.count == 5)
        #expect((0..<5).map { window.lineIndex(ofTransaction: $0) } == [1, 2, 4, 5, 7])
        #expect(window.line(at: 8) == nil)
        // A heading on screen stands for the row below it.
        #expect(window.transactionRange(ofLines: 3..<5) == 2..<3)
        #expect(window.transactionRange(ofLines: 0..<8) == 0..<5)
    }

    @Test("headings are counted in the person's time zone: 1 December 02:00 UTC is still November in New York")
    func monthsInTimeZone() throws {
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        var late = row("a", 12, 1)
        late.createdAt = late.createdAt.addingTimeInterval(-10 * 3600)
        let window = TransactionWindow(firstPage: [late, row("b", 11, 30)], nextCursor: nil, timeZone: newYork)
        #expect(lines(window) == [.month(TransactionMonth(year: 2026, month: 11)), .transaction(0), .transaction(1)])
        let utc = TransactionWindow(firstPage: [late, row("b", 11, 30)], nextCursor: nil)
        #expect(utc.lineCount == 4)
    }

    @Test("a page let go keeps its headings, so every line keeps its place; a row of a new month on top brings its heading")
    func headingsKeptWhenLetGo() {
        var window = TransactionWindow(firstPage: [row("a", 11, 20)], nextCursor: "c1")
        window.append([row("b", 11, 1), row("c", 10, 3)], fetchedWith: "c1", next: "c2")
        window.append([row("d", 10, 2)], fetchedWith: "c2", next: nil)
        let before = (0..<window.lineCount).map { window.line(at: $0) }
        window.letGo(outside: 2..<3)
        #expect((0..<window.lineCount).map { window.line(at: $0) } == before)
        #expect(window[1] == nil)
        window.prepend(row("z", 12, 1))
        #expect(window.line(at: 0) == .month(TransactionMonth(year: 2026, month: 12)))
        #expect(window.line(at: 1) == .transaction(0))
        #expect(window.line(at: 2) == .month(TransactionMonth(year: 2026, month: 11)))
        #expect(window.lineIndex(ofTransaction: 4) == 7)
    }

    @Test("a page fetched again that comes back shorter moves the headings after it with its rows")
    func headingsAfterRefill() {
        var window = TransactionWindow(firstPage: [row("a", 11, 20)], nextCursor: "c1")
        window.append([row("b", 10, 5), row("c", 10, 4)], fetchedWith: "c1", next: "c2")
        window.append([row("d", 9, 2)], fetchedWith: "c2", next: nil)
        window.letGo(outside: 0..<1)
        window.refill(page: 1, with: [])
        #expect(lines(window) == [
            .month(TransactionMonth(year: 2026, month: 11)), .transaction(0),
            .month(TransactionMonth(year: 2026, month: 9)), .transaction(1),
        ])
    }

    @Test("the total is of every row, pages let go too, per currency; a sum past 64 bits gives none")
    func totals() {
        var window = TransactionWindow(firstPage: [row("a", 11, 3, amountMinor: -1_250), row("b", 11, 2, amountMinor: 300)], nextCursor: "c2")
        window.append([row("c", 11, 1, amountMinor: -500, currency: "EUR")], fetchedWith: "c2", next: "c3")
        window.append([row("d", 10, 1, amountMinor: -50)], fetchedWith: "c3", next: nil)
        window.letGo(outside: 0..<1)
        #expect(window.totals == [Money(amountMinor: -500, currency: "EUR"), Money(amountMinor: -1_000, currency: "USD")])
        var large = TransactionWindow(firstPage: [row("e", 11, 4, amountMinor: .max)], nextCursor: "c1")
        large.append([row("h", 11, 3, amountMinor: 1)], fetchedWith: "c1", next: nil)
        #expect(large.totals == nil, "across pages")
        window.append([row("f", 9, 2, amountMinor: .max), row("g", 9, 1, amountMinor: 1)], fetchedWith: "c4", next: nil)
        #expect(window.totals == nil, "within a page")
    }
}
