/// How much room a stacked view gets along the stack's axis.
public enum StackSize: Hashable, Sendable {
    /// Exactly this many cells.
    case fixed(Int)
    /// What the view asks for (`sizeThatFits`).
    case fit
    /// A share of the room left over, by weight.
    case flexible(Int)

    /// A flexible size of weight 1.
    public static let fill = StackSize.flexible(1)
}

/// Lays views out in a column (vertical) or a row (horizontal), each with a fixed, fitting or flexible size.
@MainActor
open class StackView: View {
    /// The direction views are laid out in.
    public enum Axis: Hashable, Sendable {
        case vertical, horizontal
    }

    let axis: Axis
    /// Cells between neighbouring views.
    public var spacing: Int { didSet { setNeedsDisplay() } }
    public private(set) var items: [(view: View, size: StackSize)] = []
    /// Lengths kept for flexible views before fixed and fitted views take their room (see `setMinimum`).
    private var minimums: [ObjectIdentifier: Int] = [:]

    public init(axis: Axis, spacing: Int = 0) {
        self.axis = axis
        self.spacing = spacing
        super.init()
    }

    /// Appends a view with its size rule.
    @discardableResult
    public func add(_ view: View, size: StackSize = .fit) -> View {
        items.append((view, size))
        addSubview(view)
        return view
    }

    /// Changes the size rule of a view already in the stack.
    public func setSize(_ size: StackSize, for view: View) {
        guard let index = items.firstIndex(where: { $0.view === view }) else { return }
        items[index].size = size
        setNeedsDisplay()
    }

    /// Keeps at least `length` cells for a flexible view, however much fixed and fitted views ask for (a list
    /// under a panel that grows with its content keeps some rows).
    public func setMinimum(_ length: Int, for view: View) {
        minimums[ObjectIdentifier(view)] = max(0, length)
        setNeedsDisplay()
    }

    /// Removes a view from the stack.
    public func remove(_ view: View) {
        items.removeAll { $0.view === view }
        minimums[ObjectIdentifier(view)] = nil
        view.removeFromSuperview()
    }

    private func extent(_ size: Size) -> Int { axis == .vertical ? size.height : size.width }
    private func cross(_ size: Size) -> Int { axis == .vertical ? size.width : size.height }
    private func makeSize(along: Int, across: Int) -> Size {
        axis == .vertical ? Size(width: across, height: along) : Size(width: along, height: across)
    }

    /// The lengths along the axis each visible item gets within `total`.
    private func lengths(total: Int, across: Int) -> [Int] {
        let visible = items.filter { !$0.view.isHidden }
        var lengths = [Int](repeating: 0, count: visible.count)
        var remaining = max(0, total - spacing * max(0, visible.count - 1))
        let reserved = min(remaining, visible.reduce(0) { sum, item in
            if case .flexible = item.size { return sum + (minimums[ObjectIdentifier(item.view)] ?? 0) }
            return sum
        })
        var weights = 0
        // Fixed views first, so a fitted view above one cannot take its row; then fitted, then flexible.
        for (i, item) in visible.enumerated() {
            guard case .fixed(let n) = item.size else { continue }
            lengths[i] = min(max(0, n), remaining - reserved)
            remaining -= lengths[i]
        }
        for (i, item) in visible.enumerated() {
            switch item.size {
            case .fixed:
                break
            case .fit:
                let available = remaining - reserved
                let wanted = extent(item.view.sizeThatFits(makeSize(along: available, across: across)))
                lengths[i] = min(max(0, wanted), available)
                remaining -= lengths[i]
            case .flexible(let weight):
                weights += max(1, weight)
            }
        }
        if weights > 0 {
            var leftover = remaining
            var flexibleSeen = 0
            let flexibleCount = visible.filter { if case .flexible = $0.size { return true } else { return false } }.count
            for (i, item) in visible.enumerated() {
                guard case .flexible(let weight) = item.size else { continue }
                flexibleSeen += 1
                let share = flexibleSeen == flexibleCount ? leftover : remaining * max(1, weight) / weights
                lengths[i] = min(max(share, minimums[ObjectIdentifier(item.view)] ?? 0), leftover)
                leftover -= lengths[i]
            }
        }
        return lengths
    }

    open override func layoutSubviews() {
        let across = cross(bounds.size)
        let visible = items.filter { !$0.view.isHidden }
        var position = 0
        for (item, length) in zip(visible, lengths(total: extent(bounds.size), across: across)) {
            item.view.frame = axis == .vertical
                ? Rect(x: 0, y: position, width: across, height: length)
                : Rect(x: position, y: 0, width: length, height: across)
            position += length + spacing
        }
    }

    override func sizeThatFits(_ proposal: Size) -> Size {
        let across = cross(proposal)
        let visible = items.filter { !$0.view.isHidden }
        var along = spacing * max(0, visible.count - 1)
        var widest = 0
        for item in visible {
            let fitted = item.view.sizeThatFits(makeSize(along: extent(proposal), across: across))
            switch item.size {
            case .fixed(let n): along += n
            case .fit, .flexible: along += extent(fitted)
            }
            widest = max(widest, cross(fitted))
        }
        return makeSize(along: min(along, extent(proposal)), across: min(max(widest, 0), across))
    }
}

/// A vertical stack.
@MainActor
open class VStack: StackView {
    public init(spacing: Int = 0) {
        super.init(axis: .vertical, spacing: spacing)
    }
}

/// A horizontal stack.
@MainActor
open class HStack: StackView {
    public init(spacing: Int = 1) {
        super.init(axis: .horizontal, spacing: spacing)
    }
}
