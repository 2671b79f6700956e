import Foundation
import SkiffCore

/// A calendar month as the person's clock has it: the heading a list puts above that month's rows.
struct TransactionMonth: Hashable, Sendable, Comparable {
    var year: Int
    var month: Int

    init(year: Int, month: Int) {
        self.year = year
        self.month = month
    }

    /// The month `date` falls in, read in `timeZone` (as the rows' dates are shown).
    init(_ date: Date, in timeZone: TimeZone) {
        let local = Formatting(timeZone: timeZone).localTime(date)
        self.init(year: local.year, month: local.month)
    }

    static func < (lhs: Self, rhs: Self) -> Bool { (lhs.year, lhs.month) < (rhs.year, rhs.month) }
}

/// The transactions Home has paged through, kept as pages of which only those near the screen hold their rows:
/// memory stays flat however far a person scrolls (issue 10). A page let go keeps its row count and the cursor
/// that fetched it, so it can be fetched again when the person scrolls back; until then its rows are missing.
///
/// The list shows the rows under month headings (`November 2026`): its lines are the rows and, before the first
/// row of each month, a heading. Each page keeps where its months start and what its amounts add up to, worked out
/// when its rows arrive and kept when they are let go, so a line's place, a row's line and the total never need
/// the rows of pages far away.
struct TransactionWindow: Hashable, Sendable, ExpressibleByArrayLiteral {
    struct Page: Hashable, Sendable {
        /// The cursor this page was fetched with (nil for the first page).
        var cursor: String?
        var count: Int
        /// Nil while let go.
        var items: [Transaction]?
        /// Where each month of the page starts: its first row's month at offset 0, then each change.
        var months: [MonthStart] = []
        /// The page's amounts added up per currency; nil when a sum would not fit in 64 bits.
        var totals: [String: Int64]? = [:]
    }

    /// A month whose rows start at `offset` in a page.
    struct MonthStart: Hashable, Sendable {
        var offset: Int
        var month: TransactionMonth
    }

    /// One line of the list: a month's heading, or the row of the transaction at an index.
    enum Line: Hashable, Sendable {
        case month(TransactionMonth)
        case transaction(Int)
    }

    private(set) var pages: [Page] = []
    /// The cursor of the page after the last one, nil when the last page is the end.
    var nextCursor: String?
    /// The zone months are counted in: the person's, as the rows' dates are shown.
    let timeZone: TimeZone
    /// The index of each page's first row, for finding a row's page by binary search.
    private var starts: [Int] = []
    /// The index of each page's first line (rows and headings).
    private var lineStarts: [Int] = []
    /// The headings each page shows: its month starts, but the first one when the page before ends in that month.
    private var headings: [[MonthStart]] = []
    /// Rows in all pages, held or not.
    private(set) var count = 0
    /// Lines in all pages: rows and month headings.
    private(set) var lineCount = 0
    /// The month of the last row of all pages.
    private var lastMonth: TransactionMonth?

    /// No transactions yet.
    init(timeZone: TimeZone = .gmt) {
        self.timeZone = timeZone
    }

    init(firstPage items: [Transaction], nextCursor: String?, timeZone: TimeZone = .gmt) {
        self.timeZone = timeZone
        self.nextCursor = nextCursor
        if !items.isEmpty || nextCursor != nil { append(items, fetchedWith: nil, next: nextCursor) }
    }

    init(arrayLiteral elements: Transaction...) {
        self.init(firstPage: elements, nextCursor: nil)
    }

    var isEmpty: Bool { count == 0 }

    /// The rows of the first page (what the cache keeps).
    var firstPage: [Transaction] { pages.first?.items ?? [] }

    /// Whether every page holds its rows.
    var isWhole: Bool { pages.allSatisfy { $0.items != nil } }

    /// What all the rows add up to, one amount per currency in the order of their codes; nil when a sum does not
    /// fit in 64 bits.
    var totals: [Money]? {
        var sums: [String: Int64] = [:]
        for page in pages {
            guard let totals = page.totals, Self.add(totals, to: &sums) else { return nil }
        }
        return sums.keys.sorted().map { Money(amountMinor: sums[$0] ?? 0, currency: $0) }
    }

    /// The transaction at `index`, nil when its page was let go (or past the end).
    subscript(index: Int) -> Transaction? {
        guard index >= 0, let (page, offset) = locate(index) else { return nil }
        return pages[page].items?[offset]
    }

    /// Adds the page fetched with `cursor` after the last one.
    mutating func append(_ items: [Transaction], fetchedWith cursor: String?, next: String?) {
        pages.append(makePage(cursor: cursor, items: items))
        nextCursor = next
        indexPage(pages.count - 1)
    }

    /// Puts a new transaction (a live event's) at the top of the first page, unless the first page has it already;
    /// returns whether it went in. The pages below keep their cursors, which name rows, not positions.
    @discardableResult
    mutating func prepend(_ transaction: Transaction) -> Bool {
        guard let first = pages.first?.items else {
            guard pages.isEmpty else { return false }
            append([transaction], fetchedWith: nil, next: nextCursor)
            return true
        }
        guard !first.contains(where: { $0.id == transaction.id }) else { return false }
        pages[0] = makePage(cursor: pages[0].cursor, items: [transaction] + first)
        reindex()
        return true
    }

    /// The pages that overlap `rows` widened by a page on each side.
    func pages(near rows: Range<Int>, pageSize: Int) -> Range<Int> {
        guard !pages.isEmpty else { return 0..<0 }
        let first = locate(max(0, rows.lowerBound - pageSize))?.page ?? 0
        let last = locate(min(count - 1, max(rows.upperBound - 1, 0) + pageSize))?.page ?? pages.count - 1
        return first..<(last + 1)
    }

