/// A single-line text input with a cursor, editing keys, horizontal scrolling, a maximum length, an
/// input filter and an optional display formatter.
///
/// Keys: ←/→ (Ctrl-B/F) move, Home/End (Ctrl-A/E), Backspace, Delete (Ctrl-D), Ctrl-U deletes to the start,
/// Ctrl-K to the end, Ctrl-W the word before the cursor; Enter calls `onSubmit` when set. `?` is left to the screen
/// (help, on every screen); Ctrl-V then `?` types it.
@MainActor
open class TextField: View {
    /// The characters, kept in place so that `SecureField` can wipe them.
    var storage: [Character] = []
    /// The cursor, as an offset into the raw text (0...count).
    public private(set) var cursor = 0
    /// Ctrl-V was pressed: the next character is typed even when it is a key the kit answers (`?`).
    public private(set) var typesNextLiterally = false
    /// The first display column shown (horizontal scroll).
    private(set) var scrollOffset = 0

    /// Shown dimmed while the field is empty.
    public var placeholder: String { didSet { setNeedsDisplay() } }
    /// The most characters the field accepts.
    public var maxLength: Int?
    /// Which typed or pasted characters are accepted (e.g. digits only).
    public var inputFilter: (@Sendable (Character) -> Bool)?
    /// Groups the text for display; the raw text stays unformatted.
    public var formatter: TextFormatter? { didSet { setNeedsDisplay() } }
    /// Called with the raw text after every change.
    public var onChange: (@MainActor (String) -> Void)?
    /// Called when Enter is pressed; when nil, Enter is left to the screen.
    public var onSubmit: (@MainActor () -> Void)?
    /// Disabled fields are skipped by focus.
    public var isEnabled = true { didSet { setNeedsDisplay() } }
    /// Whether the text is a secret (a password, a code, a card number) that `clearSecrets()` empties.
    public var isSecret = false
    /// When set, the field shows only this many of its last characters while it is not focused, the rest as
    /// bullets (a card number reads `•••• •••• •••• 4242` once the person has moved on).
    public var visibleSuffixWhenUnfocused: Int? { didSet { setNeedsDisplay() } }

    public init(text: String = "", placeholder: String = "", maxLength: Int? = nil) {
        self.placeholder = placeholder
        self.maxLength = maxLength
        super.init()
        storage.reserveCapacity(max(64, maxLength ?? 0))
        insert(text, notify: false)
    }

    /// Accepts only the digits 0–9.
    public static let digitsOnly: @Sendable (Character) -> Bool = { $0.isASCII && $0.isNumber }

    /// The raw text (without formatting); setting it puts the cursor at the end.
    public var text: String {
        get { String(storage) }
        set {
            removeCharacters(0..<storage.count)
            cursor = 0
            insert(newValue, notify: false)
            onChange?(text)
            setNeedsDisplay()
        }
    }

    /// Whether the field has no text.
    public var isEmpty: Bool { storage.isEmpty }

    /// Empties the field.
    public func clear() {
        text = ""
    }

    open override var canFocus: Bool { isEnabled }

    open override var keyBindings: [KeyBinding] {
        [
            KeyBinding([.left, .ctrl("b")], "move left") { [weak self] in self?.moveCursor(to: (self?.cursor ?? 0) - 1) },
            KeyBinding([.right, .ctrl("f")], "move right") { [weak self] in self?.moveCursor(to: (self?.cursor ?? 0) + 1) },
            KeyBinding([.home, .ctrl("a")], "start of line") { [weak self] in self?.moveCursor(to: 0) },
            KeyBinding([.end, .ctrl("e")], "end of line") { [weak self] in self?.moveCursor(to: self?.storage.count ?? 0) },
            KeyBinding([.backspace], "delete before cursor") { [weak self] in self?.deleteBackward() },
            KeyBinding([.delete, .ctrl("d")], "delete at cursor") { [weak self] in self?.deleteForward() },
            KeyBinding([.ctrl("u")], "delete to start") { [weak self] in self?.deleteToStart() },
            KeyBinding([.ctrl("k")], "delete to end") { [weak self] in self?.deleteToEnd() },
            KeyBinding([.ctrl("w")], "delete word before cursor") { [weak self] in self?.deleteWordBackward() },
            .described([KitKeys.literalNext], "then ?: type a question mark (any key as it is)"),
        ]
    }

