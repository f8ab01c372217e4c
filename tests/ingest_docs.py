"""Documents the ingest tests make for themselves (never committed binaries): a Typst-typeset exam
paper with a cover, its mark scheme in DOCX, textbook Markdown, and every kind of bad file.

The papers name the demo corpus's boards and papers (Northfield Examinations Board, "Northfield
Physics Paper 1"), so a gate that indexes the demo corpus (the test meshes' vocabulary) reads
their covers fully.
"""

from __future__ import annotations

import io
import random
import zipfile
from pathlib import Path

QUESTIONS_2019 = [
    "A car of mass 1200 kg accelerates uniformly from rest to 15 m/s in 6 s. Calculate its acceleration.",
    "A ball is dropped from a height of 2.5 m. Using conservation of energy, find its speed just before it lands.",
    "Explain why a skydiver reaches a terminal velocity, referring to the forces acting on her.",
    "A resistor of 12 ohms carries a current of 0.5 A. Calculate the potential difference across it.",
]
MARKS_2019 = [
    "a = (v - u) / t = 15 / 6 = 2.5 m/s^2 (1 mark for the equation, 1 mark for the answer).",
    "mgh = 1/2 m v^2, so v = sqrt(2 g h) = 7.0 m/s (2 marks).",
    "Drag increases with speed until it equals her weight; the resultant force is then zero (2 marks).",
    "V = I R = 0.5 x 12 = 6 V (1 mark).",
]


def exam_markdown(year: int = 2019, questions: list[str] | None = None) -> str:
    qs = questions or QUESTIONS_2019
    body = "\n\n".join(f"{i}. {q}" for i, q in enumerate(qs, start=1))
    return (f"# Northfield Physics Paper 1\n\nNorthfield Examinations Board\n\nGrade 10 Physics, {year}\n\n"
            f"Instructions\n\n- Answer all questions.\n\n{body}\n")


def exam_typst(year: int = 2019, questions: list[str] | None = None) -> str:
    qs = questions or QUESTIONS_2019
    items = "\n\n".join(f"{i}. {q}" for i, q in enumerate(qs, start=1))
    return (
        '#set page(paper: "a4", header: [Northfield Physics Paper 1 #h(1fr) ' + str(year) + '], '
        'footer: context [#h(1fr) Page #counter(page).display() #h(1fr)])\n'
        '#set par(justify: true)\n'
        '#align(center)[#text(size: 20pt)[Northfield Examinations Board] \\ '
        f'#text(size: 16pt)[Northfield Physics Paper 1] \\ Grade 10 Physics \\ {year}]\n'
        '#pagebreak()\n' + items + "\n"
    )


def typst_pdf(source: str, folder: Path) -> bytes:
    import typst

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"doc{random.getrandbits(40):x}.typ"
    path.write_text(source, encoding="utf-8")
    out = path.with_suffix(".pdf")
    typst.compile(str(path), output=str(out))
    return out.read_bytes()


def docx_bytes(paragraphs: list[tuple[str, str]], padding: int = 0) -> bytes:
    """A DOCX (python-docx): (style, text) paragraphs; ``padding`` bytes of incompressible data in an
    extra zip part that Word ignores, to make a file large without making it long."""
    import docx

    document = docx.Document()
    for style, text in paragraphs:
        if style.startswith("Heading"):
            document.add_heading(text, level=int(style[-1]))
        else:
            document.add_paragraph(text)
    buf = io.BytesIO()
    document.save(buf)
    if padding:
        with zipfile.ZipFile(buf, "a", compression=zipfile.ZIP_STORED) as z:
            z.writestr("customXml/padding.bin", random.Random(7).randbytes(padding))
    return buf.getvalue()


def mark_scheme_docx(year: int = 2019) -> bytes:
    paras = [("Heading1", f"Northfield Physics Paper 1 {year} Mark Scheme"), ("Normal", "Northfield Examinations Board"),
             ("Normal", f"Grade 10 Physics, {year}")]
    paras += [("Normal", f"{i}. {m}") for i, m in enumerate(MARKS_2019, start=1)]
    return docx_bytes(paras)


TEXTBOOK_MD = """# Forces and Motion

## Newton's second law

The resultant force on an object equals its mass times its acceleration. A larger force gives a larger
acceleration; a larger mass gives a smaller one. Engineers use this to size the brakes of a train.

## Terminal velocity

A falling object speeds up until the drag on it balances its weight. From then on it falls at a steady
speed, its terminal velocity. A parachute raises the drag and so lowers the terminal velocity.
"""


def scanned_pdf(folder: Path) -> bytes:
    return typst_pdf('#rect(width: 10cm, height: 14cm, fill: gray)\n#pagebreak()\n#rect(width: 5cm, height: 5cm)',
                     folder)


def encrypted_pdf(folder: Path) -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(typst_pdf('#"1. A question about forces."', folder))))
    writer.encrypt(user_password="secret", owner_password="owner")
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def bad_files(folder: Path, max_bytes: int) -> dict[str, tuple[bytes, str]]:
    """name -> (bytes, the FileErrorReason name it must be refused with)."""
    return {
        "scan.pdf": (scanned_pdf(folder), "NO_TEXT_LAYER"),
        "locked.pdf": (encrypted_pdf(folder), "ENCRYPTED"),
        "broken.pdf": (b"%PDF-1.7\n1 0 obj <<>> garbage", "CORRUPT"),
        "empty.md": (b"", "EMPTY"),
        "photo.png": (b"\x89PNG\r\n\x1a\n" + b"\0" * 64, "UNKNOWN_TYPE"),
        "huge.md": (b"# Big\n\n" + b"word " * (max_bytes // 5 + 10), "TOO_LARGE"),
        "bad\x07name.md": (b"# A\n\nText.\n", "BAD_NAME"),
    }
