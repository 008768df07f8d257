"""contract_audit: auto_renewal, liability, termination, risk (minimal..severe).

One clause (or a short run of sub-clauses) of a vendor contract, in several drafting styles:
US/UK formal drafting with defined terms, plain-English terms of service ("we"/"you"), SaaS
order-form lines, numbered or lettered sub-clauses, caps-lock disclaimers. Templates take the
parties ({V} vendor, {C} customer, with verb endings that follow them), notice periods, renewal
periods, cap periods and multiples, so each answer has hundreds of wordings.

Rules (the policy's own):
  auto_renewal  yes: the term renews or rolls over by itself unless someone acts; no: it expires,
                or renewal needs a new signed document, or nothing is said about renewal.
  liability     unlimited: no cap / explicitly unlimited; capped_at_fees: cap = fees paid in a
                period; capped_at_multiple: cap = a multiple (>1) of the annual value;
                not_addressed: no liability sentence. Fixed-amount caps, "greater of" caps, 1x
                caps and total exclusions are left out as ambiguous.
  termination   at_will: buyer may end at any time on notice; for_cause: only on the vendor's
                (uncured) breach; at_term_end: only with effect from the end of a term;
                not_addressed: nothing on ending. An automatic renewal with an opt-out and no
                other termination wording means the buyer ends it at term end (at_term_end);
                a for_cause clause goes only with renewal wording that gives no opt-out.
  risk          points: liability unlimited 0 / multiple 1 / not addressed 1 / fees 2;
                termination at will 0 / for cause 1 / not addressed 1 / term end 2; +1 renewal.
"""

from .common import pick, maybe, typo

# ---------------------------------------------------------------- parties and numbers
VENDORS = ["the Vendor", "the Supplier", "the Provider", "the Service Provider", "the Licensor",
           "the Company", "the Contractor", "Vendor", "Supplier", "Provider", "Licensor",
           "Nimbus Cloud Inc.", "Brightline Analytics Ltd", "Quarry Systems GmbH", "Orbitra, Inc.",
           "Helix Data Limited", "PaperTrail SaaS LLC", "Kestrel Software plc", "the Seller"]
CUSTOMERS = ["the Customer", "the Client", "the Licensee", "the Subscriber", "the Buyer",
             "the Purchaser", "Customer", "Client", "Licensee", "Subscriber", "the Authority",
             "the Company", "the Organisation", "the Organization"]

NOTICE = [("30 days", "30 days'"), ("thirty (30) days", "thirty (30) days'"),
          ("sixty (60) days", "sixty (60) days'"), ("60 days", "60 days'"),
          ("ninety (90) days", "ninety (90) days'"), ("90 days", "90 days'"),
          ("three months", "three months'"), ("3 months", "3 months'"), ("one month", "one month's"),
          ("14 days", "14 days'"), ("fourteen (14) days", "fourteen (14) days'"),
          ("45 days", "45 days'"), ("six months", "six months'"), ("sixty calendar days", "sixty calendar days'"),
          ("10 business days", "10 business days'"), ("thirty days", "thirty days'"), ("two months", "two months'"),
          ("120 days", "120 days'")]
PERIOD_N = ["twelve (12) months", "12 months", "one year", "18 months", "24 months", "two years",
            "thirty-six (36) months", "36 months", "one (1) year", "six (6) months", "3 years"]
PERIOD_A = ["12-month", "one-year", "twelve (12) month", "annual", "1-year", "24-month", "two-year",
            "thirty-six (36) month", "yearly", "six-month", "36-month", "one (1) year"]
CAP_PERIOD = ["twelve (12) months", "12 months", "twelve months", "six (6) months", "6 months",
              "three months", "3 months", "twenty-four (24) months", "24 months", "12-month period", "eighteen months"]
MULT = ["two (2) times", "2x", "twice", "three (3) times", "3x", "three times", "150% of", "200% of",
        "1.5x", "five (5) times", "5x", "two and a half times", "250% of", "300% of", "4x", "double"]
ACV = ["the annual contract value", "the Annual Contract Value", "the Annual Contract Value (\"ACV\")", "ACV",
       "the annual Subscription Fees", "the total annual fees", "the yearly fees", "the annual Charges",
       "the fees payable for one year of the Services", "the annual fees payable under the applicable Order Form",
       "the annualised value of this Agreement", "the annual licence fee", "the annual license fees",
       "the fees payable in a single Contract Year", "the yearly subscription price"]
CLAUSE_NO = ["9", "11.2", "12", "14.3", "8(b)", "15", "10.4", "7.1", "13", "16.2"]


def _party(rng, style):
    if style == "tos":
        return {"V": "we", "Vp": "our", "C": "you", "Cp": "your", "s": "", "es": "", "is": "are",
                "has": "have", "cs": "", "ces": "", "cis": "are", "chas": "have", "Vo": "us", "Co": "you"}
    v, c = pick(rng, VENDORS), pick(rng, CUSTOMERS)
    while c.replace("the ", "") == v.replace("the ", ""):
        c = pick(rng, CUSTOMERS)
    return {"V": v, "Vp": v + "'" if v.endswith("s") and not v.endswith("Inc.") else v + "'s", "C": c, "Cp": c + "'s",
            "s": "s", "es": "es", "is": "is", "has": "has", "cs": "s", "ces": "es", "cis": "is", "chas": "has",
            "Vo": v, "Co": c}