    open override func handle(_ key: Key) -> Bool {
        if typesNextLiterally {
            typesNextLiterally = false
            if case .character(let character) = key {
                insert(String(character), notify: true)
                return true
            }
        }
        switch key {
        case KitKeys.literalNext:
            typesNextLiterally = true
            return true
        case KitKeys.helpQuestionMark:
            // Help, as on every screen; Ctrl-V first types it.
            return false
        case .character(let character):
            insert(String(character), notify: true)
            return true
        case .paste(let text):
            insert(text.replacingNewlines(), notify: true)
            return true
        case .enter:
            guard let onSubmit else { return false }
            onSubmit()
            return true
        default:
            return keyBindings.dispatch(key)
        }
    }

    /// Moves the cursor to a raw offset (clamped).
    func moveCursor(to offset: Int) {
        cursor = min(max(0, offset), storage.count)
        setNeedsDisplay()
    }

    /// Inserts text at the cursor, keeping only what the filter accepts and what fits.
    public func insert(_ text: String) {
        insert(text, notify: true)
    }

    private func insert(_ text: String, notify: Bool) {
        var changed = false
        for character in text {
            guard DisplayWidth.of(character) > 0 else { continue }
            if let inputFilter, !inputFilter(character) { continue }
            if let maxLength, storage.count >= maxLength { break }
            insertCharacter(character, at: cursor)
            cursor += 1
            changed = true
        }
        if changed {
            if notify { onChange?(self.text) }
            setNeedsDisplay()
        }
    }

    /// Deletes the character before the cursor.
    func deleteBackward() {
        guard cursor > 0 else { return }
        removeCharacters((cursor - 1)..<cursor)
        cursor -= 1
        edited()
    }

    /// Deletes the character under the cursor.
    func deleteForward() {
        guard cursor < storage.count else { return }
        removeCharacters(cursor..<(cursor + 1))
        edited()
    }

    /// Deletes from the start to the cursor.
    func deleteToStart() {
        guard cursor > 0 else { return }
        removeCharacters(0..<cursor)
        cursor = 0
        edited()
    }

    /// Deletes from the cursor to the end.
    func deleteToEnd() {
        guard cursor < storage.count else { return }
        removeCharacters(cursor..<storage.count)
        edited()
    }

    /// Deletes the word before the cursor (and the spaces between it and the cursor).
    func deleteWordBackward() {
        var start = cursor
        while start > 0 && storage[start - 1] == " " { start -= 1 }
        while start > 0 && storage[start - 1] != " " { start -= 1 }
        guard start < cursor else { return }
        removeCharacters(start..<cursor)
        cursor = start
        edited()
    }

    private func edited() {
        onChange?(text)
        setNeedsDisplay()
    }

    // MARK: Storage that never leaves copies behind

    private func insertCharacter(_ character: Character, at index: Int) {
        if storage.count == storage.capacity {
            var grown: [Character] = []
            grown.reserveCapacity(storage.capacity * 2)
            grown.append(contentsOf: storage)
            wipeStorage()
            storage = grown
        }
        storage.insert(character, at: index)
    }

    /// Removes characters by shifting the rest down and overwriting the freed slots before they go.
    func removeCharacters(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        let count = range.count
        var i = range.lowerBound
        while i + count < storage.count {
            storage[i] = storage[i + count]
            i += 1
        }
        for j in (storage.count - count)..<storage.count {
            storage[j] = "\0"
        }
        storage.removeLast(count)
    }

    /// Overwrites every stored character, then empties the storage.
    func wipeStorage() {
        for i in storage.indices {
            storage[i] = "\0"
        }
        storage.removeAll(keepingCapacity: true)
    }

    // MARK: Display

    /// The characters shown in place of the raw text (bullets in `SecureField`, and before the visible
    /// suffix of an unfocused field that has one).
    func displayCharacters(glyphs: Glyphs) -> [Character] {
        guard let kept = visibleSuffixWhenUnfocused, !isFocused, storage.count > kept else { return storage }
        return Array(repeating: Character(glyphs.bullet), count: storage.count - max(0, kept)) + storage.suffix(max(0, kept))
    }

    /// The display text and the cursor's display column.
    func displayLayout(glyphs: Glyphs) -> (text: String, cursorColumn: Int) {
        let shown = displayCharacters(glyphs: glyphs)
        let raw = String(shown)
        guard let formatter else {
            let column = DisplayWidth.of(String(shown[0..<cursor]))
            return (raw, column)
        }
        let boundaries = formatter.boundaries(for: raw)
        let separatorWidth = formatter.separator.displayWidth
        var column = DisplayWidth.of(String(shown[0..<cursor]))
        column += boundaries.filter { $0 <= cursor && $0 < shown.count }.count * separatorWidth
        return (formatter.format(raw), column)
    }

