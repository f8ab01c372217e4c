"""DocSpec -> Typst source -> PDF: a cover page, then one- or two-column pages with running
header, footer and page number (issue 11: "typeset as real PDFs ... two-column pages,
running headers and footers, page numbers"). All text goes in as Typst string literals,
so nothing in the corpus is read as markup.
"""

from __future__ import annotations

from pathlib import Path

from tools.docgen.specs import DocSpec, Question

FONTS = '("Libertinus Serif", "New Computer Modern", "WenQuanYi Micro Hei")'
LANG = {"en": "en", "zh": "zh", "fr": "fr", "de": "de", "es": "es"}


def s(text: str) -> str:
    """A Typst string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def marker(spec: DocSpec, n: int) -> str:
    return spec.marker.replace("{n}", str(n)).replace("\t", "")


def render_typst(spec: DocSpec) -> str:
    st = spec.style
    footer = st.get("footer", "{p}").replace("{p}", '" + str(here().page()) + "').replace(
        "{total}", '" + str(counter(page).final().first()) + "')
    out = [
        f'#set page(paper: "a4", margin: (x: 2cm, top: 2.6cm, bottom: 2.4cm))',
        f'#set text(font: {FONTS}, size: {st.get("font_size", 10.5)}pt, lang: "{LANG.get(spec.language, "en")}")',
        f'#set par(justify: {str(st.get("justify", True)).lower()}, spacing: 0.9em)',
        "#set heading(numbering: none)",
        "#align(center)[#v(4cm)",
    ]
    for i, line in enumerate(spec.cover_lines):
        size = 20 if i == len(spec.cover_lines) // 2 else 14
        out.append(f'#text(size: {size}pt, weight: "bold")[#{s(line)}] \\ #v(0.4cm)')
    out.append("]")
    if spec.instructions:
        out.append("#v(2cm)")
        if st.get("instructions_label"):
            out.append(f'#text(weight: "bold")[#{s(st["instructions_label"])}]')
        for k, line in enumerate(spec.instructions, start=1):
            label = f"{k}." if st.get("numbered_instructions") else "•"
            out.append(f"#par[#{s(label)} #{s(line)}]")
    out += [
        "#pagebreak()",
        f'#set page(columns: {st.get("columns", 2)}, '
        f'header: [#set text(size: 8pt); #{s(spec.header_left)} #h(1fr) #{s(spec.header_right)} '
        '#v(-0.5em) #line(length: 100%, stroke: 0.4pt)], '
        f'footer: context [#set text(size: 8pt); #h(1fr) #("{footer}") #h(1fr)])',
    ]
    for q in spec.questions:
        out.append(_question(spec, q))
    for section in spec.sections:
        out.append(f"#heading(level: 2)[#{s(section.heading)}]")
        out += [f"#par[#{s(p)}]" for p in section.paragraphs]
        for table in section.tables:
            width = max(len(r) for r in table)
            cells = ", ".join(f"[#{s(c)}]" for r in table for c in (r + [""] * (width - len(r))))
            out.append(f"#table(columns: {width}, {cells})")
    return "\n".join(out) + "\n"


def _question(spec: DocSpec, q: Question) -> str:
    label = marker(spec, q.number)
    label_markup = f"#strong[#{s(label)}]" if spec.style.get("bold_markers", True) else f"#{s(label)}"
    body = [f"#{s(q.stem)}"]
    if q.options:
        if spec.style.get("options_inline"):
            body.append("#linebreak() " + " #h(1em) ".join(f"#{s(o)}" for o in q.options))
        else:
            body += [f"#linebreak() #{s(o)}" for o in q.options]
    parts = "".join(f"\n#pad(left: 1.2em)[#{s(p)}]" for p in q.parts)
    if "\t" in spec.marker:  # Cambridge style: number in its own column, text hanging beside it
        return f"#grid(columns: (2.2em, 1fr), column-gutter: 0pt, [{label_markup}], [{' '.join(body)}{parts}])\n"
    return f"#par[{label_markup} {' '.join(body)}]{parts}\n"


def write_pdf(spec: DocSpec, path: Path) -> None:
    import typst

    source = path.with_suffix(".typ")
    source.write_text(render_typst(spec), encoding="utf-8")
    typst.compile(str(source), output=str(path))
    source.unlink()