def _fill(rng, text, p):
    nd, n = pick(rng, NOTICE)
    vals = dict(p, nd=nd, n=n, mp=pick(rng, PERIOD_N), ma=pick(rng, PERIOD_A), cp=pick(rng, CAP_PERIOD),
                k=pick(rng, MULT), acv=pick(rng, ACV), cl=pick(rng, CLAUSE_NO))
    for key in sorted(vals, key=len, reverse=True):
        text = text.replace("{" + key + "}", vals[key])
    text = text.replace(". the ", ". The ").replace("? the ", "? The ")
    return text[0].upper() + text[1:] if text else text


# ---------------------------------------------------------------- auto-renewal
RENEW_OPTOUT = [
    "This Agreement shall automatically renew for successive {ma} periods (each a \"Renewal Term\") unless either party gives written notice of non-renewal at least {nd} before the end of the then-current term.",
    "Upon expiry of the Initial Term, the Subscription Term will automatically extend for an additional {mp} unless {C} give{cs} notice of non-renewal no later than {nd} before the renewal date.",
    "The Order Form renews automatically for the same duration as the initial Subscription Term unless either party provides {n} notice of its intention not to renew.",
    "At the end of the Initial Term this Agreement shall continue for further periods of {mp} each, unless either party gives not less than {n} written notice expiring at the end of the Initial Term or the relevant renewal period.",
    "Subscriptions will be automatically renewed for a further {mp} at the then-current list price unless cancelled in writing no later than {nd} before the renewal date.",
    "This Agreement will roll over automatically into a new {ma} term unless {C} opt{cs} out in writing at least {nd} before the anniversary date.",
    "The term shall be extended automatically by successive periods of {mp} unless notice of non-renewal is served not less than {nd} prior to expiry.",
    "Unless either party elects not to renew by written notice given at least {nd} before expiry, this Agreement shall renew automatically on the same terms for a further {mp}.",
    "The subscription shall automatically renew for additional periods of {mp} unless cancelled in writing.",
    "Upon expiry, the term is extended automatically by {mp} unless {C} object{cs} in writing at least {nd} in advance.",
    "Each Subscription Term shall automatically renew for a period equal to the expiring term unless a party notifies the other of non-renewal {nd} or more prior to the end of that term.",
    "The licence term renews on each anniversary of the Effective Date without further action by either party, unless terminated by notice of non-renewal given {nd} before that anniversary.",
    "This Agreement is automatically renewed for consecutive {ma} periods, save where one party informs the other in writing, at least {nd} before the expiry date, that it does not wish to renew.",
    "Following the Minimum Term, the Services will continue on a rolling {ma} basis until {C} give{cs} {n} notice to end them at the end of a renewal period.",
    "Auto-renewal applies: the term renews for successive {ma} periods unless {C} cancel{cs} before the renewal date.",
    "The Initial Term shall be tacitly renewed for successive periods of {mp} unless terminated by registered letter sent at least {nd} before the expiry of the current period.",
]
RENEW_OPTOUT_TOS = [
    "Your subscription renews automatically at the end of each billing period unless you cancel before the renewal date.",
    "Your plan will automatically renew for another {mp} and we will charge your payment method on file, unless you turn off auto-renew in your account settings before the renewal date.",
    "Annual plans renew automatically each year at the then-current price. If you don't want your plan to renew, you must cancel at least {nd} before the renewal date.",
    "Unless you cancel, your membership continues and renews automatically for successive {ma} periods, and you authorise us to charge the applicable fee.",
    "We'll renew your subscription automatically so there's no interruption in service; switch off auto-renewal any time before the end of the current term to stop it.",
]
RENEW_EVERGREEN = [
    "This Agreement shall renew automatically for successive {ma} periods and shall continue in force until terminated in accordance with clause {cl}.",
    "The Subscription Term renews automatically at the end of each term unless this Agreement has been terminated earlier under Section {cl}.",
    "On expiry of each term, this Agreement automatically renews for a further {mp}, and it will keep renewing until it is terminated as permitted in this clause.",
    "This Agreement is evergreen: it renews automatically for consecutive {ma} terms and continues until terminated under this clause.",
    "The term shall be automatically extended by successive periods of {mp} each, unless and until this Agreement is terminated in accordance with its terms.",
    "Following the Initial Term, this Agreement shall automatically continue for further {ma} periods unless terminated as set out below.",
]
RENEW_EVERGREEN_TOS = [
    "Your subscription renews automatically every {mp} and continues until it is ended as described in this section.",
    "These terms and your plan renew automatically at the end of each term and stay in effect until terminated as explained below.",
]
RENEW_NO = [
    "This Agreement shall expire at the end of the Initial Term and shall not renew automatically.",
    "There is no automatic renewal; any renewal requires a new Order Form signed by both parties.",
    "The Subscription Term is {mp} and will not auto-renew.",
    "Any extension of the Term must be agreed in writing by both parties; this Agreement does not renew by default.",
    "Renewal is not automatic. {V} will send a renewal quote {nd} before the end of the term, and the Agreement continues only if {C} sign{cs} a new order.",
    "Upon expiry of the Term, this Agreement shall terminate automatically unless the parties agree in writing to extend it.",
    "This Agreement ends at the end of the Initial Term and may be renewed only by a signed amendment.",
    "The term is {mp} and does not renew unless the parties agree in writing.",
    "This Agreement commences on the Effective Date and continues for a fixed term of {mp}, after which it expires without renewal.",
    "For the avoidance of doubt, this Agreement shall not be renewed or extended automatically, by implication or by conduct.",
    "The Term expires on the last day of the {ma} period stated in the Order Form, and no automatic extension shall apply.",
    "{V} may offer to renew the Services on expiry; no renewal takes effect unless {C} accept{cs} that offer in writing.",
    "Any renewal shall be subject to a fresh Statement of Work executed by authorised signatories of both parties.",
    "The Licence is granted for a fixed period of {mp}; continued use after that period requires the purchase of a new licence.",
    "Neither party shall be obliged to renew this Agreement, and no renewal shall occur unless expressly agreed in writing.",
    "This Agreement is for a single term only. Continuation beyond the expiry date requires a written extension signed by both parties.",
    "On the Expiry Date this Agreement shall come to an end without any further action by either party.",
    "The parties may, but are not obliged to, negotiate a renewal in good faith no later than {nd} before expiry; absent a signed renewal, the Agreement lapses.",
]
RENEW_NO_TOS = [
    "Your plan does not renew automatically. When your {ma} term ends, we'll email you a link to buy another term if you want one.",
    "We won't renew your subscription or charge you again unless you choose to buy a new plan.",
    "This is a one-off purchase for {mp}; it will not auto-renew and you will not be billed again.",
]
OF_RENEW = {
    "optout": ["Auto-Renewal: Yes ({ma} renewal terms; {nd} non-renewal notice)",
               "Renewal: automatic, for successive {ma} periods unless cancelled {nd} prior to the end of the term",
               "Auto-renew: ON - renews for {mp} unless either party opts out {nd} before term end",
               "Renewal Terms: automatically renews for equal periods; non-renewal notice {nd} before expiry",
               "Evergreen / auto-renew: Yes. Opt-out notice period: {nd}."],
    "evergreen": ["Auto-Renewal: Yes - successive {ma} terms until terminated under the Agreement",
                  "Renewal: automatic ({ma} periods), continuing until terminated as permitted below"],
    "no": ["Auto-Renewal: No", "Renewal: by mutual written agreement only (no auto-renewal)",
           "Auto-renew: OFF. Fixed term of {mp}; expires at end of term",
           "Renewal: not automatic - new Order Form required", "Automatic Renewal: N/A"],
}