    /// What the field shows right now at a width: the visible slice of the text (for tests and hints).
    func visibleText(width: Int, glyphs: Glyphs = .unicode) -> String {
        let (display, cursorColumn) = displayLayout(glyphs: glyphs)
        let offset = Self.scroll(current: scrollOffset, cursorColumn: cursorColumn, width: width)
        return Self.slice(display, from: offset, width: width)
    }

    private static func scroll(current: Int, cursorColumn: Int, width: Int) -> Int {
        guard width > 0 else { return 0 }
        if cursorColumn < current { return cursorColumn }
        if cursorColumn >= current + width { return cursorColumn - width + 1 }
        return current
    }

    private static func slice(_ text: String, from offset: Int, width: Int) -> String {
        var result = ""
        var column = 0
        for character in text {
            let w = DisplayWidth.of(character)
            defer { column += w }
            if column < offset { continue }
            if column + w > offset + width { break }
            result.append(character)
        }
        return result
    }

    override func sizeThatFits(_ proposal: Size) -> Size {
        Size(width: proposal.width, height: 1)
    }

    open override func draw(in canvas: Canvas) {
        let theme = canvas.theme
        let width = canvas.size.width
        guard width > 0 else { return }
        let fieldStyle = !isEnabled ? theme.muted : isFocused ? theme.focusedField : theme.field
        canvas.fill(Rect(x: 0, y: 0, width: width, height: 1), style: fieldStyle)
        if storage.isEmpty && !placeholder.isEmpty {
            canvas.write(placeholder, x: 0, y: 0, style: fieldStyle.adding(.dim), maxWidth: width)
        }
        let (display, cursorColumn) = displayLayout(glyphs: theme.glyphs)
        scrollOffset = Self.scroll(current: scrollOffset, cursorColumn: cursorColumn, width: width)
        var column = 0
        for character in display {
            let w = DisplayWidth.of(character)
            defer { column += w }
            if column < scrollOffset { continue }
            if column + w > scrollOffset + width { break }
            canvas.write(String(character), x: column - scrollOffset, y: 0, style: fieldStyle)
        }
        if isFocused {
            let x = cursorColumn - scrollOffset
            canvas.restyle(Rect(x: x, y: 0, width: 1, height: 1)) { _ in theme.cursor }
        }
    }
}

/// A text field that shows bullets instead of what was typed and wipes its storage when cleared.
///
/// It shows what was typed only while the person asks (`toggleRevealed()`, on a key the app binds): the bullets come
/// back on the next toggle, when the field loses the focus (another field, another screen, a lock covering it), when
/// it is cleared, and with `clearSecrets()`.
@MainActor
open class SecureField: TextField {
    /// Whether the typed characters are shown as they are.
    public private(set) var isRevealed = false {
        didSet { if isRevealed != oldValue { setNeedsDisplay() } }
    }

    public override init(text: String = "", placeholder: String = "", maxLength: Int? = nil) {
        super.init(text: text, placeholder: placeholder, maxLength: maxLength)
        isSecret = true
    }

    override func displayCharacters(glyphs: Glyphs) -> [Character] {
        isRevealed ? storage : Array(repeating: Character(glyphs.bullet), count: storage.count)
    }

    /// Shows what was typed, or hides it again; only while the field has the focus (the person is looking at it).
    public func toggleRevealed() {
        isRevealed = isFocused && !isRevealed
    }

    /// Shows bullets again.
    public func conceal() {
        isRevealed = false
    }

    override func focusDidChange() {
        if !isFocused { conceal() }
    }

    /// Overwrites the stored characters and empties the field.
    public override func clear() {
        wipeStorage()
        moveCursor(to: 0)
        conceal()
        onChange?("")
        setNeedsDisplay()
    }

    open override var keyBindings: [KeyBinding] {
        super.keyBindings.filter { !$0.keys.contains(.ctrl("w")) } + [
            KeyBinding([.ctrl("w")], "delete to start") { [weak self] in self?.deleteToStart() },
        ]
    }
}

extension ViewController {
    /// Shows the password in the focused `SecureField`, or hides it again; nothing when the focus is elsewhere.
    public func toggleFocusedSecureField() {
        (focusedView as? SecureField)?.toggleRevealed()
    }
}

extension View {
    /// Empties every secret text field in this view's tree, and hides a password shown (before a lock covers the
    /// screen, say).
    public func clearSecrets() {
        (self as? SecureField)?.conceal()
        if let field = self as? TextField, field.isSecret, !field.isEmpty {
            field.clear()
        }
        for subview in subviews {
            subview.clearSecrets()
        }
    }
}

extension String {
    func replacingNewlines() -> String {
        var result = ""
        for character in self {
            result.append(character.isNewline ? " " : character)
        }
        return result
    }
}
