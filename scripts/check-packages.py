#!/usr/bin/python3
"""scripts/check-packages.py [--list] [ROOT] -- every external program and
Python module that nickar's scripts, experiments and tests call, and the
Debian package each comes from; exits 1 when one comes from none that a
fresh Debian 12 with scripts/setup.sh's packages is sure to have.

Allowed sources:
  - a package of setup.sh's list, or one that such a package depends on
    (Depends, Pre-Depends, recursively, as installed here);
  - Debian's essential set and the rest of priority "required" (what
    `debootstrap --variant=minbase`, the barest Debian, installs);
  - Python's standard library (sys.stdlib_module_names);
  - nickar itself (nickar, nickar-test, the repository's own files).

Found: the commands in command position of every shell script
(scripts/*.sh, experiments/**/*.sh, tests/**/*.sh, .ci/run: a small shell
lexer that knows quotes, $(...), heredocs, case patterns, functions and
wrappers such as nice, env, timeout, xargs, bash -c and trap), every
absolute path of a program (/usr/bin/X, /bin/X, /usr/sbin/X, /sbin/X) in
those scripts, the Python files (scripts/, experiments/, analysis/,
tests/, python/), notebooks/*.ipynb, the CMakeLists.txt files and the C tests, and
the top-level modules that the Python files, the notebooks, `python3 -c`
strings and Python heredocs import, and the programs that the Python files
run by name (subprocess, os.exec*, os.posix_spawn with a literal name).  Each program is found on PATH and its
package asked of `dpkg -S`; each module's file likewise.  MAPPING below
names the package of a program that may be missing here (called only where
installed).  --list prints the table: name, path, package, why allowed.
"""

import json
import os
import re
import shutil
import subprocess
import sys

# Programs called only behind `command -v`/`if ... exists`, or that are
# not on this machine's PATH: their package, kept by hand.  Each is still
# checked against the allowed packages.
MAPPING = {
    "sudo": "sudo",  # setup.sh: only when present and not root
    "chromium": "chromium",
    "mpirun": "openmpi-bin",
    "mpicc": "libopenmpi-dev",
    "clang": "clang",
    "valgrind": "valgrind",
    "jupyter": "jupyter-core",
    "jupyter-nbconvert": "jupyter-nbconvert",
}

# Programs from outside the project's Debian packages, each allowed in one
# file only, and why.
EXEMPT = {
    ("srun", "experiments/slurm-evolve.sh"): "SLURM's, on the cluster this script is submitted to",
    ("git", "scripts/fresh-check.sh"): "on the host, whose clone it checks",
    ("debootstrap", "scripts/fresh-check.sh"): "on the host, which it installs first",
    ("sudo", "scripts/setup.sh"): "only where present (command -v), for a user who is not root",
}

# The programs a fresh Debian finds: its default PATH, less /usr/local.
PATH = "/usr/sbin:/usr/bin:/sbin:/bin"

# Words that take a command after their own options and arguments.
WRAPPERS = {"nice", "nohup", "exec", "env", "timeout", "xargs", "setsid", "chroot",
            "stdbuf", "ionice", "time", "sudo", "command", "builtin", "then", "do",
            "else", "elif", "if", "while", "until", "!", "{", "coproc"}
# Options of a wrapper that take a value.
WRAPPER_OPTS_WITH_ARG = {"-n", "-s", "-k", "-I", "-P", "-L", "-d", "-u", "-C", "-E"}
SEPARATORS = {";", "&&", "||", "|", "|&", "&", "(", ")", "\n", "{", "}", ";;", ";&", ";;&"}
REDIRECTS = {">", ">>", "<", "<>", ">&", "<&", "&>", "&>>", ">|", "<<<"}
ABS_PROGRAM = re.compile(r"(?<![\w./-])(/(?:usr/)?s?bin/[A-Za-z0-9_.+-]*[A-Za-z0-9_+-])")
PY_PROGRAM = re.compile(r"(?:subprocess\.(?:run|call|check_call|check_output|Popen)|os\.exec\w*"
                        r"|os\.posix_spawnp?)\(\s*\[?\s*[\"']([\w.+/-]+)[\"']")