# ---------------------------------------------------------------- liability
CAP_FRAMES = [
    "{Vp} total aggregate liability arising out of or in connection with this Agreement, whether in contract, tort (including negligence), breach of statutory duty or otherwise, shall not exceed {X}.",
    "{Vp} entire liability under or in connection with this Agreement shall be limited to {X}.",
    "In no event shall {Vp} cumulative liability for all claims exceed {X}.",
    "{V} shall not be liable to {Co} for any amount in excess of {X}.",
    "The maximum aggregate liability of {V} for all claims arising under this Agreement will be {X}.",
    "{Vp} liability is capped at {X}.",
    "Liability of {V} is limited to {X}.",
    "{Vp} total liability in respect of all losses, howsoever arising, shall in no circumstances exceed {X}.",
    "The total liability of {V}, its affiliates and licensors for any and all claims shall be limited to {X}.",
    "{V} will not be liable in the aggregate for damages exceeding {X}.",
    "To the maximum extent permitted by law, {Vp} aggregate liability shall not exceed {X}.",
    "{Vp} maximum liability for any claim or series of connected claims is {X}.",
]
CAP_FRAMES_TOS = [
    "Our total liability to you for any claim is limited to {X}.",
    "If we are liable to you for anything, the most we will pay is {X}.",
    "To the extent the law allows, our liability to you will never be more than {X}.",
    "We won't be liable to you for more than {X}, whatever the claim.",
]
CAP_OPENERS = ["Subject to clause {cl}, ", "Save as provided in clause {cl}, ", "Except as set out in Section {cl}, ",
               "Subject to the exclusions below, ", "Save in respect of the matters listed in clause {cl}, ",
               "Notwithstanding any other provision of this Agreement, "]
FEES_X = [
    "the fees paid by {C} in the {cp} preceding the claim",
    "the fees paid or payable by {C} in the {cp} immediately preceding the event giving rise to the claim",
    "the amounts actually paid by {C} under this Agreement during the {cp} before the claim arose",
    "the Charges paid in the Contract Year in which the claim arose",
    "the total fees paid under the relevant Order Form during the prior {cp}",
    "an amount equal to the subscription fees received by {V} in the {cp} prior to the incident",
    "the sums paid by {C} to {V} in the {cp} preceding the date on which the liability arose",
    "the fees paid for the Services in the {cp} before the first event giving rise to liability",
    "the amount of fees {C} paid during the {cp} preceding the relevant claim",
    "the fees paid in the previous {cp}",
    "the Fees paid by {C} hereunder in the {cp} prior to the cause of action",
    "the fees paid under this Agreement in the twelve months preceding the claim",
]
FEES_X_TOS = ["the amount you paid us in the {cp} before the claim", "the fees you paid us for the service in the past {cp}",
              "what you paid us in the {cp} before the event that led to the claim"]