    /// Lets go of the rows of every page outside `kept`, but the first (the cache's); returns whether any went.
    /// Their months and totals stay.
    @discardableResult
    mutating func letGo(outside kept: Range<Int>) -> Bool {
        var changed = false
        for index in pages.indices.dropFirst() where !kept.contains(index) && pages[index].items != nil {
            pages[index].items = nil
            changed = true
        }
        return changed
    }

    /// The first page in `range` whose rows were let go: its index and cursor.
    func missingPage(in range: Range<Int>) -> (index: Int, cursor: String?)? {
        range.first { pages.indices.contains($0) && pages[$0].items == nil }.map { ($0, pages[$0].cursor) }
    }

    /// Puts back the rows of page `index`, fetched again. The same cursor gives the same rows unless some were
    /// removed meanwhile; then the page keeps its length, padded with the rows that follow, so rows below keep
    /// their place.
    mutating func refill(page index: Int, with items: [Transaction]) {
        guard pages.indices.contains(index) else { return }
        pages[index] = makePage(cursor: pages[index].cursor, items: Array(items.prefix(pages[index].count)))
        reindex()
    }

    // MARK: Lines

    /// The line at `index`: a month's heading or a row; nil past the end.
    func line(at index: Int) -> Line? {
        guard index >= 0, index < lineCount else { return nil }
        let page = Self.lastStart(atOrBefore: index, in: lineStarts)
        let local = index - lineStarts[page]
        var before = 0
        for heading in headings[page] {
            let position = heading.offset + before
            if local == position { return .month(heading.month) }
            if local < position { break }
            before += 1
        }
        return .transaction(starts[page] + local - before)
    }

    /// The line that shows the row of the transaction at `index`; nil past the end.
    func lineIndex(ofTransaction index: Int) -> Int? {
        guard let (page, offset) = locate(index) else { return nil }
        return lineStarts[page] + offset + headings[page].prefix { $0.offset <= offset }.count
    }

    /// The rows shown on `lines`: a heading stands for the row below it, the first of its month.
    func transactionRange(ofLines lines: Range<Int>) -> Range<Int> {
        guard !lines.isEmpty, lineCount > 0 else { return 0..<0 }
        func row(_ line: Int) -> Int {
            let line = min(max(0, line), lineCount - 1)
            if case .transaction(let index)? = self.line(at: line) { return index }
            guard case .transaction(let index)? = self.line(at: line + 1) else { return count - 1 }
            return index
        }
        let first = row(lines.lowerBound), last = row(lines.upperBound - 1)
        return first..<(max(first, last) + 1)
    }

    // MARK: Building

    private func makePage(cursor: String?, items: [Transaction]) -> Page {
        var months: [MonthStart] = []
        var sums: [String: Int64] = [:]
        var overflowed = false
        for (offset, transaction) in items.enumerated() {
            let month = TransactionMonth(transaction.createdAt, in: timeZone)
            if months.last?.month != month { months.append(MonthStart(offset: offset, month: month)) }
            guard !overflowed else { continue }
            let (sum, overflow) = (sums[transaction.amount.currency] ?? 0).addingReportingOverflow(transaction.amount.amountMinor)
            if overflow { overflowed = true } else { sums[transaction.amount.currency] = sum }
        }
        return Page(cursor: cursor, count: items.count, items: items, months: months, totals: overflowed ? nil : sums)
    }

    /// The headings a page of `months` shows after rows ending in `previous`: its first month only when the rows
    /// before it end in another.
    private static func headings(of months: [MonthStart], after previous: TransactionMonth?) -> [MonthStart] {
        guard let first = months.first else { return [] }
        return previous == first.month ? Array(months.dropFirst()) : months
    }

    /// Adds the rows and lines of page `index`, after those of the pages before it.
    private mutating func indexPage(_ index: Int) {
        let page = pages[index]
        starts.append(count)
        lineStarts.append(lineCount)
        headings.append(Self.headings(of: page.months, after: lastMonth))
        count += page.count
        lineCount += page.count + headings[headings.count - 1].count
        lastMonth = page.months.last?.month ?? lastMonth
    }

    /// Works out every page's first row, first line and headings again (after a page in the middle changed).
    private mutating func reindex() {
        count = 0
        lineCount = 0
        lastMonth = nil
        starts.removeAll(keepingCapacity: true)
        lineStarts.removeAll(keepingCapacity: true)
        headings.removeAll(keepingCapacity: true)
        for page in pages.indices { indexPage(page) }
    }

    /// Adds `amounts` to `sums`; false when one would overflow.
    private static func add(_ amounts: [String: Int64], to sums: inout [String: Int64]) -> Bool {
        for (currency, amount) in amounts {
            let (sum, overflow) = (sums[currency] ?? 0).addingReportingOverflow(amount)
            guard !overflow else { return false }
            sums[currency] = sum
        }
        return true
    }

    private func locate(_ index: Int) -> (page: Int, offset: Int)? {
        guard index >= 0, index < count else { return nil }
        let page = Self.lastStart(atOrBefore: index, in: starts)
        return (page, index - starts[page])
    }

    /// The last position in `starts` (ascending, not empty) whose value is at most `index`. Pages left empty (by a
    /// refill) share their start with the next; the last page starting at or before a row holds it.
    private static func lastStart(atOrBefore index: Int, in starts: [Int]) -> Int {
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