PY_IMPORT = re.compile(r"^\s*(?:import\s+([\w.]+(?:\s*,\s*[\w.]+)*)|from\s+([\w.]+)\s+import)", re.M)


def shell_names():
    out = subprocess.run(["bash", "-c", "compgen -b; compgen -k"], capture_output=True,
                         text=True, check=True).stdout
    return set(out.split()) | {"[", "[[", "]]", "((", "))"}


class Lexer:
    """Tokens of a shell text: words (with a flag for quoting and
    expansions), operators, and newlines; $(...) and `...` contents and
    heredoc bodies are handed back on the side."""

    def __init__(self, text):
        self.s = text
        self.i = 0
        self.subs = []      # command substitutions: texts to lex as shell
        self.heredocs = []  # (opening line's tokens so far, body)
        self.pending = []   # heredoc delimiters waiting for the next newline

    def skip_balanced(self, i, open_, close):
        depth = 0
        s = self.s
        while i < len(s):
            c = s[i]
            if c == "\\":
                i += 2
                continue
            if c == "'" and open_ != "{":
                j = s.find("'", i + 1)
                i = len(s) if j < 0 else j + 1
                continue
            if c == '"':
                i = self.skip_dquote(i + 1)
                continue
            if c == open_:
                depth += 1
            elif c == close:
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        return i

    def skip_dquote(self, i):
        """From just after a ", to just after the closing one; $(...) and
        `...` inside are recorded."""
        s = self.s
        while i < len(s) and s[i] != '"':
            if s[i] == "\\":
                i += 2
                continue
            if s.startswith("$((", i):
                i = self.skip_balanced(i + 1, "(", ")")
                continue
            if s.startswith("$(", i):
                j = self.skip_balanced(i + 1, "(", ")")
                self.subs.append((s[i + 2:j - 1], self.line(i)))
                i = j
                continue
            if s[i] == "`":
                j = s.find("`", i + 1)
                j = len(s) if j < 0 else j
                self.subs.append((s[i + 1:j], self.line(i)))
                i = j + 1
                continue
            i += 1
        return i + 1

    def line(self, i):
        return self.s.count("\n", 0, i)

    def tokens(self):
        s = self.s
        toks = []
        while self.i < len(s):
            c = s[self.i]
            if s.startswith("\\\n", self.i):
                toks.append(("op", "\\\n"))  # a continued line
                self.i += 2
            elif c in " \t\r":
                self.i += 1
            elif c == "\n":
                toks.append(("op", "\n"))
                self.i += 1
                for delim, strip in self.pending:
                    at, start = self.line(self.i), self.i
                    body = []
                    while self.i < len(s):
                        j = s.find("\n", self.i)
                        j = len(s) if j < 0 else j
                        line = s[self.i:j]
                        self.i = j + 1
                        if (line.lstrip("\t") if strip else line) == delim:
                            break
                        body.append(line)
                    self.heredocs.append((list(toks), "\n".join(body), at))
                    toks += [("op", "\\\n")] * s.count("\n", start, self.i)
                self.pending = []
            elif c == "#":
                j = s.find("\n", self.i)
                self.i = len(s) if j < 0 else j
            elif s.startswith("((", self.i):
                start = self.i
                self.i = self.skip_balanced(self.i, "(", ")")
                toks.append(("word", "((", False))
                toks += [("op", "\\\n")] * s.count("\n", start, self.i)
            elif s.startswith("<<", self.i) and not s.startswith("<<<", self.i):
                self.i += 2
                strip = s.startswith("-", self.i)
                if strip:
                    self.i += 1
                while self.i < len(s) and s[self.i] in " \t":
                    self.i += 1
                m = re.match(r"""['"]?([\w.-]+)['"]?""", s[self.i:])
                if m:
                    self.pending.append((m.group(1), strip))
                    self.i += m.end()
                toks.append(("op", "<<"))
            elif s.startswith(("<(", ">("), self.i):
                j = self.skip_balanced(self.i + 1, "(", ")")
                self.subs.append((s[self.i + 2:j - 1], self.line(self.i)))
                toks.append(("word", "<()", True))
                self.i = j
            elif c in ";&|()<>":
                for op in (";;&", "&>>", ";;", ";&", "&&", "||", "|&", ">>", "<>", ">&", "<&",
                           "&>", ">|", "<<<", ";", "&", "|", "(", ")", "<", ">"):
                    if s.startswith(op, self.i):
                        toks.append(("op", op))
                        self.i += len(op)
                        break
            else:
                start = self.i
                toks.append(self.word())
                toks += [("op", "\\\n")] * s.count("\n", start, self.i)
        return toks

    def word(self):
        s = self.s
        start = self.i
        dynamic = False
        text = []
        while self.i < len(s) and s[self.i] not in " \t\r\n;&|()<>":
            c = s[self.i]
            if s.startswith("\\\n", self.i):
                break
            if c == "\\":
                text.append(s[self.i + 1:self.i + 2])
                self.i += 2
            elif c == "'":
                j = s.find("'", self.i + 1)
                j = len(s) if j < 0 else j
                text.append(s[self.i + 1:j])
                self.i = j + 1
            elif c == '"':
                j = self.skip_dquote(self.i + 1)
                inner = s[self.i + 1:j - 1]
                dynamic |= "$" in inner or "`" in inner
                text.append(inner)
                self.i = j
            elif s.startswith("$((", self.i):
                self.i = self.skip_balanced(self.i + 1, "(", ")")
                dynamic = True
            elif s.startswith("$(", self.i):
                j = self.skip_balanced(self.i + 1, "(", ")")
                self.subs.append((s[self.i + 2:j - 1], self.line(self.i)))
                self.i = j
                dynamic = True
            elif s.startswith("${", self.i):
                self.i = self.skip_balanced(self.i + 1, "{", "}")
                dynamic = True
            elif c == "$":
                dynamic = True
                text.append(c)
                self.i += 1
            elif c == "`":
                j = s.find("`", self.i + 1)
                j = len(s) if j < 0 else j
                self.subs.append((s[self.i + 1:j], self.line(self.i)))
                self.i = j + 1
                dynamic = True
            else:
                text.append(c)
                self.i += 1
        if s.startswith("(", self.i) and re.fullmatch(r"[+@!?*]", s[start:self.i][-1:] or "x"):
            # an extglob pattern such as +(a|b): part of the word
            j = self.skip_balanced(self.i, "(", ")")
            text.append(s[self.i:j])
            self.i = j
        return ("word", "".join(text), dynamic)


