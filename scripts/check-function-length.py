#!/usr/bin/python3
"""check-function-length.py -- lists the C functions under src/ (.c and .h files) longer than
a limit (100 lines), and fails on any that is neither exempt nor allowed.

Usage: scripts/check-function-length.py [--limit N] [--allow FILE] [--all]
                                        [SRC_DIR]
    SRC_DIR   default: the src/ beside this script
    --limit   the most lines a function may have (default 100)
    --allow   a list of "PATH:FUNCTION" lines (PATH relative to SRC_DIR's
              parent, e.g. src/cli/cmd_rate.c:nk_cmd_rate; '#' starts a
              comment): long functions that others are splitting now.
    --all     also list the exempt and the allowed long functions (for
              reading; the exit status is the same)

A function's length counts the lines from the one with its name to the one
with its closing brace, both included.  A long function is exempt when the
comment directly above its definition (the block of comment lines that ends
on the line before it) holds "nk: long function: REASON", with a reason:
the numbered-step nodes of the search and the hot loops of the tablebase,
which say there why they stay in one piece.

Prints one line per offence, "PATH:LINE: FUNCTION: N lines (WHY)", and
exits 1 when there is any:
  - a long function neither exempt nor in the allow list;
  - an allow-list line whose function no longer exists or is no longer long
    (the list can only shrink: take the line out);
  - an exemption on a function that is not long (take the comment out);
  - an exemption without a reason.
Exits 0 when there is none, 2 when a file or the allow list is unreadable
or an allow-list line is not PATH:FUNCTION.  Standard library only.

The parser is a small one, for this code base's C: comments, strings and
character literals blanked out, preprocessor lines skipped, and a
definition is a '{' at file scope whose text since the previous ';', '}' or
preprocessor line ends in ')' (after attributes).  Functions defined by
macros are not seen.
"""
import os
import re
import sys

MARK = re.compile(r"nk: long function:(.*)")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
NOT_FUNCTIONS = {"if", "for", "while", "switch", "return", "sizeof"}


