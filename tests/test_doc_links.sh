#!/usr/bin/env bash
# test_doc_links.sh -- every relative link of the Markdown files (README.md,
# docs/, configs/, results/, notebooks/, ...) resolves: the file or
# directory it names exists, and a #fragment names a heading of the Markdown
# file it points into (GitHub's anchors: lower case, punctuation dropped,
# spaces as hyphens, -1, -2 for repeated headings).  Links inside code
# (backticks, fenced blocks) and absolute URLs are not checked.  The checker
# must pass on the real tree and fail, naming the file and the line, on a
# planted missing file and a planted missing anchor -- so that it cannot
# pass by checking nothing.
# Usage: test_doc_links.sh NICKAR_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib_cli.sh"

cat >"$tmp/links.py" <<'PY'
import os, re, sys

root = sys.argv[1]
files = []
for d, dirs, names in os.walk(root):
    dirs[:] = sorted(x for x in dirs if not x.startswith(".") and not x.startswith("build"))
    files += [os.path.join(d, n) for n in sorted(names) if n.endswith(".md")]

def lines(path, code=False):
    """(number, text) of the lines outside fenced code; inline code is
    removed unless code is true (headings keep it for their anchors)."""
    fenced = False
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            if not fenced:
                yield i, line if code else re.sub(r"`[^`]*`", "", line)

anchors = {}
def anchors_of(path):
    if path not in anchors:
        found, seen = set(), {}
        for _, line in lines(path, code=True):
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m:
                a = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
                n = seen.get(a, 0)
                seen[a] = n + 1
                found.add(a if n == 0 else f"{a}-{n}")
        anchors[path] = found
    return anchors[path]

bad = links = 0
for path in files:
    rel = os.path.relpath(path, root)
    for i, line in lines(path):
        for m in re.finditer(r"\]\(<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\)", line):
            target = m.group(1)
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
                continue
            links += 1
            name, _, frag = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), name)) if name else path
            if not os.path.exists(dest):
                print(f"{rel}:{i}: link to a missing file: {target}")
                bad += 1
            elif frag and dest.endswith(".md") and frag not in anchors_of(dest):
                print(f"{rel}:{i}: link to a missing heading: {target}")
                bad += 1
print(f"{len(files)} files, {links} links, {bad} broken", file=sys.stderr)
sys.exit(1 if bad else 0)
PY

links() { $python "$tmp/links.py" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; out=$(cat "$tmp/out"); err=$(cat "$tmp/err"); }

links "$srcdir"
check "every relative link of the Markdown files resolves" test "$rc" -eq 0 -a -z "$out"
[[ $rc -eq 0 ]] || echo "$out"
check "the real tree has links to check" grep -qE '^[0-9]+ files, [0-9]{3,} links, 0 broken$' "$tmp/err"

# A small tree with one good link of each kind, then one broken of each.
mkdir -p "$tmp/t/docs"
printf '# Top\n\n## The `nickar` command — notes\n\n## Top\n' >"$tmp/t/docs/b.md"
printf 'See [b](docs/b.md), [c](docs/b.md#the-nickar-command--notes), [d](docs/b.md#top-1), [e](#own), [f](https://example.org/x.md#y), `[g](nothere.md)`.\n\n## Own\n' >"$tmp/t/a.md"
links "$tmp/t"
check "good links of every kind pass" test "$rc" -eq 0 -a -z "$out"

printf '\nA [broken](docs/c.md) link.\n' >>"$tmp/t/a.md"
links "$tmp/t"
check "a link to a missing file fails, naming the file and line" \
  test "$rc" -eq 1 -a "$out" = "a.md:5: link to a missing file: docs/c.md"

printf 'Fixed.\n' >"$tmp/t/a.md"
printf '[x](b.md#no-such-heading)\n' >"$tmp/t/docs/x.md"
links "$tmp/t"
check "a link to a missing heading fails, naming the file and line" \
  test "$rc" -eq 1 -a "$out" = "docs/x.md:1: link to a missing heading: b.md#no-such-heading"

finish
