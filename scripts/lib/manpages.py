#!/usr/bin/python3
"""Writes nfctap's man pages (used by scripts/package-deb.sh).

    manpages.py HELP.json SUPPLEMENTS OUTDIR VERSION

HELP.json is `nfctap --experimental-dump-help`: swift-argument-parser's command definitions, the
data its generate-manual plugin renders. From it come NAME, SYNOPSIS, DESCRIPTION, OPTIONS and
EXIT STATUS (the help text's "Exit codes:" paragraph, as a list). SUPPLEMENTS is packaging/man/:
FILES, ENVIRONMENT, EXAMPLES and SEE ALSO per page, with common.txt for what a page lacks (its
README gives the format); *.5.txt there are whole section-5 pages.

Writes OUTDIR/man1/nfctap.1, nfctap-<sub>.1 for each subcommand (nested ones nfctap-<sub>-<sub>.1)
and OUTDIR/man5/*.5. The help text's markdown quotes become bold, and what names the source tree
(README "Section", Examples/kiosk.json) names the installed documentation instead.
"""
import json
import os
import re
import sys

SECTION_ORDER = ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "SUBCOMMANDS", "EXIT STATUS", "FILES",
                 "ENVIRONMENT", "EXAMPLES", "SEE ALSO"]
DOC = "/usr/share/doc/nfctap"
# Source-tree names in the help text, and what an installed system has instead.
SOURCE_TREE = [
    (re.compile(r'README "([^"]+)"'), rf'the "\1" section of {DOC}/README.md'),
    (re.compile(r"\bExamples/kiosk\.json documents the file\b"),
     f"nfctap-kiosk.json(5) documents the file ({DOC}/examples/kiosk.json is an example)"),
    (re.compile(r"\bExamples/kiosk\.json\b"), f"{DOC}/examples/kiosk.json"),
]
EXIT_PARAGRAPH = re.compile(r"\bExit (?:codes|status)?:?\s*(?=\d)")


def escape(text: str) -> str:
    """roff-safe text: backslashes, option dashes as \\-, a leading dot or quote defused."""
    text = (text or "").replace("\\", "\\e")
    text = re.sub(r"(?<![\w-])(--?)(?=[A-Za-z])", lambda m: m.group(1).replace("-", "\\-"), text)
    # A long word (a JSON object) may break after its commas: \\: is a break point without a hyphen.
    text = re.sub(r"\S{40,}", lambda m: m.group(0).replace(",", ",\\:"), text)
    lines = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def inline(text: str) -> str:
    """Escaped text with `code` in bold and the source tree's names replaced."""
    for pattern, replacement in SOURCE_TREE:
        text = pattern.sub(replacement, text)
    parts = text.split("`")
    out = []
    for i, part in enumerate(parts):
        out.append(f"\\fB{escape(part)}\\fR" if i % 2 else escape(part))
    return "".join(out)


def flag_names(arg: dict) -> str:
    names = []
    for n in arg.get("names") or []:
        prefix = {"long": "--", "short": "-", "longWithSingleDash": "-"}.get(n.get("kind"), "--")
        names.append(prefix + n["name"])
    return ", ".join(names)


def synopsis_item(arg: dict) -> str:
    value = arg.get("valueName") or "value"
    if arg.get("kind") == "positional":
        item = f"<{value}>"
    else:
        names = arg.get("names") or []
        preferred = arg.get("preferredName") or (names[0] if names else {"kind": "long", "name": value})
        prefix = "-" if preferred.get("kind") == "short" else "--"
        item = prefix + preferred["name"]
        if arg.get("kind") == "option":
            item += f" <{value}>"
    if arg.get("isRepeating"):
        item += " ..."
    return f"[{item}]" if arg.get("isOptional") else item