MULT_X = ["{k} {acv}", "an amount equal to {k} {acv}", "{k} {acv} payable under this Agreement",
          "the sum of {k} {acv}", "{k} {acv} in the Contract Year in which the claim arises"]
MULT_X_TOS = ["{k} the annual fees for your plan", "{k} what you pay us in a year"]
UNLIMITED = [
    "Nothing in this Agreement shall limit or exclude {Vp} liability, which shall be unlimited.",
    "{Vp} liability under this Agreement {is} not subject to any cap or financial limit.",
    "No limitation of liability applies to {V} under this Agreement.",
    "{V} shall be liable without limit for all losses arising under or in connection with this Agreement.",
    "The parties agree that {Vp} liability shall be uncapped.",
    "Notwithstanding anything to the contrary in this Agreement, {Vp} liability for any breach of this Agreement shall be unlimited.",
    "{V} accept{s} unlimited liability for any loss or damage caused by its performance or non-performance of this Agreement.",
    "There is no cap on {Vp} liability to {Co}.",
    "{Vp} liability {is} not limited in amount.",
    "The limitation of liability in {Vp} standard terms shall not apply, and {Vp} liability under this Agreement shall be unlimited.",
    "{V} shall remain fully liable, without any monetary ceiling, for all damages arising from this Agreement.",
    "{Vp} liability is uncapped.",
    "{Vp} liability under this Agreement {is} not capped.",
    "{Vp} liability shall not be limited by reference to the fees or any other amount.",
    "For the avoidance of doubt, no cap on liability applies to {V}, whose liability under this Agreement is unlimited.",
    "No financial cap shall apply to the liability of {V} under or in connection with this Agreement.",
    "The aggregate liability of {V} shall be unlimited in respect of all claims.",
    "{V} shall bear liability in full for any loss suffered by {Co}, and no financial limitation shall apply.",
    "Notwithstanding anything in the Order Form, {Vp} liability under this Agreement shall not be capped or otherwise limited in amount.",
]
UNLIMITED_TOS = ["We do not limit our liability to you under these terms.", "There is no cap on how much we may be liable to you for.",
                 "Our liability to you under these terms is unlimited."]
OF_LIAB = {
    "capped_at_fees": ["Liability Cap: fees paid in the preceding {cp}", "Limitation of Liability: Subscription Fees paid in the {cp} before the claim",
                       "Cap on Liability: amounts paid by Customer in the prior {cp}", "Liability cap = fees paid in the {cp} before the claim"],
    "capped_at_multiple": ["Liability Cap: {k} {acv}", "Limitation of Liability: {k} {acv}", "Cap on Liability: {k} ACV",
                           "Liability cap = {k} annual fees"],
    "unlimited": ["Liability Cap: None (uncapped)", "Limitation of Liability: not applicable - Supplier liability unlimited",
                  "Cap on Liability: unlimited", "Liability cap: N/A, uncapped"],
}
CARVE_OUTS = [
    "Nothing in this Agreement limits or excludes either party's liability for death or personal injury caused by negligence, fraud or fraudulent misrepresentation, or any other liability which cannot be limited by law.",
    "Neither party shall be liable for any indirect, incidental, special or consequential damages, or for loss of profits, revenue or goodwill.",
    "IN NO EVENT SHALL EITHER PARTY BE LIABLE FOR ANY LOST PROFITS, LOSS OF DATA OR ANY INDIRECT, PUNITIVE OR CONSEQUENTIAL DAMAGES.",
    "The exclusions in this clause do not apply to liability for fraud or wilful misconduct.",
]
DISCLAIMERS = [
    "THE SERVICES ARE PROVIDED \"AS IS\" AND \"AS AVAILABLE\" WITHOUT WARRANTY OF ANY KIND. {VU} DISCLAIMS ALL IMPLIED WARRANTIES, INCLUDING MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NON-INFRINGEMENT.",
    "EXCEPT AS EXPRESSLY STATED IN THIS AGREEMENT, {VU} MAKES NO WARRANTIES, EXPRESS OR IMPLIED, AND DOES NOT WARRANT THAT THE SOFTWARE WILL BE ERROR-FREE OR UNINTERRUPTED.",
    "ALL WARRANTIES, CONDITIONS AND TERMS IMPLIED BY STATUTE OR COMMON LAW ARE EXCLUDED TO THE FULLEST EXTENT PERMITTED BY LAW.",
]

