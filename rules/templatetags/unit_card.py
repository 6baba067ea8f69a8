"""Template helpers of the one unit card (`templates/rules/_unit_card.html`).

    {% tight condition %}...{% endtight %}   the block without whitespace between tags when
                                             the condition holds (the PDF's card: every
                                             whitespace run between tags is a box WeasyPrint
                                             lays out), unchanged otherwise (the pages keep
                                             the spaces that separate inline words)
    card|pdf_tables:columns                  the PDF card's tables for one ("1") or two ("2")
                                             cards across the page
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.base import Node, NodeList, Parser, Token, VariableDoesNotExist
from django.template.context import Context
from django.utils.html import strip_spaces_between_tags

register = template.Library()


class TightNode(Node):
    def __init__(self, condition: Any, nodelist: NodeList) -> None:
        self.condition, self.nodelist = condition, nodelist

    def render(self, context: Context) -> str:
        rendered = self.nodelist.render(context)
        try:
            tighten = self.condition.eval(context)  # an `{% if %}` condition, evaluated as `if` does
        except VariableDoesNotExist:
            tighten = False
        if tighten:
            return strip_spaces_between_tags(rendered.strip())
        return rendered


@register.tag
def tight(parser: Parser, token: Token) -> TightNode:
    """`{% tight <expression> %}`: the expression is any `{% if %}` condition."""
    from django.template.defaulttags import TemplateIfParser

    bits = token.split_contents()[1:]
    if not bits:
        raise template.TemplateSyntaxError("'tight' takes a condition")
    condition = TemplateIfParser(parser, bits).parse()
    nodelist = parser.parse(("endtight",))
    parser.delete_first_token()
    return TightNode(condition, nodelist)


@register.filter
def pdf_tables(card: Any, columns: Any) -> Any:
    """The tables of a roster card laid out for the PDF's card width (`Card.pdf_narrow` for two
    cards across the page, `Card.pdf_wide` for one)."""
    return card.pdf_narrow if str(columns) == "2" else card.pdf_wide
