/// One item in full, as a detail screen shows it: what a detail scene's Presenter hands its screen (Card detail,
/// Transaction detail).
struct DetailContent: Hashable, Sendable {
    struct Row: Hashable, Sendable {
        var label: String
        var value: String
    }

    /// The breadcrumb's title.
    var title: String
    /// The panel's first line: the card's name, the transaction's amount.
    var heading: String
    var rows: [Row]
    /// What the person can do about the item elsewhere, or nil.
    var hint: String?
    /// The heading is money received (a credit), not money spent.
    var isIncoming: Bool

    init(title: String, heading: String, rows: [Row], hint: String? = nil, isIncoming: Bool = false) {
        self.title = title
        self.heading = heading
        self.rows = rows
        self.hint = hint
        self.isIncoming = isIncoming
    }
}
