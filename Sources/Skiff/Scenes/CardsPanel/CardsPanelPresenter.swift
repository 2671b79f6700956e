import SkiffCore

@MainActor
protocol CardsPanelPresentationLogic: AnyObject {
    func presentUpdate(response: CardsPanel.Update.Response)
}

/// Words the cards: a masked name, where each came from, its status, and the prompt to activate the Skiff card.
@MainActor
final class CardsPanelPresenter: CardsPanelPresentationLogic, ScenePresentation {
    weak var viewController: (any CardsPanelDisplayLogic)?
    private let formatting: Formatting

    init(formatting: Formatting = Formatting()) {
        self.formatting = formatting
    }

    func presentUpdate(response: CardsPanel.Update.Response) {
        let state = response.state
        viewController?.displayUpdate(viewModel: .init(
            cards: state.cards.map(row),
            emptyText: state.cards.isEmpty && state.isKnown
                ? PromptedText("No cards yet.", prompts: [KeyPrompt(.addCard, "add one")]) : nil
        ))
    }

    /// `Skiff card · expires 11/30` and `Inactive.` with the prompt to activate: the status apart, so that a narrow
    /// line cuts the rest first.
    private func row(_ card: Card) -> CardsPanel.UpdateViewModel.CardRow {
        let needsActivation = card.canBeActivated
        return .init(
            title: card.name,
            summary: formatting.cardOrigin(card),
            status: PromptedText(
                formatting.cardStatus(card) + (needsActivation ? "." : ""),
                prompts: needsActivation ? [KeyPrompt(.activateCard, "activate")] : []
            ),
            needsActivation: needsActivation
        )
    }
}
