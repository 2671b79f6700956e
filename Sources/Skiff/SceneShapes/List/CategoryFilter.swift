import SkiffCore

/// One category of one month, as the Spending panel shows them: the transactions a list keeps when the person picks
/// it. The server is searched for the category's name (the contract has no filter for a category or a month), so
/// the list keeps, of the rows it answers, only those in the category and the month.
struct CategoryFilter: Hashable, Sendable {
    var name: String
    /// `2026-11`, in UTC as the server counts spending.
    var month: String

    /// The rows of a page to keep, with the cursor of the next page, or nil once the rows have gone past the month
    /// (they come newest first: none after can be in it).
    func keep(_ items: [Transaction], next: String?) -> (items: [Transaction], next: String?) {
        guard let instants = CalendarMonth(month)?.instants else { return (items.filter { $0.category == name }, next) }
        let kept = items.filter { $0.category == name && instants.contains($0.createdAt) }
        let pastMonth = items.last.map { $0.createdAt < instants.lowerBound } ?? false
        return (kept, pastMonth ? nil : next)
    }
}
