"""Issue 34 item 2: the elite README's decisions list says that a ninja's
frame is optional and that the framing run's heal heals the ninja, citing
the contract line (docs/rules/elite.md, v1 9: "The frame is optional (the
policy decides), and the framing run's heal, if any, heals the ninja")."""
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "balance" / "rulesets" / "elite" / "README.md"


def _bullet(text: str, head: str, start: str) -> str:
    """The bullet starting with ``start`` under the section ``head``."""
    part = text[text.index(head):]
    part = part[part.index("\n- " + start):]
    end = part.find("\n- ", 3)
    return " ".join(part[:end if end > 0 else None].split())


def test_the_decisions_list_says_the_frame_is_optional_and_heals_citing_the_contract():
    b = _bullet(README.read_text(encoding="utf-8"), "## Decisions where the contract is silent",
                "Ninja frame")
    assert "The frame is optional" in b
    assert "framing run's heal, if any, heals the ninja" in b
    assert "contract v1 9" in b
