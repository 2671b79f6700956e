/// The `?` overlay: every key of the current screen with its help, in a centred box.
@MainActor
struct HelpOverlay {
    let title: String
    let bindings: [KeyBinding]

    /// The rows shown: key labels and help, duplicates removed.
    var rows: [(keys: String, help: String)] {
        var seen = Set<String>()
        var rows: [(String, String)] = []
        for binding in bindings {
            let identity = binding.keyLabel + "\u{0}" + binding.help
            guard seen.insert(identity).inserted else { continue }
            rows.append((binding.keyLabel, binding.help))
        }
        return rows
    }

    func draw(in canvas: Canvas) {
        let theme = canvas.theme
        let rows = rows
        let keyWidth = rows.map { $0.keys.displayWidth }.max() ?? 0
        let helpWidth = rows.map { $0.help.displayWidth }.max() ?? 0
        let heading = title.isEmpty ? "Keys" : "Keys: \(title)"
        let footer = "Press any key to close"
        let width = min(canvas.size.width - 2, max(keyWidth + helpWidth + 7, heading.displayWidth + 6, footer.displayWidth + 4))
        let height = min(canvas.size.height - 2, rows.count + 4)
        guard width > 4, height > 2 else { return }
        let box = Rect(x: (canvas.size.width - width) / 2, y: (canvas.size.height - height) / 2, width: width, height: height)
        canvas.fill(box, style: theme.text)
        canvas.drawBorder(box, style: theme.focusedBorder, title: heading, titleStyle: theme.title)
        let keyColumn = min(keyWidth, width / 2)
        for (index, row) in rows.enumerated() where index < height - 4 {
            let y = box.minY + 1 + index
            canvas.write(row.keys, x: box.minX + 2, y: y, style: theme.title, maxWidth: keyColumn)
            canvas.write(row.help, x: box.minX + 3 + keyColumn, y: y, style: theme.text, maxWidth: width - keyColumn - 5)
        }
        canvas.write(footer, x: box.minX + 2, y: box.maxY - 2, style: theme.muted, maxWidth: width - 4)
    }
}
