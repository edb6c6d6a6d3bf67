import ArgumentParser
import CellCanvas
import TerminalFront

/// `--theme`: the chrome's colours for the terminal's background.
enum ThemeRequest: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// Light when the terminal says its background is light (OSC 11), else dark.
    case auto, light, dark
}

/// The colours of what surrounds the grid (HUD, help, detail view, cell borders), chosen
/// for a dark or a light background. Every text drawn on a background set here has a
/// foreground set here too: a panel colour under the terminal's own foreground was black on
/// dark grey in a light theme (issue 24). The grid's own text keeps the terminal's colours.
struct Theme: Sendable {
    var isLight: Bool
    /// HUD: its panel, dim text, its border, and the hitch bands.
    var panel: CellStyle
    var panelDim: CellStyle
    var panelBorder: CellStyle
    var good: Color, warning: Color, critical: Color
    /// Help: its panel, key names, the title and border.
    var help: CellStyle
    var helpKey: CellStyle
    var helpBorder: CellStyle
    var helpDim: CellStyle
    /// Detail view.
    var detail: CellStyle
    var detailBorder: CellStyle
    var detailDim: CellStyle
    var detailLikes: CellStyle
    /// Cells: the selected border, the others, likes.
    var selectedBorder: Color
    var border: Color
    var likes: Color

    static let dark = Theme(
        isLight: false,
        panel: CellStyle(foreground: .palette(252), background: .palette(235)),
        panelDim: CellStyle(foreground: .palette(245), background: .palette(235)),
        panelBorder: CellStyle(foreground: .palette(244), background: .palette(235)),
        good: .green, warning: .yellow, critical: .red,
        help: CellStyle(foreground: .palette(252), background: .palette(236)),
        helpKey: CellStyle(foreground: .yellow, background: .palette(236), bold: true),
        helpBorder: CellStyle(foreground: .cyan, background: .palette(236), bold: true),
        helpDim: CellStyle(foreground: .palette(244), background: .palette(236)),
        detail: CellStyle(foreground: .palette(252), background: .palette(234)),
        detailBorder: CellStyle(foreground: .yellow, background: .palette(234), bold: true),
        detailDim: CellStyle(foreground: .palette(244), background: .palette(234)),
        detailLikes: CellStyle(foreground: .red, background: .palette(234)),
        selectedBorder: .yellow, border: .palette(8), likes: .red)

    static let light = Theme(
        isLight: true,
        panel: CellStyle(foreground: .palette(235), background: .palette(254)),
        panelDim: CellStyle(foreground: .palette(242), background: .palette(254)),
        panelBorder: CellStyle(foreground: .palette(246), background: .palette(254)),
        good: .palette(28), warning: .palette(130), critical: .palette(160),
        help: CellStyle(foreground: .palette(235), background: .palette(255)),
        helpKey: CellStyle(foreground: .palette(24), background: .palette(255), bold: true),
        helpBorder: CellStyle(foreground: .palette(24), background: .palette(255), bold: true),
        helpDim: CellStyle(foreground: .palette(242), background: .palette(255)),
        detail: CellStyle(foreground: .palette(235), background: .palette(255)),
        detailBorder: CellStyle(foreground: .palette(130), background: .palette(255), bold: true),
        detailDim: CellStyle(foreground: .palette(242), background: .palette(255)),
        detailLikes: CellStyle(foreground: .palette(160), background: .palette(255)),
        selectedBorder: .palette(130), border: .palette(246), likes: .palette(160))

    /// The theme asked for, or for `auto` the one the terminal's background calls for
    /// (dark when it did not say).
    static func resolve(_ request: ThemeRequest, background: TerminalProbe.RGB?) -> Theme {
        switch request {
        case .light: .light
        case .dark: .dark
        case .auto: background.map { $0.isLight ? .light : .dark } ?? .dark
        }
    }
}