def shell_commands(text, names, found, where, functions, py_texts, first=1):
    """Adds (command, where) for every command in command position of the
    shell text; function names to functions; Python code (python -c, python
    heredocs) to py_texts."""
    lx = Lexer(text)
    toks = lx.tokens()
    at_cmd = True
    i = 0
    state = None  # "case-head", "case-pattern", "for-head", "test"
    line = first
    while i < len(toks):
        t = toks[i]
        if t[0] == "op":
            op = t[1]
            if op in ("\n", "\\\n"):
                line += 1
            if op == "\\\n":
                i += 1
                continue
            prev = toks[i - 1] if i else ("op", "")
            if op == "(" and prev[0] == "word" and prev[1].endswith("="):
                depth = 0  # an array: its words are no commands
                while i < len(toks):
                    if toks[i][0] == "op" and toks[i][1] in ("(", ")"):
                        depth += 1 if toks[i][1] == "(" else -1
                        if depth == 0:
                            break
                    elif toks[i] == ("op", "\n"):
                        line += 1
                    i += 1
                i += 1
                continue
            if state == "case-pattern" and op == ")":
                state = None
                at_cmd = True
            elif state == "for-head" and op in (";", "\n"):
                state = None
            elif op in (";;", ";&", ";;&"):
                state = "case-pattern"
            elif op in REDIRECTS or op == "<<":
                i += 1  # the target
                if op == "<<":
                    i -= 1
            elif op == ")" and state is None:
                at_cmd = False  # the end of a subshell: redirections or a separator next
            elif op in SEPARATORS and state not in ("case-head", "case-pattern", "test"):
                at_cmd = True
            i += 1
            continue
        _, w, dynamic = t
        if state == "test":
            if w in ("]]", "]"):
                state = None
            i += 1
            continue
        if state == "case-head":
            if w == "in":
                state = "case-pattern"
            i += 1
            continue
        if state == "case-pattern":
            if w == "esac":
                state = None
            i += 1
            continue
        if state == "for-head":
            if w == "do":
                state = None
                at_cmd = True
            i += 1
            continue
        if not at_cmd:
            i += 1
            continue
        nxt = toks[i + 1] if i + 1 < len(toks) else ("op", "\n")
        nxt2 = toks[i + 2] if i + 2 < len(toks) else ("op", "\n")
        if nxt == ("op", "(") and nxt2 == ("op", ")"):
            functions.add(w)  # name() { ... }
            i += 3
            continue
        if w == "function":
            functions.add(nxt[1])
            i += 2
            continue
        if w == "case":
            state = "case-head"
        elif w in ("for", "select"):
            state = "for-head"
        elif w in ("[[", "["):
            state = "test"
            at_cmd = False
        elif w in ("done", "fi", "esac", "}"):
            at_cmd = False  # redirections or a separator come next
        elif not dynamic and re.fullmatch(r"[A-Za-z_]\w*(\[[^]]*\])?\+?=.*", w, re.S):
            pass  # an assignment: the command comes next
        elif w in WRAPPERS:
            if w not in names:  # nice, timeout, env...: programs too
                found.append((w, f"{where}:{line}"))
            if w == "command" and nxt[0] == "word" and nxt[1] in ("-v", "-V"):
                if nxt2[0] == "word" and not nxt2[2]:
                    found.append(("?" + nxt2[1], f"{where}:{line}"))  # looked up
                i += 3  # command -v X: a test for X, not a call
                at_cmd = False
                continue
            j = i + 1
            takes_arg = {"timeout": 1, "chroot": 1}.get(w, 0)
            while j < len(toks) and toks[j][0] == "word":
                x = toks[j][1]
                if x.startswith("-") and len(x) > 1:
                    j += 2 if x in WRAPPER_OPTS_WITH_ARG and w in ("nice", "xargs", "timeout", "stdbuf", "ionice") else 1
                elif w == "env" and "=" in x:
                    j += 1
                elif takes_arg:
                    takes_arg -= 1
                    j += 1
                else:
                    break
            i = j
            continue
        elif w in names:
            if w == "trap" and nxt[0] == "word":
                shell_commands(nxt[1], names, found, where, functions, py_texts, line)
            at_cmd = False
        else:
            at_cmd = False
            if not dynamic and w:
                found.append((w, f"{where}:{line}"))
            m = re.fullmatch(r"\$\{?(\w+)\}?", w) if dynamic else None
            if m:  # $cc: the program its assignment names, as in cc=${CC:-clang}
                for v in re.findall(r"(?<![\w$])" + m.group(1) + r"=(?:\$\{\w+:-)?([\w.+-]+)(?:\}|\s|$)", text, re.M):
                    found.append((v, f"{where}:{line}"))
            if w in ("bash", "sh") and nxt[0] == "word" and nxt[1] == "-c" and nxt2[0] == "word":
                shell_commands(nxt2[1], names, found, where, functions, py_texts, line)
            if re.fullmatch(r"(/usr/bin/)?python3?", w) and nxt[0] == "word" and nxt[1] == "-c" \
                    and nxt2[0] == "word":
                py_texts.append((nxt2[1], f"{where}:{line}"))
        i += 1
    for sub, at in lx.subs:
        shell_commands(sub, names, found, where, functions, py_texts, first + at)
    for head, body, at in lx.heredocs:
        words = [t[1] for t in head if t[0] == "word"]
        if any(re.search(r"python3?$", x) for x in words):
            py_texts.append((body, f"{where}:{first + at}"))
        elif any(x in ("bash", "sh") for x in words[-3:]):
            shell_commands(body, names, found, where, functions, py_texts, first + at)


