#!/usr/bin/python3
"""Writes man(7) pages from `nfctap --experimental-dump-help` (used by scripts/package-deb.sh).

    manpages.py HELP.json OUTDIR VERSION

swift-argument-parser prints its command definitions as JSON with --experimental-dump-help: the
same data its generate-manual plugin renders. This writes nfctap.1 for the root command and
nfctap-<sub>.1 for each subcommand (nested ones as nfctap-<sub>-<sub>.1): name, synopsis,
description, options with their help, and SEE ALSO.
"""
import json
import os
import sys


def roff(text: str) -> str:
    """Escapes text for roff: backslashes, and a leading dot or quote on a line."""
    text = (text or "").replace("\\", "\\e")
    lines = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


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


def write_page(command: dict, path: list, outdir: str, version: str, see_also: list) -> None:
    name = "-".join(path)
    args = [a for a in command.get("arguments") or [] if a.get("shouldDisplay", True)]
    subs = [s for s in command.get("subcommands") or [] if s.get("shouldDisplay", True)]
    out = [f'.TH {name.upper()} 1 "" "nfctap {version}" "nfctap manual"',
           ".SH NAME", f"{name} \\- {roff(command.get('abstract', ''))}",
           ".SH SYNOPSIS", ".B " + " ".join(path)]
    items = [synopsis_item(a) for a in args]
    if subs:
        items.append("<subcommand>")
    if items:
        out.append(roff(" ".join(items)))
    discussion = command.get("discussion")
    if command.get("abstract") or discussion:
        out.append(".SH DESCRIPTION")
        out.append(roff(command.get("abstract", "")))
        # Paragraphs (blank-line separated) are filled; lines indented in the source stay as written.
        for paragraph in (discussion or "").split("\n\n"):
            if not paragraph.strip():
                continue
            if any(line.startswith((" ", "\t")) for line in paragraph.split("\n")):
                out += [".PP", ".nf", roff(paragraph), ".fi"]
            else:
                out += [".PP", roff(paragraph)]
    if args:
        out.append(".SH OPTIONS")
        for a in args:
            label = flag_names(a) or f"<{a.get('valueName', 'value')}>"
            if a.get("kind") == "option":
                label += f" <{a.get('valueName', 'value')}>"
            out += [".TP", ".B " + roff(label), roff(a.get("abstract", ""))]
            if a.get("defaultValue"):
                out.append(roff(f"(default: {a['defaultValue']})"))
            if a.get("discussion"):
                text = a["discussion"] if isinstance(a["discussion"], str) else json.dumps(a["discussion"])
                out.append(roff(text))
    if subs:
        out.append(".SH SUBCOMMANDS")
        for s in subs:
            out += [".TP", f".B {s['commandName']}", roff(s.get("abstract", "")),
                    f"See \\fB{name}-{s['commandName']}\\fR(1)."]
    related = [p for p in see_also if p != name]
    if related:
        out += [".SH SEE ALSO", ", ".join(f"\\fB{p}\\fR(1)" for p in related)]
    with open(os.path.join(outdir, name + ".1"), "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    for s in subs:
        write_page(s, path + [s["commandName"]], outdir, version, [name])


def main() -> None:
    if len(sys.argv) != 4:
        sys.exit("usage: manpages.py HELP.json OUTDIR VERSION")
    with open(sys.argv[1], encoding="utf-8") as f:
        root = json.load(f)["command"]
    subs = [s["commandName"] for s in root.get("subcommands") or [] if s.get("shouldDisplay", True)]
    see_also = [f"{root['commandName']}-{s}" for s in subs]
    write_page(root, [root["commandName"]], sys.argv[2], sys.argv[3], see_also)


if __name__ == "__main__":
    main()
