import Testing
@testable import TerminalUI

/// Rows some of which are headings: they cannot be selected.
@MainActor
final class HeadedRows: ListViewDataSource {
    let rows: [String]
    let headings: Set<Int>

    init(_ rows: [String]) {
        self.rows = rows
        headings = Set(rows.indices.filter { rows[$0].hasPrefix("#") })
    }

    func numberOfRows(in listView: ListView) -> Int { rows.count }
    func listView(_ listView: ListView, rowAt index: Int) -> ListRow { ListRow(rows[index]) }
    func listView(_ listView: ListView, canSelectRowAt index: Int) -> Bool { !headings.contains(index) }
}

@Suite("List view: rows that cannot be selected")
@MainActor
struct ListViewHeadingTests {
    let source = HeadedRows(["# Nov", "a", "b", "# Oct", "c", "d", "e", "f", "# Sep", "g"])

    func makeSUT() -> ListView {
        let sut = ListView()
        sut.dataSource = source
        _ = render(sut, width: 20, height: 4, focused: true)
        return sut
    }

    @Test("the selection starts on the first row that can be selected and steps over headings both ways")
    func stepsOverHeadings() {
        let sut = makeSUT()
        #expect(sut.selectedIndex == 1)
        var visited: [Int?] = []
        for _ in 0..<4 {
            _ = sut.handle(.down)
            visited.append(sut.selectedIndex)
        }
        #expect(visited == [2, 4, 5, 6])
        for _ in 0..<3 { _ = sut.handle(.up) }
        #expect(sut.selectedIndex == 2)
        _ = sut.handle(.home)
        #expect(sut.selectedIndex == 1)
        _ = sut.handle(.end)
        #expect(sut.selectedIndex == 9)
        sut.select(8)
        #expect(sut.selectedIndex == 9, "a heading asked for gives way to the row it heads")
    }

    @Test("going up to a month's first row brings its heading into view")
    func headingComesWithItsRow() {
        let sut = makeSUT()
        _ = sut.handle(.end)
        #expect(render(sut, width: 20, height: 4, focused: true) == [" e", " f", " # Sep", " g"])
        for _ in 0..<4 { _ = sut.handle(.up) }
        #expect(sut.selectedIndex == 4)
        #expect(render(sut, width: 20, height: 4, focused: true) == [" # Oct", " c", " d", " e"])
        _ = sut.handle(.home)
        _ = sut.handle(.up)
        #expect(render(sut, width: 20, height: 4, focused: true).first == " # Nov")
    }

    @Test("a click on a heading is a click on the row below it: a second click opens that row")
    func clickOnHeading() {
        let sut = makeSUT()
        var opened: [Int] = []
        sut.onSelect = { opened.append($0) }
        _ = sut.handleMouse(MouseEvent(.press(.left), at: Point(x: 1, y: 3)))
        #expect(sut.selectedIndex == 4)
        _ = sut.handleMouse(MouseEvent(.press(.left), at: Point(x: 1, y: 3)))
        #expect(opened == [4])
    }

    @Test("the wheel keeps the selection on a row that can be selected")
    func wheel() {
        let sut = makeSUT()
        _ = sut.handleMouse(MouseEvent(.wheelDown, at: Point(x: 0, y: 0)))
        #expect(sut.scrollOffset == 3)
        #expect(sut.selectedIndex == 4, "the heading at the top gives way to the row below it")
    }
}
