#!/usr/bin/env python3
"""make test: the manual holds together — every link in README.md and docs/*.md reaches a file that
exists and, with a #fragment, a heading on that page; every page in docs/ is listed on the contents
page (docs/README.md); the README front page stays at most 250 lines."""
import pathlib, re, sys

root = pathlib.Path(__file__).resolve().parent.parent
pages = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
problems = []


def slug(title):
    title = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", title.strip().lower())
    return re.sub(r"[^\w\- ]", "", title).replace(" ", "-")


def anchors(path):
    found, fence = set(), False
    for line in path.read_text().split("\n"):
        if line.startswith("```"):
            fence = not fence
        elif not fence and re.match(r"^#{1,6} ", line):
            found.add(slug(line.lstrip("#")))
    return found


for page in pages:
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"^[a-z]+:", target):
            continue
        file, _, fragment = target.partition("#")
        dest = (page.parent / file).resolve() if file else page
        name = f"{page.relative_to(root)}: link ({target})"
        if not dest.exists():
            problems.append(f"{name}: no file {dest.relative_to(root) if dest.is_relative_to(root) else dest}")
        elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            problems.append(f"{name}: no heading #{fragment} on {dest.relative_to(root)}")

contents = (root / "docs" / "README.md").read_text()
for page in pages[1:]:
    if page.name != "README.md" and f"]({page.name})" not in contents:
        problems.append(f"docs/README.md: {page.name} is not listed; add a row to the contents table")
front = (root / "README.md").read_text().count("\n")
if front > 250:
    problems.append(f"README.md: {front} lines; the front page keeps to 250 — move detail to a page in docs/")
if problems:
    sys.exit("check-docs: FAILED:\n  " + "\n  ".join(problems))
print(f"check-docs: {len(pages)} pages, every link resolves, every page is on the contents page; README.md {front} lines")