def blank_out(text):
    """Text with comments, string and character literals and preprocessor
    lines replaced by spaces; newlines kept, so lines stay where they are."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#" or (line_start and c in " \t" and
                                        text[i:].lstrip(" \t")[:1] == "#"):
            # a preprocessor line, with its continuations
            while i < n:
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                if text[i] == "\n":
                    break
                # a comment inside a directive ends with the directive
                # or with itself; blank it all the same
                if text.startswith("/*", i):
                    j = text.find("*/", i + 2)
                    j = n if j < 0 else j + 2
                    out.append(re.sub(r"[^\n]", " ", text[i:j]))
                    i = j
                    continue
                out.append(" ")
                i += 1
            line_start = False
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + c)
            i = j
            continue
        out.append(c)
        line_start = c == "\n" or (line_start and c in " \t")
        i += 1
    return "".join(out)


def functions(text):
    """(name, first line, name line, last line) of every function defined
    in TEXT, lines numbered from 1.  The first line is that of the header's
    first token (the return type)."""
    code = blank_out(text)
    found = []
    depth = 0
    header_start = 0  # offset where the current file-scope text begins
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        if c == "{":
            if depth == 0:
                header = code[header_start:i]
                name, name_off = function_name(header)
                if name is not None:
                    end = matching_brace(code, i)
                    first = header_start + (len(header) - len(header.lstrip()))
                    found.append((name, code.count("\n", 0, first) + 1,
                                  code.count("\n", 0, header_start + name_off) + 1,
                                  code.count("\n", 0, end) + 1))
                    i = end + 1
                    header_start = i
                    continue
            depth += 1
        elif c == "}":
            depth = max(depth - 1, 0)
            if depth == 0:
                header_start = i + 1
        elif c == ";" and depth == 0:
            header_start = i + 1
        i += 1
    return found


def function_name(header):
    """The name a file-scope header before '{' defines, with its offset in
    HEADER, or (None, 0) when the header is no function definition."""
    h = blank_attributes(header).rstrip()
    if not h.endswith(")"):
        return None, 0
    if re.search(r"(^|\W)(struct|union|enum|typedef)\W[^()]*$", h, re.S) or "=" in h:
        return None, 0
    paren = h.find("(")
    m = None
    for m in IDENT.finditer(h, 0, paren):
        pass
    if m is None or m.end() != len(h[:paren].rstrip()) or m.group() in NOT_FUNCTIONS:
        return None, 0
    return m.group(), m.start()


def blank_attributes(header):
    """HEADER with every __attribute__((...)) blanked out (offsets kept)."""
    while True:
        k = header.find("__attribute__")
        if k < 0:
            return header
        j = header.find("(", k)
        depth = 0
        while 0 <= j < len(header):
            depth += {"(": 1, ")": -1}.get(header[j], 0)
            if depth == 0:
                break
            j += 1
        if j < 0 or j >= len(header):
            return header
        header = header[:k] + " " * (j + 1 - k) + header[j + 1:]


def matching_brace(code, i):
    depth = 0
    for j in range(i, len(code)):
        if code[j] == "{":
            depth += 1
        elif code[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(code) - 1


def exemption(lines, first):
    """The reason of an exemption in the comment block that ends on the line
    above line FIRST (1-based): None when there is no mark, '' when the mark
    has no reason."""
    k = first - 2
    block = []
    in_block = False
    while k >= 0:
        s = lines[k].strip()
        if in_block or s.endswith("*/"):
            block.append(s)
            in_block = not (s.startswith("/*") or "/*" in s)
        elif s.startswith("//"):
            block.append(s)
        else:
            break
        k -= 1
    block.reverse()
    for k, s in enumerate(block):
        m = MARK.search(s)
        if m:
            # the reason: the rest of the mark's line and the comment's
            # lines after it
            words = [m.group(1)] + [re.sub(r"^(/\*+|\*+|//)", "", t) for t in block[k + 1:]]
            reason = " ".join(" ".join(words).replace("*/", " ").split())
            return reason
    return None


def scan(src, limit):
    """Every function under SRC: a list of (path, name, line, length,
    reason), path relative to SRC's parent, reason as exemption() gives."""
    root = os.path.dirname(os.path.abspath(src))
    result = []
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames.sort()
        for f in sorted(filenames):
            if not f.endswith((".c", ".h")):
                continue
            path = os.path.join(dirpath, f)
            with open(path, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            lines = text.split("\n")
            rel = os.path.relpath(path, root)
            for name, first, name_line, last in functions(text):
                length = last - name_line + 1
                result.append((rel, name, name_line, length,
                               exemption(lines, first)))
    return result


def read_allow(path):
    allow = {}
    with open(path, encoding="utf-8") as fh:
        for no, line in enumerate(fh, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if not re.fullmatch(r"[^\s:]+\.[ch]:[A-Za-z_][A-Za-z0-9_]*", line):
                raise ValueError(f"{path}:{no}: expected PATH:FUNCTION, got '{line}'")
            allow[line] = no
    return allow


def main(argv):
    limit, allow_path, show_all, src = 100, None, False, None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--limit" and args:
            limit = int(args.pop(0))
        elif a == "--allow" and args:
            allow_path = args.pop(0)
        elif a == "--all":
            show_all = True
        elif a.startswith("-") or src is not None:
            print(f"check-function-length: bad argument '{a}' (see the header)",
                  file=sys.stderr)
            return 2
        else:
            src = a
    if src is None:
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    if not os.path.isdir(src):
        print(f"check-function-length: no directory {src}", file=sys.stderr)
        return 2
    try:
        allow = read_allow(allow_path) if allow_path else {}
        funcs = scan(src, limit)
    except (OSError, ValueError) as e:
        print(f"check-function-length: {e}", file=sys.stderr)
        return 2

    offences = []
    seen = {}
    for rel, name, line, length, reason in funcs:
        key = f"{rel}:{name}"
        seen.setdefault(key, []).append(length)
        where = f"{rel}:{line}: {name}: {length} lines"
        long_ = length > limit
        if reason is not None and not long_:
            offences.append(f"{where} (exempt, but not over {limit}: take the mark out)")
        elif reason == "":
            offences.append(f"{where} (exempt without a reason)")
        elif long_ and reason is None and key not in allow:
            offences.append(f"{where} (over {limit})")
        elif long_ and show_all:
            why = f"exempt: {reason}" if reason else "allowed"
            print(f"{where} ({why})")
    for key, no in allow.items():
        lengths = seen.get(key)
        if lengths is None:
            offences.append(f"{allow_path}:{no}: {key}: no such function "
                            "(take the line out)")
        elif max(lengths) <= limit:
            offences.append(f"{allow_path}:{no}: {key}: {max(lengths)} lines, "
                            f"not over {limit} (take the line out)")
    for o in offences:
        print(o)
    return 1 if offences else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
