"""The app in tmux, as the end-to-end tests drive it: one tmux server per test (`-L`), one
session `e2e`, keys sent, the screen read back, waits that poll until what is waited for
is on the screen (or 30 s pass) — never a fixed sleep that decides.

    tmux = Tmux("feed-e2e", fail)
    tmux.start("destinations --feed …; sleep 60")
    text = tmux.wait_for(lambda text: "♥" in text, "no posts on screen")
    tmux.keys("j", "Enter")
    tmux.stop(feed_url)
"""
import subprocess
import time


class Tmux:
    def __init__(self, socket, fail):
        """`socket`: the tmux server's name (a test of its own); `fail(message)`: how the
        test says it failed (it does not return)."""
        self.socket = socket
        self.fail = fail

    def __call__(self, *args):
        return subprocess.run(["tmux", "-L", self.socket] + list(args), capture_output=True, text=True)

    def start(self, command, columns=160, rows=48):
        """A fresh server with one session running `command` (a shell command line)."""
        self("kill-server")
        self("new-session", "-d", "-s", "e2e", "-x", str(columns), "-y", str(rows), command)

    def keys(self, *keys):
        self("send-keys", "-t", "e2e", *keys)

    def screen(self, joined=False):
        """The pane's text (`joined`: wrapped lines joined, as `-J` does)."""
        return self("capture-pane", "-p", *(["-J"] if joined else []), "-t", "e2e").stdout

    def wait_for(self, predicate, what, timeout=30):
        """The screen once `predicate(screen)` holds; fails with the screen, the sessions and
        the app's processes when it does not within `timeout` s."""
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.screen()
            if predicate(text):
                return text
            time.sleep(0.2)
        sessions = self("ls").stdout.strip() or self("ls").stderr.strip()
        processes = subprocess.run(["pgrep", "-af", "destinations"], capture_output=True, text=True).stdout.strip()
        self.fail(f"{what}; tmux: {sessions}; processes:\n{processes}\nthe screen:\n{text}")

    def stop(self, pattern=None):
        """Ends the tmux server and, with `pattern` (a string in the app's command line or
        environment, such as its feed's URL with the run's port), waits up to 10 s until no
        such process is left, so the run's folders can be removed: an app still writing its
        disk cache made the removal fail."""
        self("kill-server")
        if pattern is None:
            return
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if subprocess.run(["pgrep", "-f", pattern], capture_output=True).returncode != 0:
                return
            time.sleep(0.1)
