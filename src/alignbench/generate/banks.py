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
# Issue 29 class 3 (a licence revision reworded in place): the phrases a redraft splices into a clause,
# cut to the length of the words they replace, so a clause keeps its length and loses a known share
# of its words. Letters only: a spliced word never adds markup or a citation.
REWORD_PHRASES: tuple[str, ...] = (
    "to the extent permitted by applicable law",
    "in accordance with the terms of this licence",
    "for the avoidance of any doubt",
    "whether now known or hereafter devised",
    "in any medium or format whatsoever",
    "subject to the conditions set out below",
    "solely for the purposes described here",
    "as reasonably requested by the other party",
    "without prejudice to any other right or remedy",
    "on a worldwide and royalty free basis",
    "unless expressly agreed otherwise in writing",
    "including any part or portion of it",
    "by any means and in any form",
    "at the sole discretion of the rights holder",
    "from time to time during the term",
    "only as far as the law allows",
    "together with any related materials supplied",
    "in a manner that does not suggest endorsement",
    "where reasonably practicable in the circumstances",
    "so long as the recipient remains in compliance",
)
REWORD_FILLERS: tuple[str, ...] = ("hereunder", "thereof", "respective", "applicable", "such", "otherwise")
# Section titles a redraft gives a section: the operator takes one sharing no word with the old title.
SECTION_TITLES: tuple[str, ...] = (
    "Interpretation",
    "Scope of this Licence",
    "Grant of Rights",
    "Permitted Uses",
    "Restrictions on Use",
    "Representations and Disclaimers",
    "Ending the Arrangement",
    "Miscellaneous Provisions",
    "Governing Law and Disputes",
    "Notices and Communications",
    "Fees and Invoicing",
    "Handling of Personal Data",
    "Who Is Responsible",
    "What You May Do",
    "Protecting Secrets",
    "Keeping Things Safe",
)
# Definitions a redraft adds (defined term, what follows "means"); the operator skips a term the
# document already defines.
DEFINITIONS: tuple[tuple[str, str], ...] = (
    ("Adaptation", "a work based upon the Work, or upon the Work and other pre-existing works."),
    (
        "Business Day",
        "a day other than a Saturday, Sunday or public holiday where the Provider is established.",
    ),
    ("Collection", "a collection of works in which the Work is included in its entirety in unmodified form."),
    (
        "Distribute",
        "to make available to the public the original and copies of the Work through sale or other transfer.",
    ),
    (
        "Documentation",
        "the user guides and technical manuals that describe the Services, as updated from time to time.",
    ),
    (
        "Intellectual Property Rights",
        "patents, copyrights, trade marks, database rights and every similar right anywhere.",
    ),
    (
        "Moral Rights",
        "the rights of an author to be identified and to object to derogatory treatment of the work.",
    ),
    ("Personal Data", "any information relating to an identified or identifiable natural person."),
    (
        "Publicly Perform",
        "to perform public recitations of the Work and to communicate those performances to the public.",
    ),
    ("Reproduce", "to make copies of the Work by any means, including sound or visual recordings."),
    (
        "Security Incident",
        "any unauthorised access to, or disclosure or loss of, data held for the other party.",
    ),
    ("Subprocessor", "a third party engaged by the Provider to process data on behalf of the Customer."),
    (
        "Usage Data",
        "information about the use and performance of the Services, stripped of anything identifying.",
    ),
)
