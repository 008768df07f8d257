#!/usr/bin/env python3
# Lists the functions longer than N lines (signature to closing brace) in C++ sources, longest
# first: issue 35's measure. Literals and comments are blanked before braces are counted.
# Usage: python3 scripts/long-functions.py [N=120] [folders...=studio-core ui app]
import sys, re, os
limit = int(sys.argv[1]) if len(sys.argv) > 1 else 120
roots = sys.argv[2:] or ["studio-core", "ui", "app"]
def blank(src):
    out = []; i = 0; n = len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i); j = n if j < 0 else j; out.append(" " * (j - i)); i = j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2); j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", src[i:j])); i = j
        elif src.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', src[i:]); end = src.find(")" + m.group(1) + '"', i)
            end = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", src[i:end])); i = end
        elif c in "\"'":
            if c == "'" and i > 0 and (src[i-1].isalnum()):  # digit separator 1'000
                out.append(c); i += 1; continue
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            out.append(c + " " * (j - i - 1) + c); i = j + 1
        else:
            out.append(c); i += 1
    return "".join(out)
res = []
for root in roots:
    for d, _, fs in os.walk(root):
        for f in fs:
            if not f.endswith((".cpp", ".h")): continue
            p = os.path.join(d, f)
            text = blank(open(p, encoding="utf-8", errors="replace").read())
            # statements: track depth; record for each '{' the text since last ; { }
            depth_kinds = []; stmt_start = 0; i = 0
            starts = []
            for i, c in enumerate(text):
                if c == "{":
                    stmt = text[stmt_start:i]
                    s = stmt.strip()
                    inside_func = any(k == "f" for k, _ in depth_kinds)
                    kind = "o"
                    if not inside_func and "(" in s and not re.match(r"^(if|for|while|switch|else|do|namespace|class|struct|enum|union)\b", s) and not re.search(r"=\s*$", s) and not re.match(r"^(namespace|extern)", s):
                        kind = "f"
                    elif re.match(r"^(namespace|extern)", s) or re.match(r"^(class|struct|union)\b", s.split("\n")[-1].strip()) or re.search(r"\b(class|struct)\s+\w+[^;()]*$", s):
                        kind = "n"
                    line = text.count("\n", 0, i + 1 - len(stmt) + (len(stmt) - len(stmt.lstrip()))) + 1
                    depth_kinds.append((kind, (line, s.split("\n")[0][:80])))
                    stmt_start = i + 1
                elif c == "}":
                    if depth_kinds:
                        kind, (line, sig) = depth_kinds.pop()
                        if kind == "f":
                            end = text.count("\n", 0, i) + 1
                            if end - line + 1 > limit: res.append((end - line + 1, p, line, sig))
                    stmt_start = i + 1
                elif c == ";":
                    stmt_start = i + 1
for r in sorted(res, reverse=True): print(*r, sep="  ")
print(len(res), "functions over", limit)