def repo_files(root):
    shell, python, other, notebooks = [], [], [], []
    for top in ("scripts", "experiments", "tests", "analysis", ".ci", "notebooks", "python"):
        for d, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = [x for x in dirs if x not in ("corpus", "regress", "open", "__pycache__")]
            for f in sorted(files):
                p = os.path.join(d, f)
                if f.endswith(".sh") or p.endswith(os.path.join(".ci", "run")):
                    shell.append(p)
                elif f.endswith(".py"):
                    python.append(p)
                elif f.endswith(".ipynb"):
                    notebooks.append(p)
                elif f.endswith(".c") or f == "CMakeLists.txt":
                    other.append(p)
    other.append(os.path.join(root, "CMakeLists.txt"))
    return shell, python, other, notebooks


def local_modules(root):
    mods = set()
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".") and not x.startswith("build")]
        mods |= {f[:-3] for f in files if f.endswith(".py")}
        if "__init__.py" in files:  # a package of the repository (python/nickar)
            mods.add(os.path.basename(d))
    return mods


def imports(text):
    mods = set()
    for m in PY_IMPORT.finditer(text):
        if m.group(1):
            mods |= {x.strip().split(".")[0] for x in m.group(1).split(",")}
        elif not m.group(2).startswith("."):
            mods.add(m.group(2).split(".")[0])
    return mods


