"""Fixed, ordered word lists the operators draw from: the only source of new text in the tier."""

from __future__ import annotations

from alignbench.readers.numerals import CARDINAL_WORDS

PARTY_PAIRS: tuple[tuple[str, str], ...] = (
    ("Provider", "Customer"),
    ("Licensor", "Licensee"),
    ("Supplier", "Buyer"),
    ("Contractor", "Client"),
    ("Discloser", "Recipient"),
    ("Landlord", "Tenant"),
)
PARTIES: tuple[str, ...] = ("Provider", "Customer", "Supplier", "Licensee", "the Contractor", "each party")
VERBS: tuple[str, ...] = (
    "notify the other party of",
    "keep written records of",
    "use reasonable efforts to remedy",
    "provide a written report on",
    "maintain insurance covering",
    "promptly disclose",
    "cooperate in good faith regarding",
    "bear its own costs of",
)
OBJECTS: tuple[str, ...] = (
    "any security incident",
    "any change of control",
    "any subcontracting arrangement",
    "the audit findings",
    "any material breach",
    "the data retention schedule",
    "any export restriction",
    "the service credits owed",
    "any third-party claim",
    "the transition assistance plan",
)
EVENTS: tuple[str, ...] = (
    "becoming aware of it",
    "the Effective Date",
    "receiving a written request",
    "the end of each calendar quarter",
    "termination of this Agreement",
    "the relevant invoice date",
)
DURATION_UNITS: tuple[str, ...] = ("days", "business days", "months", "years")
NUMBER_WORDS: tuple[str, ...] = CARDINAL_WORDS
SUBSTITUTIONS: tuple[tuple[str, str], ...] = (
    ("shall", "will"),
    ("will", "shall"),
    ("must", "shall"),
    ("reasonable", "commercially reasonable"),
    ("promptly", "without undue delay"),
    ("written", "prior written"),
    ("any", "each"),
    ("may", "is entitled to"),
    ("including", "including without limitation"),
    ("Agreement", "Contract"),
    ("terminate", "end"),
    ("notice", "notification"),
    ("all", "every"),
    ("fees", "charges"),
    ("obligations", "duties"),
)
EXTRA_SENTENCES: tuple[str, ...] = (
    "This obligation survives termination of this Agreement.",
    "Any failure to comply is a material breach.",
    "The parties will review this clause once every year.",
    "Nothing in this clause limits either party's statutory rights.",
    "Notices under this clause must be given in writing.",
    "This clause does not apply to Excluded Data.",
    "Costs incurred under this clause are borne by the requesting party.",
    "The Customer may waive this requirement by written notice.",
)
CELL_WORDS: tuple[str, ...] = (
    "Standard",
    "Premium",
    "Enterprise",
    "Annual",
    "Monthly",
    "Included",
    "Not included",
    "On request",
    "Tier 2",
    "Best effort",
)
