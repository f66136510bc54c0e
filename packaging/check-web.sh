#!/usr/bin/env bash
# make test-ui: the dashboard's files, checked by web tools before a browser loads them — the script
# parsed by Node (`node --check`), the page parsed as HTML with nothing the page's Content-Security-
# Policy would block (no inline script, no on* handler, no javascript: link), and every asset the
# page names served by the admin API.
set -euo pipefail
cd "$(dirname "$0")/.."
resources=Sources/Dashboard/Resources
if ! command -v node >/dev/null; then
    if command -v apt-get >/dev/null; then
        echo "check-web: installing nodejs"
        ${SUDO:-} apt-get update -qq && ${SUDO:-} apt-get install -y -qq nodejs >/dev/null
    else
        echo "check-web: FAILED: node is needed to check $resources/*.js (brew install node)"; exit 1
    fi
fi
for script in "$resources"/*.js; do
    node --check "$script"
    echo "check-web: $script parses (node $(node --version))"
done
python3 - "$resources" <<'PY'
import html.parser, pathlib, re, sys
folder = pathlib.Path(sys.argv[1])
contract = pathlib.Path("Sources/AdminContract/AdminContract.swift").read_text()
served = set(re.findall(r'AdminCall<[^>]*>\("GET", "([^"]+)"', contract))
problems = []

class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.open, self.in_script, self.assets = [], False, []
    def handle_starttag(self, tag, attrs):
        names = [name for name, _ in attrs]
        for name in sorted({name for name in names if names.count(name) > 1}):
            problems.append(f"<{tag}>: {name} given twice; a browser keeps the first and drops the rest")
        attrs = dict(attrs)
        for name, value in attrs.items():
            if name.startswith("on"):
                problems.append(f"<{tag} {name}=…>: an inline handler, which the page's CSP (script-src 'self') blocks")
            if name in ("href", "src") and (value or "").strip().lower().startswith("javascript:"):
                problems.append(f"<{tag} {name}=javascript:…>: blocked by the CSP")
        if tag == "script":
            self.in_script = True
            if "src" not in attrs:
                problems.append("<script> without src: inline script, which the CSP blocks")
        for name in ("src", "href"):
            value = attrs.get(name) or ""
            if value.startswith("/__stubd/"):
                self.assets.append(value[len("/__stubd/"):])
        if tag not in ("meta", "link", "input", "br", "img", "hr", "source"):
            self.open.append(tag)
    def handle_endtag(self, tag):
        if tag == "script":
            self.in_script = False
        if tag in self.open:
            while self.open and self.open.pop() != tag:
                pass
        else:
            problems.append(f"</{tag}> closes nothing")
    def handle_data(self, data):
        if self.in_script and data.strip():
            problems.append("inline script text, which the CSP blocks")

for page in folder.glob("*.html"):
    parser = Page()
    parser.feed(page.read_text())
    parser.close()
    for asset in parser.assets:
        if asset not in served:
            problems.append(f"{page}: names /__stubd/{asset}, which AdminContract does not declare")
    unclosed = [t for t in parser.open if t not in ("html", "body", "head", "p", "li")]
    if unclosed:
        problems.append(f"{page}: unclosed <{'>, <'.join(unclosed)}>")
    print(f"check-web: {page} parses; it names {', '.join(sorted(parser.assets)) or 'no asset'}")
for sheet in folder.glob("*.css"):
    text = re.sub(r"/\*.*?\*/", "", sheet.read_text(), flags=re.S)
    depth = 0
    for char in text:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            break
    if depth != 0:
        problems.append(f"{sheet}: braces do not balance")
    print(f"check-web: {sheet} braces balance")
if problems:
    sys.exit("check-web: FAILED:\n  " + "\n  ".join(problems))
PY
