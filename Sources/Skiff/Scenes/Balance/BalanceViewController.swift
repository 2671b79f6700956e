import TerminalUI

@MainActor
protocol BalanceDisplayLogic: AnyObject {
    func displayUpdate(viewModel: Balance.UpdateViewModel)
}

/// Home's header line: the name on the left; the connection, the unread count and the balance on the right.
@MainActor
final class BalanceViewController: SceneViewController, BalanceDisplayLogic, SceneDisplay {
    var interactor: (any BalanceBusinessLogic)?

    private let header = HStack(spacing: 2)
    private let name = Label("", style: .title)
    private let balance = Label("Balance —", style: .title, alignment: .trailing)
    private let unread = Label("", style: .muted, alignment: .trailing)
    private let connection = Label("", style: .errorText, alignment: .trailing)

    init(keys: WalletKeys = .standard) {
        super.init(title: "Balance", keys: keys)
    }

    override func loadView() -> View { header }

    override func viewDidLoad() {
        header.add(name, size: .fill)
        connection.isHidden = true
        header.add(connection, size: .fit)
        unread.isHidden = true
        header.add(unread, size: .fit)
        header.add(balance, size: .fit)
    }

    func displayUpdate(viewModel: Balance.UpdateViewModel) {
        name.text = viewModel.name
        balance.text = viewModel.balance
        unread.text = viewModel.unreadBadge ?? ""
        unread.isHidden = viewModel.unreadBadge == nil
        connection.text = viewModel.connection ?? ""
        connection.isHidden = viewModel.connection == nil
    }
}
