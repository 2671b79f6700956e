import SkiffCore

/// Top up: money added to the wallet from one of the added cards, in stages: the card (frozen and expired ones
/// shown but not chosen), the amount, the confirmation, the wait for the card's bank when it asks its holder to
/// confirm the payment (3-D Secure), the receipt.
enum TopUp {
    enum Stage: Hashable, Sendable { case card, amount, confirm, bank, receipt }

    /// The form's fields. The raw value is the field's name as the workers give a field the server refuses, so
    /// the refusal lands on it.
    enum Field: String, Hashable, Sendable, CaseIterable {
        case amount
    }

    /// What the form holds when a request is made.
    struct Form: Hashable, Sendable, Redacted {
        var amount: String

        init(amount: String = "") {
            self.amount = amount
        }
    }

    /// A card on the list, and why it cannot be chosen (nil when it can).
    struct Choice: Hashable, Sendable {
        var card: Card
        var refusal: TopUpSource.Refusal?
    }

    /// Opening the screen: the added cards, each with why it cannot be chosen, and the balance.
    enum Load {
        struct Request: Sendable {}
        struct Response: Sendable {
            var choices: [Choice]
            var balance: Money
        }
        struct ViewModel: Hashable, Sendable {
            struct Row: Hashable, Sendable {
                /// `Visa •••• 4242`.
                var title: String
                /// `Added card · expires 04/29`, or why it cannot be chosen.
                var detail: String
                var isChoosable: Bool
            }
            var instructions: String
            var rows: [Row]
            /// The sign before the amount's field (`$`): the account's currency.
            var currencySign: String
        }
    }

    /// Enter on a card of the list: chosen (on to the amount), or refused with the reason.
    enum ChooseCard {
        typealias Request = RowRequest
        struct Response: Sendable { var choice: Choice }
        struct ViewModel: Hashable, Sendable {
            var stage: Stage
            var instructions: String?
            var banner: BannerMessage?
        }
    }

    typealias ValidateField = FieldValidation<Field, Form>

    /// An amount the person left that can be added, written back into its field as the app writes amounts.
    enum FormatAmount {
        struct Response: Sendable { var amount: Money }
        struct ViewModel: Hashable, Sendable { var text: String }
    }

    /// What the person is asked to confirm.
    struct Confirmation: Hashable, Sendable {
        var card: Card
        var amount: Money
    }

    /// What Enter came to when it went through: the amount to confirm, the card's bank asking its holder to confirm
    /// the payment (the app waits for it, until Esc), or the money added.
    enum Done: Sendable, Redacted {
        case confirm(Confirmation)
        case waitingForBank(PendingTopUp, for: Confirmation)
        /// Esc while waiting for the bank: the app stopped asking; the top-up goes on there.
        case stoppedWaiting(for: Confirmation)
        case added(AddedMoney)
    }

    typealias Submit = StagedFormSubmit<Form, Field, Done, Stage>

    /// What a stage's words are made of besides the stage: the balance (the list's words) and the card chosen
    /// (the amount's).
    struct StageFacts: Sendable {
        var balance: Money
        var card: Card?
    }

    /// Esc: cancel a running request; else one stage back (the amount kept as typed), from the list (or the
    /// receipt) away.
    typealias Back = StagedFormBack<Stage, StageFacts>
}