def split_exit_status(discussion: str):
    """(description without the exit paragraph, [(code, meaning)]) from the help text."""
    paragraphs = discussion.split("\n\n")
    for i, paragraph in enumerate(paragraphs):
        m = EXIT_PARAGRAPH.search(paragraph)
        if not m:
            continue
        listing = " ".join(paragraph[m.end():].split())
        items = re.split(r",\s+(?=\d+ )", listing)
        codes = []
        for item in items:
            code, _, meaning = item.partition(" ")
            codes.append((code, meaning.rstrip(".") + "."))
        rest = paragraph[: m.start()].rstrip()
        paragraphs[i] = rest
        return "\n\n".join(p for p in paragraphs if p.strip()), codes
    return discussion, []


def parse_supplement(path: str) -> dict:
    """{SECTION: [roff lines]} from a packaging/man file (format in packaging/man/README)."""
    sections, current, block = {}, None, []

    def flush():
        if block and current is not None:
            sections[current] += render_block(block)
        block.clear()

    with open(path, encoding="utf-8") as f:
        for raw in f.read().split("\n"):
            line = raw.rstrip()
            if line.startswith("== "):
                flush()
                current = line[3:].strip().upper()
                sections[current] = []
            elif line.startswith(".TH "):
                sections["TH"] = [line]
            elif not line:
                flush()
            else:
                block.append(line)
        flush()
    return sections


def render_block(block: list) -> list:
    """One blank-line separated block: tagged paragraphs, example lines and plain text."""
    out, text = [], []

    def flush_text():
        if text:
            out.extend([".PP", inline(" ".join(text))])
            text.clear()

    i = 0
    while i < len(block):
        line = block[i]
        if line.startswith("* "):
            flush_text()
            out += [".TP", "\\fB" + inline(line[2:]) + "\\fR"]
            body = []
            while i + 1 < len(block) and not block[i + 1].startswith(("* ", "$ ")):
                i += 1
                body.append(block[i])
            out.append(inline(" ".join(body)))
        elif line.startswith("$ "):
            flush_text()
            examples = [line[2:]]
            while i + 1 < len(block) and block[i + 1].startswith("$ "):
                i += 1
                examples.append(block[i][2:])
            out += [".PP", ".RS 4", ".nf"] + [escape(e) for e in examples] + [".fi", ".RE"]
        else:
            text.append(line)
        i += 1
    flush_text()
    return out


def see_also(names: list) -> list:
    refs = []
    for name in names:
        m = re.fullmatch(r"(.+)\((\d)\)", name.strip())
        if m:
            refs.append(f"\\fB{escape(m.group(1))}\\fR({m.group(2)})")
    return [",\n".join(refs)] if refs else []


def description(command: dict, discussion: str) -> list:
    out = [inline(command.get("abstract", ""))]
    # Paragraphs (blank-line separated) are filled; lines indented in the source stay as written.
    for paragraph in discussion.split("\n\n"):
        if not paragraph.strip():
            continue
        if any(line.startswith((" ", "\t")) for line in paragraph.split("\n")):
            out += [".PP", ".nf", inline(paragraph), ".fi"]
        else:
            out += [".PP", inline(paragraph)]
    return out


