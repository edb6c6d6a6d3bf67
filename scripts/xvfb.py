"""A private X display for the scripts that run the app in a real terminal (sixel_e2e.py,
xterm_bench.py): checks the tools, starts Xvfb on a free display, says when it is up."""
import os
import shutil
import subprocess
import sys
import time


def require(tools, name, packages):
    """Exits 2 naming the missing tools (the caller's test is then skipped, not failed)."""
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        print(f"{name}: missing {', '.join(missing)} ({packages})")
        sys.exit(2)


def start(size="1280x720x24"):
    """Xvfb on the first free display from :93; returns (server, environment with DISPLAY),
    once the display answers (xdotool, else a second's wait)."""
    display = next(f":{n}" for n in range(93, 200) if not os.path.exists(f"/tmp/.X11-unix/X{n}"))
    server = subprocess.Popen(["Xvfb", display, "-screen", "0", size, "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = dict(os.environ, DISPLAY=display)
    if shutil.which("xdotool"):
        for _ in range(50):
            if subprocess.run(["xdotool", "getmouselocation"], env=env, capture_output=True).returncode == 0:
                return server, env
            time.sleep(0.1)
    else:
        time.sleep(1)
    return server, env
