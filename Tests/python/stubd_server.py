"""A `stubd serve` for a Python test: on port 0 (or the one given), its port read from the banner,
stopped with `stop()`. Shared by Tests/ui, Tests/streams and Tests/clients."""
import re
import subprocess
import urllib.request


def answered_within(url, count, seconds=1.0):
    """How many of `count` GETs of `url`, one after another, are answered within `seconds` each."""
    good = 0
    for _ in range(count):
        try:
            urllib.request.urlopen(url, timeout=seconds).read()
            good += 1
        except Exception:
            pass
    return good


class Stubd:
    """`stubd serve FOLDER` on an ephemeral port; `base` is its URL."""

    def __init__(self, binary, folder, *extra, port=0):
        self.process = subprocess.Popen([binary, "serve", folder, "--port", str(port), *extra],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.banner = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("stubd exited: " + "".join(self.banner))
            self.banner.append(line)
            match = re.search(r"on http://127\.0\.0\.1:(\d+)", line)
            if match and not hasattr(self, "port"):  # the serving line's (a proxy line names another port)
                self.port = int(match.group(1))
            if "dashboard:" in line or "admin API off" in line or ("--quiet" in extra and match):
                break
        self.base = f"http://127.0.0.1:{self.port}"

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