def write_page(command: dict, path: list, supplements: str, outdir: str, version: str, root_exit: list) -> list:
    """Writes one page and its subcommands' pages; returns the names of the pages written."""
    name = "-".join(path)
    args = [a for a in command.get("arguments") or [] if a.get("shouldDisplay", True)]
    subs = [s for s in command.get("subcommands") or []
            if s.get("shouldDisplay", True) and s.get("commandName") != "help"]
    discussion, codes = split_exit_status(command.get("discussion") or "")
    if not codes:
        codes = root_exit
    common = parse_supplement(os.path.join(supplements, "common.txt"))
    own_path = os.path.join(supplements, name + ".txt")
    own = parse_supplement(own_path) if os.path.exists(own_path) else {}
    if not own:
        print(f"manpages.py: no {own_path}: {name}(1) has no EXAMPLES of its own", file=sys.stderr)

    sections = {
        "NAME": [f"{name} \\- {inline(command.get('abstract', ''))}"],
        "SYNOPSIS": [".B " + " ".join(path)] + [escape(" ".join(
            [synopsis_item(a) for a in args] + (["<subcommand>"] if subs else [])))],
        "DESCRIPTION": description(command, discussion),
    }
    options = []
    for a in args:
        label = flag_names(a) or f"<{a.get('valueName', 'value')}>"
        if a.get("kind") == "option":
            label += f" <{a.get('valueName', 'value')}>"
        options += [".TP", ".B " + escape(label), inline(a.get("abstract", ""))]
        if a.get("defaultValue"):
            options.append(escape(f"(default: {a['defaultValue']})"))
        if a.get("discussion"):
            text = a["discussion"] if isinstance(a["discussion"], str) else json.dumps(a["discussion"])
            options.append(inline(text))
    sections["OPTIONS"] = options
    if subs:
        sections["SUBCOMMANDS"] = [line for s in subs for line in
                                   (".TP", f".B {s['commandName']}", inline(s.get("abstract", "")),
                                    f"See \\fB{name}\\-{s['commandName']}\\fR(1).")]
    sections["EXIT STATUS"] = [line for code, meaning in codes for line in (".TP", f".B {code}", inline(meaning))]
    for section in ("FILES", "ENVIRONMENT", "EXAMPLES"):
        sections[section] = own.get(section) or common.get(section) or []
    related = ([f"nfctap-{s['commandName']}(1)" for s in subs] if len(path) == 1 else [f"{path[0]}(1)"])
    if len(path) > 2:
        related.append("-".join(path[:-1]) + "(1)")
    for extra in (own.get("SEE ALSO") or []):
        related += [r for r in extra.split(",") if r.strip()]
    sections["SEE ALSO"] = see_also(related)

    # Left-aligned (ragged right): JSON examples are long words that a justified line cannot take.
    out = [f'.TH "{name.upper()}" 1 "" "nfctap {version}" "nfctap manual"', ".ad l"]
    for section in SECTION_ORDER:
        if sections.get(section):
            out += [f".SH {section}"] + sections[section]
    os.makedirs(os.path.join(outdir, "man1"), exist_ok=True)
    with open(os.path.join(outdir, "man1", name + ".1"), "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    written = [name]
    for s in subs:
        written += write_page(s, path + [s["commandName"]], supplements, outdir, version, root_exit)
    return written


def write_file_page(source: str, outdir: str, version: str) -> None:
    """A whole section-5 page from its supplement (NAME and SYNOPSIS as written)."""
    sections = parse_supplement(source)
    page = os.path.basename(source)[: -len(".5.txt")]
    out = [f'.TH "{page.upper()}" 5 "" "nfctap {version}" "nfctap manual"', ".ad l"]
    for section, lines in sections.items():
        if section == "TH":
            continue
        if section == "NAME":
            out += [".SH NAME", " ".join(l for l in lines if not l.startswith(".")).replace(" - ", " \\- ", 1)]
        elif section == "SEE ALSO":
            out += [".SH SEE ALSO"] + see_also([r for l in lines if not l.startswith(".") for r in l.split(",")])
        else:
            out += [f".SH {section}"] + lines
    os.makedirs(os.path.join(outdir, "man5"), exist_ok=True)
    with open(os.path.join(outdir, "man5", page + ".5"), "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def main() -> None:
    if len(sys.argv) != 5:
        sys.exit("usage: manpages.py HELP.json SUPPLEMENTS OUTDIR VERSION")
    help_json, supplements, outdir, version = sys.argv[1:]
    with open(help_json, encoding="utf-8") as f:
        root = json.load(f)["command"]
    _, root_exit = split_exit_status(root.get("discussion") or "")
    write_page(root, [root["commandName"]], supplements, outdir, version, root_exit)
    for entry in sorted(os.listdir(supplements)):
        if entry.endswith(".5.txt"):
            write_file_page(os.path.join(supplements, entry), outdir, version)


if __name__ == "__main__":
    main()
