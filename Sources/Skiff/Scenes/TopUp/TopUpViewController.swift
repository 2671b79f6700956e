import SkiffCore
import TerminalUI

@MainActor
protocol TopUpDisplayLogic: AnyObject {
    func displayLoad(viewModel: TopUp.Load.ViewModel)
    func displayChooseCard(viewModel: TopUp.ChooseCard.ViewModel)
    func displayValidateField(viewModel: TopUp.ValidateField.ViewModel)
    func displayFormatAmount(viewModel: TopUp.FormatAmount.ViewModel)
    func displaySubmit(viewModel: TopUp.Submit.ViewModel)
    func displayBack(viewModel: TopUp.Back.ViewModel)
}

/// Top up: the added cards (Enter chooses one; those that cannot be used are shown muted, with why), the amount
/// (checked as the person leaves it), the confirmation, the wait for the card's bank (where to confirm, a spinner,
/// Esc stops waiting), the receipt. Esc goes back one stage with what was typed kept.
@MainActor
final class TopUpViewController: SceneViewController, TopUpDisplayLogic, SceneDisplay, ListViewDataSource {
    var interactor: (any TopUpBusinessLogic)?

    let cards = ListView(emptyText: "")
    /// The list in its panel, at a height for a handful of cards.
    private let cardsBox = VStack(spacing: 0)
    private lazy var screen = FormScreen<TopUp.Field>(intro: "", sections: [cardsBox], owner: self)
    /// Takes any character, so what is not a number is refused in words rather than dropped as it is typed.
    let amount = TextField(maxLength: 32)
    /// The account's currency sign before the amount.
    private let currencySign = Label("", style: .muted)
    private lazy var button = screen.makeActionButton("Continue")
    private var rows: [TopUp.Load.ViewModel.Row] = []
    private(set) var stage: TopUp.Stage = .card

    init(keys: WalletKeys = .standard) {
        super.init(title: "Top up", keys: keys)
        cardsBox.add(Panel(title: "Your cards", content: cards), size: .fixed(8))
        bindKeys(for: .card)
    }

    /// Enter's words follow the stage; on the list Enter is the list's (choose the card).
    private func bindKeys(for stage: TopUp.Stage) {
        let enter: String? = switch stage {
        case .card: nil
        case .amount: "continue"
        case .confirm: "add the money"
        case .bank: nil
        case .receipt: "back to Home"
        }
        guard let enter else {
            // Without a card there is nothing for Enter to choose; while the bank is asked, only Esc does anything.
            keyBindings = rows.isEmpty || stage == .bank ? [] : [describe(.submit, "choose card", showsInStatusBar: true)]
            return
        }
        keyBindings = [
            bind(.submit, enter) { [weak self] in self?.screen.submit() },
            // The same as Enter; the banner names it when an answer did not come.
            bind(.retry, showsInStatusBar: false) { [weak self] in self?.screen.submit() },
        ]
    }

    override func viewDidLoad() {
        if let interactor { screen.connect(interactor, form: { [weak self] in self?.form }) }
        screen.addField(.amount, "Amount", amount, row: screen.amountRow(amount, sign: currencySign))
        screen.setRowHidden(true, for: .amount)
        screen.buttons.add(button)
        screen.buttons.isHidden = true
        view.addSubview(screen.view)
        cards.dataSource = self
        cards.openHelp = "choose card"
        cards.onSelect = { [weak self] index in self?.interactor?.chooseCard(request: .init(index: index)) }
        interactor?.load(request: .init())
        focus(cards)
    }

    private var form: TopUp.Form {
        TopUp.Form(amount: amount.text)
    }

    override func escapePressed() {
        interactor?.back(request: .init())
    }

    // MARK: ListViewDataSource

    func numberOfRows(in listView: ListView) -> Int { rows.count }

    func listView(_ listView: ListView, rowAt index: Int) -> ListRow {
        let row = rows[index]
        return ListRow(row.title, detail: row.detail, style: row.isChoosable ? .text : .muted)
    }

    // MARK: Display

    func displayLoad(viewModel: TopUp.Load.ViewModel) {
        screen.intro.text = viewModel.instructions
        currencySign.text = viewModel.currencySign
        rows = viewModel.rows
        cards.reloadData()
        cardsBox.isHidden = rows.isEmpty
        bindKeys(for: stage)
    }

    func displayChooseCard(viewModel: TopUp.ChooseCard.ViewModel) {
        show(viewModel.stage)
        if let instructions = viewModel.instructions { screen.intro.text = instructions }
        screen.show(viewModel.banner)
        if stage == .amount { focus(amount) }
    }

    func displayValidateField(viewModel: TopUp.ValidateField.ViewModel) {
        screen.setError(viewModel.message, for: viewModel.field)
    }

    func displayFormatAmount(viewModel: TopUp.FormatAmount.ViewModel) {
        amount.text = viewModel.text
    }

    func displaySubmit(viewModel: TopUp.Submit.ViewModel) {
        show(viewModel.stage)
        let (activity, consequence) = stage == .bank
            ? ("Waiting…", "it goes on at your bank")
            : ("Adding the money…", "the money may still be added, and a retry never adds it twice")
        screen.display(viewModel.form, activity: activity, escape: .stopsWaiting(consequence: consequence))
        // On the confirmation and the receipt, Enter presses the one button.
        if viewModel.form.focus == nil, !viewModel.form.isBusy, stage == .confirm || stage == .receipt {
            focus(button)
        }
    }

    func displayBack(viewModel: TopUp.Back.ViewModel) {
        show(viewModel.stage)
        screen.intro.text = viewModel.instructions
        screen.show(nil)
        focus(stage == .card ? cards : amount)
    }

    /// Shows what `stage` has: the list of cards; the amount; the confirmation's button; the wait for the bank
    /// (its words only); the receipt's button.
    private func show(_ stage: TopUp.Stage) {
        guard stage != self.stage else { return }
        self.stage = stage
        cardsBox.isHidden = stage != .card || rows.isEmpty
        screen.setRowHidden(stage != .amount, for: .amount)
        screen.buttons.isHidden = stage == .card || stage == .bank
        if stage != .confirm { screen.confirmation.hide() }
        bindKeys(for: stage)
        button.title = switch stage {
        case .card, .amount: "Continue"
        case .confirm: "Add money"
        case .bank: "Continue"
        case .receipt: "Done"
        }
    }
}
