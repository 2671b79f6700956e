import Foundation

/// A man page in man(7) roff, written from a program's own table of options so that it cannot disagree with
/// `--help` (`skiff --generate-man`, `skiff-server --generate-man`).
public struct ManPage: Sendable {
    /// One option: its names (`--port`, `-h`), its value's placeholder, and what it does.
    public struct Entry: Sendable, Equatable {
        public var names: [String]
        public var valueName: String?
        public var help: String

        public init(names: [String], valueName: String?, help: String) {
            self.names = names
            self.valueName = valueName
            self.help = help
        }
    }

    /// A section: a title and its paragraphs and option lists.
    public enum Block: Sendable {
        case paragraph(String)
        case options([Entry])
        /// A subsection's title (a subcommand).
        case subsection(String)
        /// A literal example, kept as written.
        case example(String)
    }

    public var name: String
    public var section: Int
    public var version: String
    public var summary: String
    public var synopsis: [String]
    public var sections: [(title: String, blocks: [Block])]

    public init(name: String, section: Int = 1, version: String, summary: String, synopsis: [String], sections: [(title: String, blocks: [Block])]) {
        self.name = name
        self.section = section
        self.version = version
        self.summary = summary
        self.synopsis = synopsis
        self.sections = sections
    }

    /// The page as roff.
    public var roff: String {
        var lines = [
            ".TH \(Self.quoted(name.uppercased())) \(section) \"\" \(Self.quoted("\(name) \(version)")) \"User Commands\"",
            ".SH NAME",
            "\(Self.escaped(name)) \\- \(Self.escaped(summary))",
            ".SH SYNOPSIS",
        ]
        for (index, line) in synopsis.enumerated() {
            if index > 0 { lines.append(".br") }
            lines.append(".B \(Self.escaped(name))")
            lines.append(Self.escaped(line))
        }
        for (title, blocks) in sections {
            lines.append(".SH \(Self.escaped(title.uppercased()))")
            for block in blocks {
                switch block {
                case .paragraph(let text):
                    lines += [".PP", Self.escaped(text)]
                case .subsection(let title):
                    lines += [".SS \(Self.escaped(title))"]
                case .example(let text):
                    lines += [".PP", ".nf", ".RS 4"] + text.split(separator: "\n", omittingEmptySubsequences: false).map { Self.escaped(String($0)) } + [".RE", ".fi"]
                case .options(let entries):
                    for entry in entries {
                        let names = entry.names.map { "\\fB\(Self.escaped($0))\\fR" }.joined(separator: ", ")
                        lines += [".TP", names + (entry.valueName.map { " \\fI\(Self.escaped($0))\\fR" } ?? ""), Self.escaped(entry.help)]
                    }
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every long option the page describes (`--port`), in order, for the tests that hold it to the table.
    public var optionNames: [String] {
        sections.flatMap(\.blocks).flatMap { block -> [String] in
            if case .options(let entries) = block { return entries.flatMap(\.names) }
            return []
        }
    }

    /// `text` safe in roff: backslashes doubled, hyphens as `\-`, a leading `.` or `'` guarded.
    public static func escaped(_ text: String) -> String {
        var result = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }

    static func quoted(_ text: String) -> String { "\"" + escaped(text).replacingOccurrences(of: "\"", with: "\\(dq") + "\"" }
}
