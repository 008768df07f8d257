"""contract_audit: auto_renewal, liability, termination, risk (minimal..severe)."""

from .common import pick, maybe

CA_RENEW = {"yes": ["This Agreement renews automatically for successive one-year terms unless either party gives notice of non-renewal at least {n} days before the end of the current term.",
                    "The subscription shall automatically renew for additional periods of {m} months unless cancelled in writing.",
                    "Upon expiry, the term is extended automatically by twelve months unless the Customer objects in writing."],
            "no": ["This Agreement ends at the end of the Initial Term and may be renewed only by a signed amendment.",
                   "The term is {m} months and does not renew unless the parties agree in writing.", ""]}
CA_LIAB = {"unlimited": ["Nothing in this Agreement limits the Vendor's liability, which shall be unlimited.",
                         "The Vendor's liability under this Agreement is not capped."],
           "capped_at_fees": ["The Vendor's total liability shall not exceed the fees paid by the Customer in the twelve months preceding the claim.",
                              "Liability of the Supplier is limited to the amounts paid under this Agreement during the prior {m} months."],
           "capped_at_multiple": ["The Vendor's aggregate liability is limited to {k} times the annual contract value.",
                                  "In no event shall the Supplier's liability exceed {k}x the yearly fees."],
           "not_addressed": [""]}
CA_TERM = {"at_will": ["The Customer may terminate this Agreement at any time for convenience on {n} days' written notice.",
                       "Either party may end the Agreement at any time by giving {n} days' notice."],
           "for_cause": ["The Customer may terminate only if the Vendor materially breaches this Agreement and fails to cure the breach within {n} days.",
                         "Termination by the Customer is permitted solely for the Vendor's uncured material breach."],
           "at_term_end": ["The Customer may terminate only with effect from the end of the then-current term.",
                           "No early termination is permitted; the Customer may end the Agreement at the end of a term."],
           "not_addressed": [""]}
CA_TYPES = ["SaaS subscription", "cloud hosting", "software license", "data processing", "maintenance and support"]
CA_FILL = ["All notices shall be in writing.", "Capitalised terms have the meaning given in Section 1.",
           "This Agreement is governed by the laws of the State of New York.", "Fees are payable within thirty days of invoice."]


def contract_audit(rng):
    renew = "yes" if maybe(rng, 0.5) else "no"
    liability = pick(rng, list(CA_LIAB))
    termination = pick(rng, list(CA_TERM))
    if liability == "not_addressed" and termination == "not_addressed" and renew == "no":
        termination = "at_will"
    if renew == "yes" and termination == "not_addressed":
        termination = "at_term_end"  # the notice of non-renewal is how the buyer ends it
    parts = [pick(rng, CA_RENEW[renew]), pick(rng, CA_LIAB[liability]), pick(rng, CA_TERM[termination])]
    parts = [p.replace("{n}", pick(rng, ["30", "60", "90", "thirty", "ninety"])).replace("{m}", pick(rng, ["12", "24", "36"]))
             .replace("{k}", pick(rng, ["two", "three", "2", "5"])) for p in parts if p]
    if maybe(rng, 0.5):
        parts.append(pick(rng, CA_FILL))
    rng.shuffle(parts)
    # Risk for the buyer: unlimited liability is good for the buyer; a tight cap, no way out and
    # automatic renewal add risk.
    points = {"unlimited": 0, "capped_at_multiple": 1, "capped_at_fees": 2, "not_addressed": 1}[liability]
    points += {"at_will": 0, "for_cause": 1, "at_term_end": 2, "not_addressed": 1}[termination]
    points += 1 if renew == "yes" else 0
    risk = ["minimal", "minimal", "moderate", "elevated", "severe", "severe"][points]
    return {"clause": " ".join(parts), "contract_type": pick(rng, CA_TYPES)}, {
        "auto_renewal": renew, "liability": liability, "termination": termination, "risk": risk}
