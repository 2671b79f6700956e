import Testing
@testable import TerminalUI

@Suite("List view")
@MainActor
struct ListViewTests {
    @Test("Only the visible rows are asked for, however many rows there are")
    func virtualised() {
        let source = ArrayDataSource(count: 1_000_000)
        let sut = ListView()
        sut.dataSource = source
        let lines = render(sut, width: 20, height: 4, focused: true)
        #expect(lines == [" Row 0", " Row 1", " Row 2", " Row 3"])
        #expect(source.requested == [0, 1, 2, 3])
    }

    @Test("Down past the bottom scrolls; PageDown, PageUp, Home and End jump")
    func movement() {
        let source = ArrayDataSource(count: 100)
        let sut = ListView()
        sut.dataSource = source
        _ = render(sut, width: 20, height: 4, focused: true)
        for _ in 0..<5 { _ = sut.handle(.down) }
        #expect(sut.selectedIndex == 5)
        #expect(render(sut, width: 20, height: 4, focused: true) == [" Row 2", " Row 3", " Row 4", " Row 5"])
        _ = sut.handle(.pageDown)
        #expect(sut.selectedIndex == 9)
        _ = sut.handle(.end)
        #expect(sut.selectedIndex == 99)
        source.resetRequests()
        #expect(render(sut, width: 20, height: 4, focused: true) == [" Row 96", " Row 97", " Row 98", " Row 99"])
        #expect(source.requested == [96, 97, 98, 99])
        _ = sut.handle(.pageUp)
        #expect(sut.selectedIndex == 95)
        _ = sut.handle(.home)
        #expect(sut.selectedIndex == 0)
        _ = sut.handle(.up)
        #expect(sut.selectedIndex == 0)
    }

    @Test("A footer shows after the last row only: off screen while rows remain below, in view on the last row")
    func footer() {
        let source = ArrayDataSource(count: 10)
        let sut = ListView()
        sut.dataSource = source
        sut.footer = "Loading more"
        #expect(render(sut, width: 20, height: 4, focused: true) == [" Row 0", " Row 1", " Row 2", " Row 3"])
        _ = sut.handle(.end)
        #expect(sut.selectedIndex == 9)
        #expect(render(sut, width: 20, height: 4, focused: true) == [" Row 7", " Row 8", " Row 9", " Loading more"])
        sut.footer = nil
        #expect(render(sut, width: 20, height: 4, focused: true) == [" Row 6", " Row 7", " Row 8", " Row 9"])
        let twoRows = ArrayDataSource(count: 2), threeRows = ArrayDataSource(count: 3)
        let short = ListView()
        short.dataSource = twoRows
        short.footer = "Loading more"
        #expect(render(short, width: 20, height: 4, focused: true) == [" Row 0", " Row 1", " Loading more", ""])
        let oneLine = ListView()
        oneLine.dataSource = threeRows
        oneLine.footer = "Loading more"
        _ = oneLine.handle(.end)
        #expect(render(oneLine, width: 20, height: 1, focused: true) == [" Row 2"])
    }

    @Test("The selected row is highlighted, in the focused style only while focused; unfocused not at all when asked")
    func highlight() {
        let sut = ListView()
        let source = ArrayDataSource(count: 3)
        sut.dataSource = source
        _ = sut.handle(.down)
        let theme = Theme.colored()
        #expect(renderBuffer(sut, width: 10, height: 3, focused: true)[0, 1].style == theme.selection)
        #expect(renderBuffer(sut, width: 10, height: 3, focused: false)[0, 1].style == theme.inactiveSelection)
        #expect(renderBuffer(sut, width: 10, height: 3, focused: true)[0, 0].style == theme.text)
        sut.showsSelectionWhenUnfocused = false
        #expect(renderBuffer(sut, width: 10, height: 3, focused: true)[0, 1].style == theme.selection)
        #expect(renderBuffer(sut, width: 10, height: 3, focused: false)[0, 1].style == theme.text)
        #expect(sut.selectedIndex == 1)
    }