# ---------------------------------------------------------------- termination
AT_WILL = [
    "{C} may terminate this Agreement for convenience at any time upon {n} prior written notice to {Vo}.",
    "Either party may terminate this Agreement without cause by giving the other not less than {n} written notice.",
    "{C} may cancel the Services at any time, for any reason or no reason, on {n} notice.",
    "Termination for convenience: {C} may terminate on {n} notice at any time during the Term.",
    "Notwithstanding clause {cl}, {C} may at any time terminate this Agreement, in whole or in part, by giving {n} written notice.",
    "{C} may end this Agreement at any time by giving {Vo} {n} notice in writing.",
    "{C} may terminate this Order Form at any time on {n} notice, without penalty or early termination fee.",
    "{C} shall be entitled to terminate this Agreement at any time by serving {n} notice on {Vo}.",
    "There is no minimum commitment: {C} can terminate at any time with {n} notice.",
    "{C} may, at its sole discretion and without giving reasons, terminate this Agreement on not less than {n} written notice.",
    "Either party may end the Agreement at any time by giving {n} notice.",
    "{C} reserves the right to terminate this Agreement, at any time and for any reason, upon {n} written notice.",
    "This Agreement may be terminated by {C} at will upon {n} prior notice.",
    "{C} may terminate this Agreement without cause, effective {nd} after delivery of written notice to {Vo}.",
    "{C} may terminate this Agreement or any Order Form for convenience on {n} written notice, in which case {V} shall refund any prepaid fees for the remainder of the term.",
    "At any time during the Term, {C} may give {Vo} {n} notice of termination without stating a reason.",
    "This Agreement may be terminated by {C} on giving {n} notice in writing, at any time and without liability for doing so.",
]
AT_WILL_TOS = [
    "You may cancel your subscription at any time by emailing support or via your account settings; cancellation takes effect {nd} after we receive your request.",
    "You can end these terms whenever you like by giving us {n} notice.",
    "You're free to cancel at any time with {n} notice, no questions asked.",
    "You may close your account and stop using the service at any time; just let us know {nd} in advance.",
]
FOR_CAUSE = [
    "{C} may terminate this Agreement only if {V} commit{s} a material breach of it and fail{s} to remedy that breach within {nd} of written notice.",
    "{C} may terminate this Agreement with immediate effect by written notice if {V} commit{s} a material breach which is irremediable or, if remediable, is not remedied within {nd} of being notified of it; {C} {chas} no other right to terminate.",
    "Termination by {C} is permitted solely for {Vp} uncured material breach.",
    "{Cp} sole right to terminate this Agreement arises if {V} materially breach{es} it and the breach remains uncured {nd} after notice.",
    "{C} shall not be entitled to terminate this Agreement for convenience. {C} may terminate only for {Vp} material breach that is not cured within {nd} after written notice.",
    "If {V} {is} in material breach of this Agreement and {has} not remedied the breach within {nd} of a written request to do so, {C} may terminate this Agreement; save as aforesaid, {C} may not terminate it.",
    "{C} may terminate this Agreement for cause, namely {Vp} material breach not remedied within {nd}, but not otherwise.",
    "The only ground on which {C} may terminate this Agreement is a material breach by {V} that remains uncured for {nd} following notice.",
    "{C} may terminate only if {V} materially breach{es} this Agreement and fail{s} to cure the breach within {nd}.",
    "{C} may terminate this Agreement by notice in writing only in the event of a material breach by {V} that {V} fail{s} to rectify within {nd}.",
    "{C} may not terminate this Agreement except where {V} {is} in material breach and the breach {is} not cured within {nd} of notice.",
    "Save for termination by {C} for {Vp} material or persistent breach of this Agreement, neither party may terminate it.",
    "{C} may terminate this Agreement solely upon a material breach by {V} of its obligations, where such breach has not been cured within a cure period of {nd}.",
    "Where {V} repeatedly fail{s} to meet the Service Levels, constituting a material breach, {C} may terminate this Agreement on written notice; {C} may not otherwise terminate.",
    "{C} has no right to terminate for convenience. If {V} default{s} in the performance of a material obligation and the default continues for {nd} after written notice, {C} may terminate this Agreement.",
    "{C} may terminate this Agreement for cause upon written notice if {V} materially breach{es} this Agreement and such breach remains uncured at the expiration of a {nd} period following notice; no other termination right is granted to {C}.",
]
FOR_CAUSE_TOS = [
    "You may end these terms only if we seriously break them and do not fix the problem within {nd} of you telling us.",
    "You can cancel only if we breach these terms in a significant way and fail to put it right within {nd}.",
]
AT_END = [
    "{C} may terminate this Agreement only with effect from the end of the then-current term, by giving at least {n} notice.",
    "No early termination is permitted; {C} may end the Agreement at the expiry of a term.",
    "The Subscription Term is non-cancellable. {C} may only exit at the end of the term.",
    "Termination mid-term is not permitted; any termination by {C} shall take effect only on the expiry date of the current term.",
    "All commitments are non-cancellable during the term, and {C} may end the Agreement only at the end of a term.",
    "{C} may not terminate this Agreement for convenience before the end of the current term; termination may take effect only on expiry of that term, on {n} prior notice.",
    "Fees are non-refundable and orders non-cancellable; {Cp} only way to end this Agreement is with effect from the last day of a term.",
    "{C} may give notice to terminate this Agreement at any time, but such notice shall take effect only at the end of the then-current Subscription Term.",
    "This Agreement may not be terminated by {C} during a term and may be brought to an end by {C} only at the expiry of that term.",
    "{C} acknowledges that this Agreement cannot be cancelled before the end of the Subscription Term and that it may end the Agreement only at the close of a term.",
    "Early termination by {C} is excluded; {C} may terminate by written notice taking effect on the last day of the then-current term.",
]
AT_END_RENEW = [
    "Either party may terminate this Agreement with effect from the end of the Initial Term or of any renewal term by giving not less than {n} written notice, and not otherwise.",
    "{C} may terminate this Agreement with effect from the expiry of the Initial Term or any Renewal Term, but shall have no right to terminate during a term.",
    "{C} may not terminate this Agreement during a term; {Cp} sole means of ending it is to give notice of non-renewal before the term ends.",
    "There is no right to terminate for convenience mid-term: {C} may only prevent the next renewal by giving {n} notice before the end of the current term.",
]
AT_END_TOS = [
    "You can't cancel during your {ma} plan, and you won't get a refund for unused time; you can end it only when the plan period finishes.",
    "Plans can't be cancelled part-way through. You can stop your subscription at the end of the current term.",
]
OF_TERM = {
    "at_will": ["Termination for Convenience: Customer, at any time, on {n} notice", "Early termination: permitted at any time with {nd} written notice",
                "Cancellation: any time, {nd} notice, no penalty"],
    "for_cause": ["Termination: for Vendor's uncured material breach only ({nd} cure period)",
                  "Termination Rights: Customer may terminate for material breach by Supplier only", "Termination for Convenience: none; for cause (uncured breach) only"],
    "at_term_end": ["Termination for Convenience: not permitted; Customer may exit at end of Subscription Term only",
                    "Cancellation: non-cancellable during term; end of term only", "Early Termination: not permitted"],
}

