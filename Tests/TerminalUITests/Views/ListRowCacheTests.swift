import Testing
@testable import TerminalUI

/// Rows with an id and a text; each row's identity is both, and every row made is counted by its id.
@MainActor
private final class IdentifiedRows: ListViewDataSource {
    struct Item: Hashable {
        var id: Int
        var text: String
    }

    var items: [Item]
    /// Whether rows are given an identity (and so kept by the list).
    var givesIdentities = true
    /// The id of every row made, in order.
    private(set) var made: [Int] = []

    init(count: Int) {
        items = (0..<count).map { Item(id: $0, text: "Item \($0)") }
    }

    func numberOfRows(in listView: ListView) -> Int { items.count }

    func listView(_ listView: ListView, rowAt index: Int) -> ListRow {
        made.append(items[index].id)
        return ListRow(items[index].text)
    }

    func listView(_ listView: ListView, rowIdentityAt index: Int) -> AnyHashable? {
        givesIdentities ? AnyHashable(items[index]) : nil
    }

    func take() -> [Int] {
        defer { made.removeAll() }
        return made
    }
}

@Suite("List row cache")
@MainActor
struct ListRowCacheTests {
    @Test("A row with an identity is made once: drawing it again, or after scrolling away and back, asks for nothing")
    func madeOnce() {
        let source = IdentifiedRows(count: 100)
        let sut = ListView()
        sut.dataSource = source
        #expect(render(sut, width: 20, height: 4) == [" Item 0", " Item 1", " Item 2", " Item 3"])
        #expect(source.take() == [0, 1, 2, 3])
        _ = render(sut, width: 20, height: 4)
        #expect(source.take().isEmpty)
        _ = sut.handle(.pageDown)
        #expect(render(sut, width: 20, height: 4) == [" Item 1", " Item 2", " Item 3", " Item 4"])
        #expect(source.take() == [4])
        _ = sut.handle(.home)
        #expect(render(sut, width: 20, height: 4) == [" Item 0", " Item 1", " Item 2", " Item 3"])
        #expect(source.take().isEmpty)
    }

    @Test("Without identities every frame asks for its rows, and preparing rows asks for none")
    func withoutIdentities() {
        let source = IdentifiedRows(count: 100)
        source.givesIdentities = false
        let sut = ListView()
        sut.dataSource = source
        _ = render(sut, width: 20, height: 4)
        _ = render(sut, width: 20, height: 4)
        #expect(source.take() == [0, 1, 2, 3, 0, 1, 2, 3])
        sut.prepareRowsAround(screens: 1)
        #expect(source.take().isEmpty)
    }

    @Test("After a reload, rows that moved are found by identity; a changed row is made again")
    func reloadKeepsRowsThatMoved() {
        let source = IdentifiedRows(count: 10)
        let sut = ListView()
        sut.dataSource = source
        _ = render(sut, width: 20, height: 4)
        _ = source.take()
        source.items.insert(.init(id: 100, text: "New"), at: 0)
        source.items[2].text = "Item 1 renamed"
        sut.reloadData()
        #expect(render(sut, width: 20, height: 4) == [" New", " Item 0", " Item 1 renamed", " Item 2"])
        #expect(source.take() == [100, 1], "only the new row and the changed one are made")
        sut.forgetCachedRows()
        _ = render(sut, width: 20, height: 4)
        #expect(source.take() == [100, 0, 1, 2], "every row is made again once the rows are forgotten")
    }

    @Test("Preparing rows makes those a screen either way, so a step or a page only draws kept rows")
    func prepareAround() {
        let source = IdentifiedRows(count: 100)
        let sut = ListView()
        sut.dataSource = source
        _ = render(sut, width: 20, height: 4)
        _ = source.take()
        sut.prepareRowsAround(screens: 1)
        #expect(source.take() == [4, 5, 6, 7])
        sut.prepareRowsAround(screens: 1)
        #expect(source.take().isEmpty, "already kept")
        _ = sut.handle(.pageDown)
        _ = sut.handle(.pageDown)
        #expect(render(sut, width: 20, height: 4) == [" Item 5", " Item 6", " Item 7", " Item 8"])
        #expect(source.take() == [8])
        sut.prepareRowsAround(screens: 1)
        #expect(source.take() == [9, 10, 11, 12])
    }

    @Test("Past the limit, rows more than two screens from the visible ones are let go, and made again when shown")
    func trimmed() {
        let source = IdentifiedRows(count: 1000)
        let sut = ListView()
        sut.rowCacheLimit = 50
        sut.dataSource = source
        _ = render(sut, width: 20, height: 5)
        for _ in 0..<20 {
            _ = sut.handle(.pageDown)
            _ = render(sut, width: 20, height: 5)
        }
        // Down to rows 96…100, each made once; on the way, each fiftieth kept row let go of those beyond two screens.
        #expect(sut.visibleRows == 96..<101)
        #expect(source.take() == Array(0..<101))
        _ = sut.handle(.pageUp)
        _ = render(sut, width: 20, height: 5)
        #expect(source.take().isEmpty, "a row near the screen is still kept")
        _ = sut.handle(.home)
        _ = render(sut, width: 20, height: 5)
        #expect(source.take() == [0, 1, 2, 3, 4], "rows far from the screen were let go and are made again")
    }
}
