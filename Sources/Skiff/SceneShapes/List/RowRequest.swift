/// A key on the selected row of a list (Enter to open it, a key that changes it): the row's index among the rows
/// shown.
struct RowRequest: Sendable {
    var index: Int
    init(index: Int) { self.index = index }
}
