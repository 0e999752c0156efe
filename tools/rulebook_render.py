"""A rulebook (tools/rulebook.py) written out: as Markdown, or as one self-contained HTML page
(its style inline, no script, font or image fetched from anywhere), each with a table of
contents whose every entry links to its section.

Texts are the book's own words; the few marks they carry are Markdown's (`*x*`, `**x**`,
`` `x` `` and `[text](#anchor)` links), which the HTML writer turns into tags after escaping
everything else.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re

from .rulebook import Book, Bullets, Changed, Section, Table

STYLE = """
body { font: 16px/1.5 Georgia, 'Times New Roman', serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem;
       color: #222; background: #fdfcf8; }
h1 { font-size: 2rem; margin-bottom: 0; } .subtitle { color: #666; margin-top: .2rem; }
h2 { border-bottom: 1px solid #ccc; margin-top: 2.2rem; } h3 { margin-top: 1.6rem; }
table { border-collapse: collapse; margin: .8rem 0; font-size: .92rem; }
th, td { border: 1px solid #ccc; padding: .25rem .5rem; text-align: left; vertical-align: top; }
th { background: #f0ece0; } code { font-family: Menlo, Consolas, monospace; font-size: .9em; }
nav { background: #f4f1e8; padding: .5rem 1.2rem; border: 1px solid #e2dccb; }
nav ul { margin: .2rem 0; } .changed { background: #fff3c4; border-left: 4px solid #d9a400;
       padding: .3rem .8rem; margin: .6rem 0; }
.changed p { margin: .2rem 0; font-weight: bold; } .changed ul { margin: .2rem 0; }
"""


def style_hash() -> str:
    """The page's inline style as a Content-Security-Policy hash, so a server can allow it alone."""
    return base64.b64encode(hashlib.sha256(STYLE.encode("utf-8")).digest()).decode("ascii")


# ---- Markdown -------------------------------------------------------------------------------------------

def markdown(book: Book) -> str:
    lines = [f"# {book.title}", "", f"*{book.subtitle}*" if book.subtitle else "", "", "## Contents", ""]
    lines += [f"{'  ' * depth}- [{section.title}](#{section.anchor})" for depth, section in _walk(book.sections)]
    for depth, section in _walk(book.sections):
        lines += ["", f"{'#' * (depth + 2)} {section.title} <a id=\"{section.anchor}\"></a>", ""]
        for block in section.blocks:
            lines += _md_block(block) + [""]
    return "\n".join(line.rstrip() for line in lines).rstrip() + "\n"


def _md_block(block: object) -> list[str]:
    if isinstance(block, Table):
        cell = _md_cell
        return ([f"| {' | '.join(cell(h) for h in block.header)} |", "|" + "---|" * len(block.header)]
                + [f"| {' | '.join(cell(c) for c in row)} |" for row in block.rows])
    if isinstance(block, Bullets):
        return [f"{'  ' * depth}- {text}" for depth, text in block.items]
    if isinstance(block, Changed):
        return ["> **Changed in this file:**", ">"] + [f"> - {line}" for line in block.lines]
    return [str(block)]


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _walk(sections: list[Section], depth: int = 0) -> list[tuple[int, Section]]:
    """Every section with its depth, in reading order."""
    found = []
    for section in sections:
        found.append((depth, section))
        found += _walk(section.children, depth + 1)
    return found


# ---- HTML ----------------------------------------------------------------------------------------------

def html_page(book: Book) -> str:
    parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             f"<title>{html.escape(book.title)}</title>", f"<style>{STYLE}</style>", "</head>", "<body>",
             f"<h1>{html.escape(book.title)}</h1>"]
    if book.subtitle:
        parts.append(f'<p class="subtitle">{html.escape(book.subtitle)}</p>')
    parts.append('<nav aria-label="Contents"><h2 id="contents">Contents</h2>' + _toc(book.sections) + "</nav>")
    parts += _html_sections(book.sections, 2)
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"


def _toc(sections: list[Section]) -> str:
    if not sections:
        return ""
    items = "".join(f'<li><a href="#{html.escape(s.anchor)}">{html.escape(s.title)}</a>{_toc(s.children)}</li>'
                    for s in sections)
    return f"<ul>{items}</ul>"


def _html_sections(sections: list[Section], level: int) -> list[str]:
    out = []
    for section in sections:
        tag = f"h{min(level, 6)}"
        out.append(f'<section><{tag} id="{html.escape(section.anchor)}">{html.escape(section.title)}</{tag}>')
        out += [_html_block(block) for block in section.blocks]
        out += _html_sections(section.children, level + 1)
        out.append("</section>")
    return out


def _html_block(block: object) -> str:
    if isinstance(block, Table):
        head = "".join(f"<th>{_inline(h)}</th>" for h in block.header)
        rows = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in row) + "</tr>" for row in block.rows)
        return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
    if isinstance(block, Bullets):
        return _nested(block.items)
    if isinstance(block, Changed):
        items = "".join(f"<li>{_inline(line)}</li>" for line in block.lines)
        return f'<div class="changed"><p>Changed in this file:</p><ul>{items}</ul></div>'
    return f"<p>{_inline(str(block))}</p>"


def _nested(items: list[tuple[int, str]]) -> str:
    """Depth-tagged items as nested lists, every tag closed."""
    out, depth = ["<ul>"], 0
    for i, (level, text) in enumerate(items):
        while depth < level:
            out.append("<ul>")
            depth += 1
        while depth > level:
            out.append("</ul></li>")
            depth -= 1
        following = items[i + 1][0] if i + 1 < len(items) else 0
        out.append(f"<li>{_inline(text)}" + ("" if following > level else "</li>"))
    while depth > 0:
        out.append("</ul></li>")
        depth -= 1
    out.append("</ul>")
    return "".join(out)


_MARKS = [(re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
          (re.compile(r"\*\*([^*]+)\*\*"), r"<strong>\1</strong>"),
          (re.compile(r"\*([^*]+)\*"), r"<em>\1</em>"),
          (re.compile(r"\[([^\]]+)\]\(#([a-z0-9-]+)\)"), r'<a href="#\2">\1</a>')]


def _inline(text: str) -> str:
    """Escaped text with the book's few Markdown marks as tags."""
    out = html.escape(str(text), quote=False)
    for pattern, tag in _MARKS:
        out = pattern.sub(tag, out)
    return out
