import SkiffCore

/// The transactions Home has paged through, kept as pages of which only those near the screen hold their rows:
/// memory stays flat however far a person scrolls (issue 10). A page let go keeps its row count and the cursor
/// that fetched it, so it can be fetched again when the person scrolls back; until then its rows are missing.
struct TransactionWindow: Hashable, Sendable, ExpressibleByArrayLiteral {
    struct Page: Hashable, Sendable {
        /// The cursor this page was fetched with (nil for the first page).
        var cursor: String?
        var count: Int
        /// Nil while let go.
        var items: [Transaction]?
    }

    private(set) var pages: [Page] = []
    /// The cursor of the page after the last one, nil when the last page is the end.
    var nextCursor: String?
    /// The index of each page's first row, for finding a row's page by binary search.
    private var starts: [Int] = []
    /// Rows in all pages, held or not.
    private(set) var count = 0

    /// No transactions yet.
    init() {}

    init(firstPage items: [Transaction], nextCursor: String?) {
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

    /// The transaction at `index`, nil when its page was let go (or past the end).
    subscript(index: Int) -> Transaction? {
        guard index >= 0, let (page, offset) = locate(index) else { return nil }
        return pages[page].items?[offset]
    }

    /// Adds the page fetched with `cursor` after the last one.
    mutating func append(_ items: [Transaction], fetchedWith cursor: String?, next: String?) {
        pages.append(Page(cursor: cursor, count: items.count, items: items))
        starts.append(count)
        count += items.count
        nextCursor = next
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
        pages[0].items = [transaction] + first
        pages[0].count += 1
        for page in starts.indices.dropFirst() { starts[page] += 1 }
        count += 1
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
        pages[index].items = Array(items.prefix(pages[index].count))
        pages[index].count = pages[index].items?.count ?? 0
        count = 0
        for page in pages.indices {
            starts[page] = count
            count += pages[page].count
        }
    }

    private func locate(_ index: Int) -> (page: Int, offset: Int)? {
        guard index >= 0, index < count else { return nil }
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        // Pages left empty by a refill share their start with the next; the last page starting at or before the
        // row holds it.
        return (low, index - starts[low])
    }
}