_DPKG = {}


def dpkg_package(path):
    """The package that installed path, remembered."""
    if path not in _DPKG:
        _DPKG[path] = dpkg_package_uncached(path)
    return _DPKG[path]


_FILES = None


def dpkg_files():
    """path -> package, from the lists that `dpkg -S` searches
    (/var/lib/dpkg/info/PACKAGE[:ARCH].list), read once."""
    global _FILES
    if _FILES is None:
        _FILES = {}
        d = "/var/lib/dpkg/info"
        for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if f.endswith(".list"):
                pkg = f[:-5].split(":")[0]
                with open(os.path.join(d, f), errors="replace") as fh:
                    for ln in fh:
                        _FILES.setdefault(ln.rstrip("\n"), pkg)
    return _FILES


def dpkg_package_uncached(path):
    """The package that installed path (or its /usr-merged twin, or the
    file its links lead to), or None."""
    cands = [path, os.path.realpath(path)]
    for p in list(cands):
        if p.startswith("/usr/"):
            cands.append(p[4:])
        elif p.startswith(("/bin/", "/sbin/", "/lib/")):
            cands.append("/usr" + p)
    files = dpkg_files()
    for p in cands:
        if p in files:
            return files[p]
    return None


def installed_packages():
    fmt = "${Package}\t${Essential}\t${Priority}\t${Pre-Depends}, ${Depends}\n"
    out = subprocess.run(["dpkg-query", "-W", "-f", fmt], capture_output=True, text=True).stdout
    info = {}
    for ln in out.splitlines():
        name, ess, prio, deps = (ln.split("\t") + ["", "", ""])[:4]
        alts = []
        for d in deps.split(","):
            d = d.strip()
            if d:
                alts.append([re.split(r"[\s:(]", a.strip())[0] for a in d.split("|")])
        info[name] = (ess == "yes", prio, alts)
    return info


def setup_list(root):
    text = open(os.path.join(root, "scripts", "setup.sh")).read()
    m = re.search(r"^packages=\((.*?)^\)", text, re.S | re.M)
    pkgs = []
    for ln in m.group(1).splitlines():
        pkgs += ln.split("#")[0].split()
    return pkgs


