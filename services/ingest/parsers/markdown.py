"""Markdown via markdown-it-py (CommonMark + GFM tables).

Ordered-list numbers are not part of a list item's text in the token stream, so they
are put back (``start`` + position): an exam written as ``1. ...`` lists keeps its
question numbers. Inline markup is rendered to plain text (emphasis markers dropped,
code kept, images by their alt text). A paragraph that opens with a bold bare number
(``**3** Text``) keeps it set off by a tab, as a typeset label would be.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.token import Token

from services.ingest.blocks import Block, BlockKind, ParsedDocument, table_text
from services.ingest.normalise import normalise_text
from services.ingest.questions import BARE_LABEL
from services.ingest.parsers.text import decode_text

MEDIA_TYPE = "text/markdown"
_MD = MarkdownIt("commonmark").enable("table")


def parse_markdown(data: bytes, source: str) -> ParsedDocument:
    text, warnings = decode_text(data)
    tokens = _MD.parse(text)
    blocks: list[Block] = []
    lists: list[list[int]] = []          # stack of [next number] (or [-1] for bullets)
    prefix = ""
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.type == "heading_open":
            blocks.append(Block(normalise_text(_inline(tokens[i + 1])), BlockKind.HEADING, int(tok.tag[1])))
            i += 3
            continue
        if tok.type in ("ordered_list_open", "bullet_list_open"):
            start = int(tok.attrGet("start") or 1) if tok.type == "ordered_list_open" else -1
            lists.append([start])
        elif tok.type in ("ordered_list_close", "bullet_list_close"):
            lists.pop()
        elif tok.type == "list_item_open":
            counter = lists[-1]
            prefix = f"{counter[0]}. " if counter[0] >= 0 else ""
            if counter[0] >= 0:
                counter[0] += 1
        elif tok.type == "inline" and tokens[i - 1].type == "paragraph_open":
            kind = BlockKind.LIST_ITEM if lists and lists[-1][0] < 0 and not prefix else BlockKind.PARAGRAPH
            body = normalise_text(prefix + _inline(tok))
            if body:
                blocks.append(Block(body, kind, level=len(lists)))
            prefix = ""
        elif tok.type in ("fence", "code_block"):
            if tok.content.strip():
                blocks.append(Block(tok.content.strip(), BlockKind.PARAGRAPH))
        elif tok.type == "table_open":
            rows, i = _table(tokens, i)
            if rows:
                blocks.append(Block(table_text(rows), BlockKind.TABLE, rows=rows))
            continue
        i += 1
    return ParsedDocument(source=source, media_type=MEDIA_TYPE, blocks=blocks, warnings=warnings)


def _inline(tok: Token) -> str:
    parts: list[str] = []
    children = list(tok.children or [])
    while children and children[0].type == "text" and not children[0].content:
        children = children[1:]
    if (len(children) >= 3 and children[0].type == "strong_open" and children[2].type == "strong_close"
            and BARE_LABEL.match(children[1].content.strip())):
        parts.append(children[1].content.strip() + "\t")  # "**3** Text": a set-off question number
        children = children[3:]
    for child in children:
        if child.type in ("text", "code_inline", "html_inline"):
            parts.append(child.content)
        elif child.type == "softbreak":
            parts.append(" ")
        elif child.type == "hardbreak":
            parts.append("\n")
        elif child.type == "image":
            parts.append(child.content or "")
    return "".join(parts)


def _table(tokens: list[Token], i: int) -> tuple[tuple[tuple[str, ...], ...], int]:
    rows: list[tuple[str, ...]] = []
    row: list[str] = []
    while i < len(tokens) and tokens[i].type != "table_close":
        tok = tokens[i]
        if tok.type == "tr_open":
            row = []
        elif tok.type == "inline":
            row.append(normalise_text(_inline(tok)))
        elif tok.type == "tr_close":
            rows.append(tuple(row))
        i += 1
    return tuple(rows), i + 1
