"""What conformance/encodings.py (HTTP/1.1) and h2_encodings.py (HTTP/2) share: the probe
server's listener, reading a client's run into cells, and the Markdown tables they print — for
each request shape, each client's reading of each candidate encoding of a fault step (✓ or ✗,
what the app saw per step, and in brackets the attempts that reached the server), then what each
client raised for the GET fault step."""
import socket
import threading


class Listener:
    """A loopback listener on a free port that serves each connection on a thread of its own
    (`serve`, the probe server's)."""

    def __init__(self):
        self.hits = {}
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            connection, _ = self.listener.accept()
            threading.Thread(target=self.serve, args=(connection,), daemon=True).start()

    def serve(self, connection):
        raise NotImplementedError

    def step(self, path, shapes):
        """For a probe path (`/s/ENCODING/RUN/SHAPE`), its encoding and this attempt's step of
        the shape (the attempt counted in `hits`); None for any other path (a warm-up)."""
        parts = path.split("/")
        if len(parts) != 5 or parts[1] != "s":
            return None
        _, _, encoding, _, shape = parts
        with self.lock:
            hit = self.hits.get(path, 0)
            self.hits[path] = hit + 1
        steps = shapes[shape]
        return encoding, steps[min(hit, len(steps) - 1)]


def markdown(rows, encodings, shapes, methods, heading, raised_rows=None):
    """`rows`: (client label, cells) with cells[(encoding, shape)] = (good, words, attempts,
    raised); `heading`: what follows a shape's steps ("after a warm-up request"); `raised_rows`:
    the rows of the last table (`rows` when None)."""
    out = []
    for shape, wanted in shapes.items():
        out.append(f"\n{methods[shape]} `[{', '.join(wanted)}]` {heading}:\n")
        out += header(encodings)
        for label, cells in rows:
            texts = []
            for encoding in encodings:
                good, words, attempts, _ = cells[(encoding, shape)]
                texts.append(f"{'✓' if good else '✗'} {words} ({attempts})")
            out.append(f"| {label} | " + " | ".join(texts) + " |")
    out.append("\nWhat each client raised for the GET fault step:\n")
    out += header(encodings)
    for label, cells in rows if raised_rows is None else raised_rows:
        texts = [cells[(encoding, "f")][3].replace("|", "\\|")[:60] or "—" for encoding in encodings]
        out.append(f"| {label} | " + " | ".join(texts) + " |")
    return "\n".join(out)


def header(encodings):
    return ["| client | " + " | ".join(f"`{e}`" for e in encodings) + " |", "|---|" + "---|" * len(encodings)]


def read(cells, encoding, plan, results, hits):
    """Fills `cells` for `encoding` from one client run: `plan` holds (shape, path, index of its
    first step in `results`, the steps wanted), `results` the client's (kind, status or error)
    per step, `hits` the attempts that reached the server per path."""
    for shape, path, first, wanted in plan:
        seen = results[first:first + len(wanted)]
        words = ["E" if r[0] == "error" else r[1] for r in seen]
        good = all((w == "fault") == (r[0] == "error") and (w == "fault" or r[1] == ("500" if w == "500" else "200"))
                   for w, r in zip(wanted, seen))
        errors = [r[1] for r in seen if r[0] == "error"]
        cells[(encoding, shape)] = (good, " → ".join(words), hits.get(path, 0), errors[0] if errors else "")


def crashed(cells, encoding, plan, error, hits):
    """Fills `cells` for `encoding` when the client process failed."""
    for shape, path, _, _ in plan:
        cells[(encoding, shape)] = (False, "client crashed", hits.get(path, 0), str(error).splitlines()[-1][:60])