# ---------------------------------------------------------------- fillers
FILL_ANY = ["All notices shall be in writing.", "Capitalised terms have the meaning given in Section 1.",
            "This Agreement is governed by the laws of the State of New York.", "Fees are payable within thirty days of invoice.",
            "This Agreement shall be governed by the laws of England and Wales.", "Invoices are payable net 30 from the invoice date.",
            "Each party shall keep the other's Confidential Information confidential.", "Headings are for convenience only.",
            "Notices must be sent by email to the addresses set out in the Order Form.", "Any dispute shall be referred to the courts of Delaware.",
            "{V} shall provide the Services with reasonable skill and care.", "{V} may update the Documentation from time to time.",
            "Late payments bear interest at 1.5% per month.", "Customer Data remains the property of {C}.",
            "The Services shall meet an availability target of 99.9% per calendar month.", "Time is not of the essence."]
FILL_TERM = ["Clauses 7, 9 and 12 survive any termination or expiry of this Agreement.",
             "On termination, {V} shall return or delete all Customer Data within {nd}.",
             "Termination shall not affect any rights or remedies accrued before the date of termination."]
FILL_LIAB = ["{V} shall indemnify {Co} against third-party claims that the Services infringe intellectual property rights.",
             "{V} shall maintain professional indemnity insurance of not less than USD 5,000,000."]
FILL_RENEW = ["Fees for any Renewal Term may increase by up to 5% over the prior term.", "{V} shall send a reminder before each renewal date."]
OF_FILL = ["Subscription Term: {mp}", "Start Date: 1 March 2026", "Billing: annually in advance", "Fees: USD 48,000 per year",
           "Seats: 250 named users", "Payment Terms: Net 30", "Order Form No. OF-2041", "Support: Premium (24x7)",
           "Currency: GBP", "Fees: EUR 12,500 per quarter"]
HEADS = {"renew": ["Term and Renewal.", "TERM.", "Renewal.", "Duration.", "Subscription Term."],
         "liab": ["Limitation of Liability.", "LIMITATION OF LIABILITY.", "Liability.", "Caps on liability."],
         "term": ["Termination.", "TERMINATION.", "Termination Rights.", "Ending the Agreement."]}
HEADS_TOS = {"renew": ["Renewals.", "Automatic renewal."], "liab": ["Our liability to you.", "Limits on our responsibility."],
             "term": ["Cancelling.", "Ending these terms."]}
INTROS = ["Can legal check this clause pls? ", "FYI, new wording from the vendor: ", "Redline from their counsel (clause {cl}): ",
          "Extract from clause {cl} of the vendor's draft: ", "Clause {cl} (as redlined): ", "From the MSA, section {cl}: ",
          "Vendor paper, clause {cl}: ", "Fwd from procurement - clause {cl} reads: "]
