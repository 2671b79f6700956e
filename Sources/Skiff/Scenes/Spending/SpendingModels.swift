import SkiffCore

/// Home's Spending panel: this month's spending by category against the same days of the month before, loaded
/// while the panel is shown; Enter on a category lists its transactions.
enum Spending {
    /// Everything the Interactor knows; each flow answers with the whole of it.
    struct State: Hashable, Sendable {
        var spending: MonthlySpending?
        /// Whether the person wants the panel (remembered between runs).
        var isShown: Bool
        var isLoading = false
        var error: NetworkError?
    }

    /// The panel came on screen, or `r` on Home: this month's spending is asked for, if the panel is wanted.
    enum Load {
        struct Request: Sendable {}
    }
    /// `g` on Home: shows or hides the panel, remembered between runs.
    enum Toggle {
        struct Request: Sendable {}
    }
    /// Enter on a category: its transactions in the panel's month.
    enum SelectCategory {
        typealias Request = RowRequest
    }
    /// The live stream: once it reaches the server again, a load that failed meanwhile is tried again.
    enum Live {
        struct Request: Sendable {
            var update: LiveUpdate
            init(update: LiveUpdate) { self.update = update }
        }
    }
    /// The person is logging out: nothing more is asked for.
    enum Stop {
        struct Request: Sendable {}
    }

    /// What the screen shows of the state.
    struct UpdateViewModel: Hashable, Sendable {
        struct Bar: Hashable, Sendable {
            var category: String
            /// The bar's length, against the other bars.
            var value: Double
            var amount: String
        }

        var isShown: Bool
        /// `Spending · November`.
        var title: String
        var bars: [Bar]
        /// `Spent $1,332.40 · 12% more than October 1–22 ($1,189.00)`.
        var summary: String
        /// Shown in place of the bars when there are none.
        var emptyText: String?
    }

    /// What every flow presents: the whole state.
    typealias Update = StateUpdate<State, UpdateViewModel>
}
