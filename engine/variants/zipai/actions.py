"""The rule file, the moves, the phases and the claim priorities of a 字牌 hand (``Action.type``
and ``hand.phase``; the 吃 moves are ``chi_<code>``, see ``hand.py``)."""

from __future__ import annotations

RULES = "zipai.md"
HU, PASS, DISCARD, PENG = "hu", "pass", "discard", "peng"
PIAO_TYPES = ("piao_none", "piao_one", "piao_two", "piao_three")
PIAO_PHASE, DISCARD_PHASE, CLAIM_PHASE, OVER = "piao", "discard", "claim", "over"
PRIORITY = {HU: 3, PENG: 2, "chi": 1, PASS: 0}
FOUR_TYPES = ("pao", "ti")

#: every code of a 吃 move ``chi_<code>`` that :func:`engine.variants.zipai.huxi.chi_choices` can
#: produce: the main group, then ``_`` and the 比牌 groups (codes sorted), e.g. ``l_hm``
CHI_CODES = (
    "d", "d_e", "d_h", "d_l", "d_m",
    "e", "e_d", "e_e", "e_eh", "e_ej", "e_el", "e_em", "e_h", "e_hh", "e_hj", "e_hl", "e_hm", "e_j", "e_jl",
    "e_jm", "e_l", "e_ll", "e_lm", "e_m", "e_mm",
    "h", "h_d", "h_e", "h_ee", "h_eh", "h_ej", "h_el", "h_em", "h_h", "h_hj", "h_hl", "h_j", "h_jl", "h_jm",
    "h_l", "h_ll", "h_lm", "h_m",
    "j", "j_e", "j_ee", "j_eh", "j_el", "j_em", "j_h", "j_hh", "j_hl", "j_hm", "j_l", "j_ll", "j_lm", "j_m",
    "j_mm",
    "l", "l_d", "l_e", "l_ee", "l_eh", "l_ej", "l_el", "l_em", "l_h", "l_hh", "l_hj", "l_hl", "l_hm", "l_j",
    "l_jl", "l_jm", "l_l", "l_m",
    "m", "m_d", "m_e", "m_ee", "m_eh", "m_ej", "m_el", "m_em", "m_h", "m_hj", "m_hl", "m_j", "m_jl", "m_jm",
    "m_l", "m_m",
)

#: the game's own moves → catalogue keys of their buttons (its own words: ``data/zipai.*.json`` in this package)
ACTION_LABELS = {PENG: "btn.peng", **{p: f"btn.{p}" for p in PIAO_TYPES},
                 **{f"chi_{c}": f"btn.chi_{c}" for c in CHI_CODES}}