    @Test("A detail with its own style (money in) keeps it, underlined when the focus left the selection; the focused selection is one fill")
    func detailStyle() {
        @MainActor final class Amounts: ListViewDataSource {
            func numberOfRows(in listView: ListView) -> Int { 2 }
            func listView(_ listView: ListView, rowAt index: Int) -> ListRow {
                index == 0 ? ListRow("Coffee", detail: "-$3.00") : ListRow("Salary", detail: "+$9.00", detailStyle: .positive)
            }
        }
        let source = Amounts()
        let sut = ListView()
        sut.dataSource = source
        let theme = Theme.colored256()
        let idle = renderBuffer(sut, width: 20, height: 2, focused: true, theme: theme)
        #expect(idle[15, 1].style == theme.positive)
        #expect(idle[15, 0].style == theme.selection)
        _ = sut.handle(.down)
        #expect(renderBuffer(sut, width: 20, height: 2, focused: true, theme: theme)[15, 1].style == theme.selection)
        let left = renderBuffer(sut, width: 20, height: 2, focused: false, theme: theme)
        #expect(left[15, 1].style == theme.positive.adding(.underline))
        #expect(left[1, 1].style == theme.inactiveSelection)
    }

    @Test("The near-end hook fires once per row count, so the next page loads once")
    func nearEnd() {
        let source = ArrayDataSource(count: 20)
        let sut = ListView()
        sut.dataSource = source
        sut.nearEndThreshold = 3
        var calls = 0
        sut.onNearEnd = {
            calls += 1
            source.rows += (20..<40).map { "Row \($0)" }
            sut.reloadData()
        }
        _ = render(sut, width: 20, height: 5)
        for _ in 0..<15 { _ = sut.handle(.down) }
        #expect(calls == 0)
        _ = sut.handle(.down)
        #expect(calls == 1)
        _ = sut.handle(.down)
        #expect(calls == 1)
        #expect(sut.numberOfRows == 40)
        _ = sut.handle(.end)
        #expect(calls == 2)
    }

    @Test("Enter reports the selected row; details sit at the right edge; an empty list says so")
    func selectAndDetail() {
        final class Source: ListViewDataSource {
            func numberOfRows(in listView: ListView) -> Int { 2 }
            func listView(_ listView: ListView, rowAt index: Int) -> ListRow {
                ListRow("Coffee \(index)", detail: "-3.50")
            }
        }
        let source = Source()
        let sut = ListView(emptyText: "No transactions")
        #expect(render(sut, width: 20, height: 2) == ["No transactions", ""])
        sut.dataSource = source
        var opened: Int?
        sut.onSelect = { opened = $0 }
        _ = sut.handle(.down)
        #expect(sut.handle(.enter))
        #expect(opened == 1)
        #expect(render(sut, width: 20, height: 2) == [" Coffee 0     -3.50", " Coffee 1     -3.50"])
    }
}

@Suite("List view and the mouse")
@MainActor
struct ListViewMouseTests {
    private func wheelDown() -> MouseEvent { MouseEvent(.wheelDown, at: Point(x: 0, y: 0)) }

    @Test("Scrolling the wheel to the bottom loads the next page once, though the selection stays up")
    func wheelReachesNearEnd() {
        let source = ArrayDataSource(count: 20)
        let sut = ListView()
        sut.dataSource = source
        sut.nearEndThreshold = 3
        var calls = 0
        sut.onNearEnd = { calls += 1 }
        _ = render(sut, width: 20, height: 4)
        for _ in 0..<4 { #expect(sut.handleMouse(wheelDown())) }
        #expect(sut.scrollOffset == 12)
        #expect(calls == 0)
        _ = sut.handleMouse(wheelDown())
        #expect(sut.scrollOffset == 15)
        #expect(sut.selectedIndex == 15)
        #expect(calls == 1)
        _ = sut.handleMouse(wheelDown())
        #expect(sut.scrollOffset == 16)
        #expect(calls == 1)
        #expect(render(sut, width: 20, height: 4) == [" Row 16", " Row 17", " Row 18", " Row 19"])
    }

    @Test("A click below the last row is taken but changes nothing; an empty list ignores the wheel")
    func clickBelowRows() {
        let sut = ListView()
        #expect(sut.handleMouse(wheelDown()))
        sut.dataSource = ArrayDataSource(count: 2)
        _ = render(sut, width: 20, height: 4)
        #expect(sut.handleMouse(MouseEvent(.press(.left), at: Point(x: 1, y: 3))))
        #expect(sut.selectedIndex == 0)
        #expect(!sut.handleMouse(MouseEvent(.press(.right), at: Point(x: 1, y: 1))))
    }
}