# ---------------------------------------------------------------- plain summaries (someone retyping the clause)
PLAIN = {
    ("renew", "optout"): ["auto-renews for successive {ma} terms unless either side gives {nd} notice",
                          "rolls over automatically each term unless we cancel at least {nd} before renewal",
                          "auto renewal - renews every {mp} unless notice of non-renewal {nd} before the end date",
                          "contract renews automatically, opt-out window closes {nd} before the renewal date",
                          "it will auto-renew at the end of the term unless one of us gives notice"],
    ("renew", "evergreen"): ["auto-renews every term and keeps going until terminated",
                             "evergreen - renews automatically each {ma} term until someone terminates it under the contract"],
    ("renew", "no"): ["no auto-renewal", "fixed {mp} term, doesn't renew unless we sign a new order form",
                      "renewal only by mutual written agreement", "expires at end of term, no automatic renewal",
                      "does NOT renew automatically"],
    ("liab", "capped_at_fees"): ["vendor liability capped at fees paid in the last {cp}",
                                 "their liability is limited to what we paid in the {cp} before the claim",
                                 "liability cap = fees paid in the prior {cp}", "cap on vendor liability is the fees paid over the previous {cp}"],
    ("liab", "capped_at_multiple"): ["liability cap {k} ACV", "vendor's liability capped at {k} the annual contract value",
                                     "their total liability is limited to {k} annual fees", "liability capped at {k} the yearly contract value"],
    ("liab", "unlimited"): ["no liability cap for the vendor", "vendor liability is uncapped", "vendor's liability is unlimited",
                            "nothing limits the supplier's liability - no cap at all"],
    ("term", "at_will"): ["we can terminate any time with {n} notice", "termination for convenience allowed on {n} notice",
                          "customer can cancel anytime, {nd} notice", "we may walk away at any point, just {n} written notice needed"],
    ("term", "for_cause"): ["we can only terminate if the vendor materially breaches and doesn't cure within {nd}",
                            "termination for cause only (vendor breach, {nd} cure period)",
                            "no termination for convenience, only for their uncured breach",
                            "only way out for us is a material breach by the supplier that isn't fixed within {nd}"],
    ("term", "at_term_end"): ["no early termination, we can only exit at the end of a term",
                              "we can't terminate mid-term, only at the end of the term",
                              "non-cancellable during the term; we can leave only when the term ends"],
}


CA_TYPES = ["SaaS subscription", "cloud hosting", "software license", "data processing", "maintenance and support",
            "master services agreement", "SaaS order form", "enterprise licence agreement",
            "professional services agreement", "managed services", "API access agreement", "reseller agreement"]


def _renew_text(rng, renew, termination, style):
    if renew == "no":
        bank = {"tos": RENEW_NO_TOS, "form": OF_RENEW["no"], "plain": PLAIN[("renew", "no")]}.get(style, RENEW_NO)
        return pick(rng, bank), None
    # for_cause goes with no opt-out (else the buyer could also leave at term end); at_term_end
    # and the renewal-only case need the opt-out; at_will takes either.
    if termination == "for_cause":
        kind = "evergreen"
    elif termination == "at_will":
        kind = "optout" if maybe(rng, 0.7) else "evergreen"
    else:
        kind = "optout"
    if style == "form":
        return pick(rng, OF_RENEW[kind]), kind
    if style == "plain":
        return pick(rng, PLAIN[("renew", kind)]), kind
    if style == "tos":
        return pick(rng, RENEW_OPTOUT_TOS if kind == "optout" else RENEW_EVERGREEN_TOS), kind
    return pick(rng, RENEW_OPTOUT if kind == "optout" else RENEW_EVERGREEN), kind


def _liab_text(rng, liability, style):
    if style == "plain":
        return pick(rng, PLAIN[("liab", liability)])
    if style == "form":
        return pick(rng, OF_LIAB[liability])
    tos = style == "tos"
    if liability == "unlimited":
        return pick(rng, UNLIMITED_TOS if tos else UNLIMITED)
    x = pick(rng, (FEES_X_TOS if tos else FEES_X) if liability == "capped_at_fees" else (MULT_X_TOS if tos else MULT_X))
    text = pick(rng, CAP_FRAMES_TOS if tos else CAP_FRAMES).replace("{X}", x)
    if not tos and maybe(rng, 0.25) and not text.startswith("To the") and not text.startswith("In no"):
        text = pick(rng, CAP_OPENERS) + text[0].lower() + text[1:] if text.startswith("The ") else pick(rng, CAP_OPENERS) + text
    return text


def _term_text(rng, termination, renew_kind, style):
    if style == "plain":
        return pick(rng, PLAIN[("term", termination)])
    if style == "form":
        return pick(rng, OF_TERM[termination])
    if style == "tos":
        return pick(rng, {"at_will": AT_WILL_TOS, "for_cause": FOR_CAUSE_TOS, "at_term_end": AT_END_TOS}[termination])
    if termination == "at_will":
        t = pick(rng, AT_WILL)
        if maybe(rng, 0.2):  # a breach right alongside the at-will right keeps it at will
            t += " " + pick(rng, ["{C} may also terminate immediately if {V} commit{s} a material breach.",
                                   "In addition, {C} may terminate with immediate effect for {Vp} material breach."])
        return t
    if termination == "for_cause":
        return pick(rng, FOR_CAUSE)
    return pick(rng, AT_END + AT_END_RENEW if renew_kind == "optout" else AT_END)


