import ArgumentParser

/// `destinations --help`: what the grid takes first (its flags and keys: the command a user
/// runs), the other subcommands after. ArgumentParser's own root help would list the
/// subcommands only and leave every flag of the default command one level down.
enum RootHelp {
    /// True for the arguments that ask for the root help.
    static func isRequested(by arguments: [String]) -> Bool {
        arguments == ["--help"] || arguments == ["-h"] || arguments == ["help"]
    }

    /// The text, for a terminal `columns` wide (ArgumentParser wraps the options to it).
    static func text(columns: Int? = nil) -> String {
        let grid = DestinationsCommand.helpMessage(for: GridCommand.self, columns: columns)
        let options = grid.range(of: "OPTIONS:").map { String(grid[$0.lowerBound...]) } ?? grid
        let abstract = DestinationsCommand.configuration.abstract
        let discussion = GridCommand.configuration.discussion
        let keyWidth = HelpPanel.lines.map(\.0.count).max() ?? 0
        let keys = HelpPanel.lines.map { "  \($0.0.padded(to: keyWidth))  \($0.1)" }
        let others: [any ParsableCommand.Type] = DestinationsCommand.configuration.subcommands
        let nameWidth = others.map { ($0.configuration.commandName ?? "").count }.max() ?? 0
        let subcommands = others.map { command in
            let name = command.configuration.commandName ?? ""
            return "  \(name.padded(to: nameWidth))  \(command.configuration.abstract)"
        }
        return """
        OVERVIEW: \(abstract)

        \(discussion)

        USAGE: destinations [<options>]           the grid (same as destinations grid)
               destinations <subcommand> [<options>]

        \(options.trimmingTrailingNewlines)

        KEYS (in the grid; ? shows them there too):
        \(keys.joined(separator: "\n"))

        ENVIRONMENT:
          COLORTERM=truecolor  24-bit colour (as most terminals set it; TERM=xterm-direct does too)
          NO_COLOR=1           no colour at all (wins over everything else)
          DESTINATIONS_SYNC_OUTPUT=0|1
                               synchronized output off / on (default: ask the terminal)
          DESTINATIONS_PARSE_PACING=0
                               pixels paced by the measured rate only, not by the
                               terminal's answers to CSI c (default: where it answers)

        SUBCOMMANDS:
        \(subcommands.joined(separator: "\n"))

          See 'destinations help <subcommand>' for a subcommand's flags.

        """
    }
}

private extension String {
    func padded(to width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }

    var trimmingTrailingNewlines: String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
