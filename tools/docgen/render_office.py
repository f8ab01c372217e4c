"""DocSpec -> DOCX (python-docx), Markdown and HTML, with the same content as the PDF.

DOCX puts the running header/footer in the section header/footer parts (as Word does) and
sometimes numbers questions with Word's automatic list numbering; Markdown and HTML use
bold markers or ordered lists (only where the numbering is consecutive, as a list renumbers).
"""

from __future__ import annotations

import html
from pathlib import Path

from tools.docgen.render_typst import marker
from tools.docgen.specs import DocSpec, Question


def _consecutive(spec: DocSpec) -> bool:
    return bool(spec.questions) and [q.number for q in spec.questions] == list(range(1, len(spec.questions) + 1))


def write_docx(spec: DocSpec, path: Path) -> None:
    import docx
    from docx.enum.text import WD_ALIGN_PARAGRAPH, WD_BREAK
    from docx.shared import Pt

    doc = docx.Document()
    doc.sections[0].header.paragraphs[0].text = f"{spec.header_left}\t\t{spec.header_right}"
    doc.sections[0].footer.paragraphs[0].text = spec.style.get("footer", "{p}").replace("{p}", "").replace("{total}", "")
    for line in spec.cover_lines:
        para = doc.add_paragraph()
        para.alignment = WD_ALIGN_PARAGRAPH.CENTER
        run = para.add_run(line)
        run.bold, run.font.size = True, Pt(16)
    if spec.instructions and spec.style.get("instructions_label"):
        doc.add_paragraph().add_run(spec.style["instructions_label"]).bold = True
    for k, line in enumerate(spec.instructions, start=1):
        doc.add_paragraph(f"{k}. {line}" if spec.style.get("numbered_instructions") else line)
    doc.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
    auto = spec.style.get("docx_auto_numbering") and _consecutive(spec) and spec.marker in ("{n}.", "{n}．")
    for q in spec.questions:
        if auto:
            para = doc.add_paragraph(q.stem, style="List Number")
        else:
            para = doc.add_paragraph()
            label = marker(spec, q.number)
            run = para.add_run(label + ("\t" if "\t" in spec.marker else " "))
            run.bold = spec.style.get("bold_markers", True)
            para.add_run(q.stem)
        for option in q.options:
            doc.add_paragraph(option)
        for part in q.parts:
            doc.add_paragraph(part)
    for section in spec.sections:
        doc.add_heading(section.heading, level=2)
        for p in section.paragraphs:
            doc.add_paragraph(p)
        for rows in section.tables:
            width = max(len(r) for r in rows)
            table = doc.add_table(rows=len(rows), cols=width)
            for r, row in enumerate(rows):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = cell
    doc.core_properties.title = spec.header_left
    doc.save(str(path))


def markdown_text(spec: DocSpec) -> str:
    out = [f"**{line}**\n" for line in spec.cover_lines]
    if spec.instructions and spec.style.get("instructions_label"):
        out.append(f"**{spec.style['instructions_label']}**\n")
    for k, line in enumerate(spec.instructions, start=1):
        out.append(f"{k}. {line}" if spec.style.get("numbered_instructions") else f"- {line}")
    out.append("\n---\n")
    lists = spec.style.get("markdown_lists") and _consecutive(spec) and spec.marker == "{n}."
    for q in spec.questions:
        label = marker(spec, q.number)
        head = f"{q.number}. {_md(q.stem)}" if lists else f"**{label}** {_md(q.stem)}"
        out.append(head + "\n")
        out += [f"    {_md(o)}\n" if lists else f"{_md(o)}\n" for o in q.options]
        out += [f"    {_md(p)}\n" if lists else f"{_md(p)}\n" for p in q.parts]
    for section in spec.sections:
        out.append(f"## {section.heading}\n")
        out += [_md(p) + "\n" for p in section.paragraphs]
        for rows in section.tables:
            width = max(len(r) for r in rows)
            rows = [r + [""] * (width - len(r)) for r in rows]
            out.append("| " + " | ".join(_cell(c) for c in rows[0]) + " |")
            out.append("|" + "---|" * width)
            out += ["| " + " | ".join(_cell(c) for c in r) + " |" for r in rows[1:]]
            out.append("")
    return "\n".join(out) + "\n"


def _md(text: str) -> str:
    return text.replace("\\", "\\\\").replace("*", "\\*").replace("_", "\\_").replace("#", "\\#").replace("<", "&lt;")


def _cell(text: str) -> str:
    return _md(text).replace("|", "\\|")


def html_text(spec: DocSpec) -> str:
    e = html.escape
    out = [f"<!DOCTYPE html><html lang=\"{spec.language}\"><head><meta charset=\"utf-8\"><title>{e(spec.header_left)}</title>"
           "</head><body>", f"<header>{e(spec.header_left)} — {e(spec.header_right)}</header>", "<section class=\"cover\">"]
    out += [f"<p><strong>{e(line)}</strong></p>" for line in spec.cover_lines]
    if spec.instructions and spec.style.get("instructions_label"):
        out.append(f"<h3>{e(spec.style['instructions_label'])}</h3>")
    if spec.instructions:
        tag = "ol" if spec.style.get("numbered_instructions") else "ul"
        out.append(f"<{tag}>" + "".join(f"<li>{e(i)}</li>" for i in spec.instructions) + f"</{tag}>")
    out.append("</section><main>")
    lists = spec.style.get("markdown_lists") and spec.marker == "{n}."
    if lists and spec.questions:
        out.append("<ol>")
    for q in spec.questions:
        extra = "".join(f"<p>{e(x)}</p>" for x in q.options + q.parts)
        if lists:
            out.append(f"<li value=\"{q.number}\"><p>{e(q.stem)}</p>{extra}</li>")
        else:
            out.append(f"<div class=\"question\"><p><b>{e(marker(spec, q.number))}</b> {e(q.stem)}</p>{extra}</div>")
    if lists and spec.questions:
        out.append("</ol>")
    for section in spec.sections:
        out.append(f"<h2>{e(section.heading)}</h2>" + "".join(f"<p>{e(p)}</p>" for p in section.paragraphs))
        for rows in section.tables:
            out.append("<table>" + "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in rows)
                       + "</table>")
    out.append(f"</main><footer>{e(spec.header_left)}</footer></body></html>")
    return "\n".join(out)


def write_text(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