def closure(listed, info):
    seen = {}
    todo = [(p, p) for p in listed]
    while todo:
        p, via = todo.pop(0)
        if p in seen or p not in info:
            continue
        seen[p] = via
        for alts in info[p][2]:
            have = [a for a in alts if a in info]
            for a in have[:1]:
                todo.append((a, via))
    return seen


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    listing = "--list" in argv
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), ".."))
    names = shell_names()
    shell, python, other, notebooks = repo_files(root)
    found, functions, py_texts = [], set(), []
    for p in shell:
        rel = os.path.relpath(p, root)
        text = open(p, errors="replace").read()
        shell_commands(text, names, found, rel, functions, py_texts)
    for p in shell + python + other:
        rel = os.path.relpath(p, root)
        if rel == os.path.join("scripts", "check-packages.py"):
            continue  # its own docstring names the patterns
        for n, ln in enumerate(open(p, errors="replace"), 1):
            code = ln if p.endswith(".c") else ln.split("#")[0] if not ln.lstrip().startswith("#!") else ln
            for m in ABS_PROGRAM.finditer(code):
                found.append((m.group(1), f"{rel}:{n}"))
    for p in python:
        rel = os.path.relpath(p, root)
        text = open(p, errors="replace").read()
        py_texts.append((text, rel))
        for m in PY_PROGRAM.finditer(text):  # programs a Python file runs by name
            found.append((m.group(1), f"{rel}:{text.count(chr(10), 0, m.start()) + 1}"))
    for p in notebooks:
        nb = json.load(open(p))
        code = "\n".join("".join(c["source"]) for c in nb.get("cells", []) if c.get("cell_type") == "code")
        py_texts.append((code, os.path.relpath(p, root)))

    info = installed_packages()
    listed = setup_list(root)
    allowed = closure(listed, info)
    stdlib = set(sys.stdlib_module_names)
    mine = local_modules(root)

    rows, bad = {}, []

    def judge(kind, name, where, path, pkg):
        if (kind, name) in rows:
            rows[(kind, name)][4].append(where)
            return
        if (name, where.split(":")[0]) in EXEMPT:
            why = "exempt: " + EXEMPT[(name, where.split(":")[0])]
        elif pkg is None:
            why = None
        elif pkg in listed:
            why = "setup.sh"
        elif pkg in info and info[pkg][0]:
            why = "essential"
        elif pkg in info and info[pkg][1] == "required":
            why = "priority required (minbase)"
        elif pkg in allowed:
            why = f"setup.sh ({allowed[pkg]} depends on it)"
        else:
            why = None
        rows[(kind, name)] = [kind, name, path or "-", pkg or "-", [where], why]

    found.sort(key=lambda x: x[0].startswith("?"))  # calls first, then mere look-ups
    for w, where in found:
        lookup = w.startswith("?")
        w = w.lstrip("?")
        if ("program", w) in rows:
            rows[("program", w)][4].append(where)
            continue
        if w in functions or w in ("nickar", "nickar-test"):
            continue
        if "/" in w and not w.startswith("/"):
            continue  # a path inside the repository or the build
        base = os.path.basename(w)
        if w.startswith("/"):
            path = w if os.path.exists(w) else None
        else:
            path = shutil.which(w, path=PATH)
        pkg = dpkg_package(path) if path else None
        if pkg is None and base in MAPPING:
            pkg = MAPPING[base]
        if lookup and path is None:
            rows[("program", w)] = ["program", w, "-", "-", [where], "looked up, absent here (optional)"]
            continue
        judge("program", w, where, path, pkg)

    for text, where in py_texts:
        for mod in sorted(imports(text)):
            if mod in mine or mod == "__future__":
                continue
            if mod in stdlib:
                judge("module", mod, where, "(standard library)", "python3")
                rows[("module", mod)][5] = "standard library"
                continue
            path = None
            try:
                import importlib.util
                spec = importlib.util.find_spec(mod)
                path = spec.origin if spec and spec.origin not in (None, "namespace") else \
                    (list(spec.submodule_search_locations)[0] if spec and spec.submodule_search_locations else None)
            except (ImportError, ValueError):
                path = None
            pkg = dpkg_package(path) if path else None
            judge("module", mod, where, path, pkg)

    for kind, name, path, pkg, wheres, why in sorted(rows.values()):
        if why is None:
            bad.append((kind, name, pkg, wheres))
        if listing:
            print(f"{kind}\t{name}\t{pkg}\t{why or 'NOT ALLOWED'}\t{path}\t{wheres[0]}"
                  + (f" (+{len(wheres) - 1})" if len(wheres) > 1 else ""))
    for kind, name, pkg, wheres in bad:
        src = f"package {pkg}, which setup.sh does not install" if pkg != "-" else \
            "no package found (not installed here, and not in MAPPING)"
        print(f"check-packages: {wheres[0]}: {kind} '{name}': {src}", file=sys.stderr)
    if not listing:
        print(f"check-packages: {len(rows)} programs and modules, {len(bad)} from no allowed package")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
