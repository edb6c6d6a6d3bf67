import Foundation
import TestSupport
import Testing

/// Until a feed's first page comes, the person sees what the app waits for and can leave
/// (issue 43: a server that trickled a byte a second left a blank terminal for 92 s, and `q`
/// did nothing): `q` at once, Ctrl-C at once, the terminal's modes back either way.
@Suite(.serialized) struct StartupWaitTests {
    @Test(arguments: ["q", "C-c"])
    func aSlowFirstPageSaysSoAndAKeyEndsTheWait(key: String) throws {
        let server = try HostileServer(host: "127.0.0.1") { _ in
            HostileServer.Response(status: 200, headers: [("Content-Type", "application/json")],
                                   body: Array(repeating: UInt8(ascii: " "), count: 600) + Array("[]".utf8), trickle: (chunk: 1, pause: .milliseconds(100)))
        }
        defer { server.stop() }
        let tmux = Tmux()
        // From an interactive shell, as a person runs it: Ctrl-C goes to the whole foreground
        // group, and only an interactive shell ignores it.
        try tmux.start("bash --norc --noprofile", environment: "PS1='PROMPT$ '")
        defer { tmux.stop() }
        _ = try tmux.waitFor { $0.contains("PROMPT$") }
        // EXIT is printed after a q; a Ctrl-C also ends the shell's list (as it would any command's).
        try tmux.keys("\(AppProcess.binary.path) --no-state --feed \(server.base)/api/v1/timelines/public; echo EXIT=$?", "Enter")
        let waiting = try tmux.waitFor(timeout: 30) { $0.contains("waiting for the first page from 127.0.0.1") }
        #expect(waiting.contains("(q quits)"), "\(waiting)")
        try tmux.keys(key)
        let back = try tmux.waitFor(timeout: 30) { $0.components(separatedBy: "PROMPT$").count == 3 }
        if key == "q" { #expect(back.contains("EXIT=0"), "\(back)") }
        #expect(!back.contains("waiting for the first page"), "the status line is cleared:\n\(back)")
        try tmux.keys("stty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\{0,1\\}\\(icanon\\|echo\\)' | tr '\\n' ' '; echo ST\"\"TY", "Enter")
        let screen = try tmux.waitFor(timeout: 30) { $0.contains("STTY") }
        #expect(screen.contains("icanon echo STTY"), "line editing and echo are back:\n\(screen)")
    }
}
