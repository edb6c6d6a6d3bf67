/// Which terminfo entry ncurses starts with: TERM's own, or a direct-colour variant of it
/// when `COLORTERM` says the terminal takes 24-bit colour.
///
/// Most terminals that take 24-bit colour say so in `COLORTERM=truecolor` (or `24bit`) and
/// keep `TERM=xterm-256color`, whose terminfo entry knows 256 colours only; chafa and
/// notcurses read `COLORTERM` for that reason. ncurses sends 24-bit colour only for an
/// entry with the `RGB` flag, so the app starts ncurses with the matching `-direct` entry
/// (`xterm-direct`, `tmux-direct`, `kitty-direct` …) when terminfo has one, and leaves TERM
/// itself alone. `NO_COLOR` still wins: no colour at all.
public enum TerminfoChoice {
    /// The entry to start with.
    /// - Parameters:
    ///   - term: `TERM`.
    ///   - colorTerm: `COLORTERM`, if set.
    ///   - insideTmux: `TMUX` is set (tmux takes 24-bit colour whatever TERM it gives).
    ///   - noColor: `NO_COLOR` is set and not empty.
    ///   - exists: whether terminfo has an entry of that name.
    public static func entry(term: String, colorTerm: String?, insideTmux: Bool, noColor: Bool,
                             exists: (String) -> Bool) -> String {
        guard !noColor, let colorTerm, ["truecolor", "24bit"].contains(colorTerm.lowercased()),
              !term.isEmpty, !term.contains("direct") else { return term }
        return directVariants(of: term, insideTmux: insideTmux).first(where: exists) ?? term
    }

    /// Candidate direct-colour entries for `term`, most specific first.
    static func directVariants(of term: String, insideTmux: Bool) -> [String] {
        var base = term
        for suffix in ["-256color", "-88color", "-16color", "-color"] where base.hasSuffix(suffix) {
            base.removeLast(suffix.count)
            break
        }
        var candidates = [base + "-direct"]
        // xterm-kitty, xterm-ghostty …: the terminal's own name after "xterm-".
        if base.hasPrefix("xterm-") { candidates.append(String(base.dropFirst("xterm-".count)) + "-direct") }
        if base.hasPrefix("xterm") { candidates.append("xterm-direct") }
        if base.hasPrefix("tmux") || (insideTmux && base.hasPrefix("screen")) { candidates.append("tmux-direct") }
        if base.hasPrefix("gnome") || base.hasPrefix("vte") { candidates.append("vte-direct") }
        var seen = Set<String>()
        return candidates.filter { seen.insert($0).inserted }
    }
}