def contract_audit(rng):
    renew = "yes" if maybe(rng, 0.5) else "no"
    liability = pick(rng, ["unlimited", "capped_at_fees", "capped_at_multiple", "not_addressed"])
    termination = pick(rng, ["at_will", "for_cause", "at_term_end", "not_addressed"])
    if renew == "yes" and termination == "not_addressed":
        termination = "at_term_end"  # the notice of non-renewal is how the buyer ends it
    style = pick(rng, ["us", "uk", "us", "uk", "tos", "form", "numbered", "numbered", "plain"])
    p = _party(rng, style)
    # With nothing said about ending the contract, a "no renewal" sentence is left out too: a
    # clause saying the term simply expires could be read as an end-of-term exit.
    say_renew = renew == "yes" or (termination != "not_addressed" and maybe(rng, 0.75))
    if liability == "not_addressed" and termination == "not_addressed" and not say_renew:
        termination = pick(rng, ["at_will", "for_cause", "at_term_end"])
        say_renew = maybe(rng, 0.6)
    parts, kinds = [], []
    renew_kind = None
    if say_renew:
        r, renew_kind = _renew_text(rng, renew, termination, style)
        parts.append(r); kinds.append("renew")
    if liability != "not_addressed":
        parts.append(_liab_text(rng, liability, style)); kinds.append("liab")
    if termination != "not_addressed":
        parts.append(_term_text(rng, termination, renew_kind, style)); kinds.append("term")
    # fillers and distractors that keep every answer as it is
    fills = list(OF_FILL) if style in ("form", "plain") else list(FILL_ANY)
    if style != "form":
        if termination != "not_addressed":
            fills += FILL_TERM
        if liability != "not_addressed":
            fills += FILL_LIAB
        if renew == "yes":
            fills += FILL_RENEW
    for i in rng.permutation(len(fills))[:int(rng.integers(0, 3))]:
        parts.append(fills[int(i)]); kinds.append("fill")
    if liability in ("capped_at_fees", "capped_at_multiple") and style not in ("form", "tos", "plain") and maybe(rng, 0.3):
        parts.append(pick(rng, CARVE_OUTS)); kinds.append("carve")
    if liability != "not_addressed" and style not in ("form", "plain") and maybe(rng, 0.2):
        parts.append(pick(rng, DISCLAIMERS).replace("{VU}", "WE" if style == "tos" else p["V"].upper())); kinds.append("fill")
    while sum(len(q.split()) for q in parts) > 95 and ("fill" in kinds or "carve" in kinds):
        i = kinds.index("fill") if "fill" in kinds else kinds.index("carve")
        del parts[i], kinds[i]
    order = rng.permutation(len(parts))
    parts = [_fill(rng, parts[i], p) for i in order]
    kinds = [kinds[i] for i in order]
    if style == "tos":
        parts = [p_.replace("We DISCLAIMS", "WE DISCLAIM").replace("WE MAKES", "WE MAKE").replace("WE DISCLAIMS", "WE DISCLAIM").replace("WE DOES", "WE DO") for p_ in parts]
    # caps-lock shouting of the liability or renewal wording, as US drafting does
    if style in ("us", "numbered") and maybe(rng, 0.2):
        parts = [q.upper() if k in ("liab", "carve") else q for q, k in zip(parts, kinds)]
    if style == "plain":
        parts = [q if k != "fill" else q.lower() for q, k in zip(parts, kinds)]
        text = pick(rng, ["Summary of the clause: ", "Key terms: ", "", "", "notes on the vendor contract - "]) + \
            pick(rng, [". ", "; ", "\n- ", ", "]).join(parts)
        if maybe(rng, 0.4):
            text = text.lower()
    elif style == "form":
        text = pick(rng, ["\n", " | ", "; ", "\n- "]).join(parts)
    elif style == "numbered":
        base = pick(rng, ["9", "11", "12", "14", "7", "15", "3", "18"])
        fmt = int(rng.integers(4))
        out = []
        for i, q in enumerate(parts):
            label = [f"{base}.{i + 1}", f"({'abcdefgh'[i]})", f"{base}.{i + 1}.", f"({'i ii iii iv v vi vii'.split()[i]})"][fmt]
            out.append(label + " " + q)
        head = pick(rng, ["", f"{base}. TERM, TERMINATION AND LIABILITY ", f"Section {base}. ", f"Clause {base} - Commercial Terms. "])
        text = head + (" " if maybe(rng, 0.7) else "\n").join(out)
    else:
        heads = HEADS_TOS if style == "tos" else HEADS
        if maybe(rng, 0.3):
            parts = [(pick(rng, heads[k]) + " " + q) if k in heads and maybe(rng, 0.6) else q for q, k in zip(parts, kinds)]
        text = " ".join(parts)
    if style == "uk":
        text = text.replace("license", "licence").replace("authorize", "authorise")
    if style not in ("form", "plain") and maybe(rng, 0.08):
        text = _fill(rng, pick(rng, INTROS), p) + text
    if maybe(rng, 0.15):
        text = typo(rng, text, 0.02)
    # Risk for the buyer: unlimited liability is good for the buyer; a tight cap, no way out and
    # automatic renewal add risk.
    points = {"unlimited": 0, "capped_at_multiple": 1, "capped_at_fees": 2, "not_addressed": 1}[liability]
    points += {"at_will": 0, "for_cause": 1, "at_term_end": 2, "not_addressed": 1}[termination]
    points += 1 if renew == "yes" else 0
    risk = ["minimal", "minimal", "moderate", "elevated", "severe", "severe"][points]
    ctype = "online terms of service" if style == "tos" else ("SaaS order form" if style == "form" and maybe(rng, 0.5) else pick(rng, CA_TYPES))
    return {"clause": text, "contract_type": ctype}, {
        "auto_renewal": renew, "liability": liability, "termination": termination, "risk": risk}
