"""Each parser on small documents built here: PDF (Typst), DOCX (python-docx), Markdown, HTML, text."""

from __future__ import annotations

import pytest

from services.ingest.blocks import BlockKind
from services.ingest.parsers.dispatch import parse_bytes
from tests.unit.ingest.conftest import docx_bytes, typ_string

pytestmark = pytest.mark.unit

WORDS = ("The electromagnetic interaction between charged particles determines the structure of atoms and "
         "molecules, while thermodynamic considerations govern macroscopic behaviour. ")


def _two_column_paper(pages: int = 3) -> str:
    body = []
    for n in range(1, 9 * pages):
        body.append(f"#par[#strong[{typ_string(f'{n}.')}] #{typ_string(f'Question {n} text. ' + WORDS * 2)}]")
    return (
        '#set page(paper: "a5", margin: (x: 1.5cm, y: 2cm), columns: 2, '
        'header: [#set text(size: 7pt); #"Physics Paper 2" #h(1fr) #"Practice"], '
        'footer: context [#set text(size: 7pt); #h(1fr) #("Page " + str(here().page())) #h(1fr)])\n'
        '#set text(size: 8pt, hyphenate: true, lang: "en")\n#set par(justify: true)\n'
        '#heading(level: 1)[#"Section A"]\n' + "\n".join(body)
    )


def _raw_text(data: bytes) -> str:
    import pypdfium2

    with pypdfium2.PdfDocument(data) as pdf:
        return "".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))


def test_pdf_two_columns_headers_hyphenation_pages(typst_pdf):
    data = typst_pdf(_two_column_paper())
    assert any(mark in _raw_text(data) for mark in ("\ufffe", "\x02", "-\r\n"))  # the typesetter did hyphenate
    parsed = parse_bytes(data, "paper.pdf")
    texts = [b.text for b in parsed.blocks]
    numbered = [t for t in texts if t[:3].rstrip(".").strip().isdigit()]
    assert [int(t.split(".")[0]) for t in numbered] == list(range(1, len(numbered) + 1))  # reading order
    assert not any("Physics Paper 2" in t or t.startswith("Page ") for t in texts)      # furniture removed
    joined = " ".join(texts)
    assert "electromagnetic" in joined and "thermodynamic" in joined                  # hyphenation joined
    assert "electro- magnetic" not in joined and "thermo- dynamic" not in joined
    assert parsed.page_count >= 2 and {b.page for b in parsed.blocks} >= {1, 2}
    assert parsed.blocks[0].kind is BlockKind.HEADING and parsed.blocks[0].text == "Section A"


def test_pdf_keeps_maths_and_cjk(typst_pdf):
    src = '#set text(font: ("Libertinus Serif", "WenQuanYi Micro Hei"))\n#par[#"1. 已知 x² ≤ π，求 √2 的值。"]\n'
    text = parse_bytes(typst_pdf(src), "zh.pdf").text()
    assert "x² ≤ π" in text and "√2" in text and "已知" in text


def test_docx_headings_tables_numbering_and_pages():
    from docx.enum.text import WD_BREAK

    def build(doc):
        doc.add_heading("Physics Paper", level=1)
        doc.add_paragraph("Answer all questions.")
        doc.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
        doc.add_paragraph("What is a force?", style="List Number")
        doc.add_paragraph("What is energy?", style="List Number")
        table = doc.add_table(rows=2, cols=2)
        table.cell(0, 0).text, table.cell(0, 1).text = "Question", "Answer"
        table.cell(1, 0).text, table.cell(1, 1).text = "1", "a push or a pull"
        doc.sections[0].header.paragraphs[0].text = "RUNNING HEADER"
    parsed = parse_bytes(docx_bytes(build), "paper.docx")
    kinds = [(b.kind, b.text, b.page) for b in parsed.blocks]
    assert kinds[0] == (BlockKind.HEADING, "Physics Paper", 1)
    assert (BlockKind.PARAGRAPH, "1. What is a force?", 2) in kinds and (BlockKind.PARAGRAPH, "2. What is energy?", 2) in kinds
    assert parsed.blocks[-1].rows == (("Question", "Answer"), ("1", "a push or a pull"))
    assert "RUNNING HEADER" not in parsed.text()


def test_markdown_lists_keep_numbers_and_tables():
    md = b"# Paper\n\n3. third item\n4. fourth\n\n**5** set-off label\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    blocks = parse_bytes(md, "paper.md").blocks
    assert [b.text for b in blocks[:4]] == ["Paper", "3. third item", "4. fourth", "5\tset-off label"]
    assert blocks[-1].kind is BlockKind.TABLE and blocks[-1].rows == (("a", "b"), ("1", "2"))


def test_html_skips_furniture_and_numbers_ordered_lists():
    html = ("<html><head><title>T</title></head><body><header>Running</header><nav>menu</nav><h2>Paper</h2>"
            "<ol start='4'><li>What <b>is</b> 2?</li><li value='9'>Nine</li></ol><p><strong>12</strong> Label</p>"
            "<table><tr><th>Q</th><th>Mark</th></tr><tr><td>1(a)</td><td>2</td></tr></table><footer>p 1</footer></body></html>")
    blocks = parse_bytes(html.encode(), "paper.html").blocks
    assert [b.text for b in blocks] == ["Paper", "4. What is 2?", "9. Nine", "12\tLabel", "| Q | Mark |\n| 1(a) | 2 |"]


def test_plain_text_paragraphs_and_form_feed_pages():
    text = "Physics Paper\n\n1. What is a\nforce-\nless body?\n2. Next\n\f3. On page two".encode()
    blocks = parse_bytes(text, "paper.txt").blocks
    assert [(b.text, b.page) for b in blocks] == [("Physics Paper", 1), ("1. What is a forceless body?", 1),
                                                   ("2. Next", 1), ("3. On page two", 2)]
    assert blocks[0].kind is BlockKind.HEADING
