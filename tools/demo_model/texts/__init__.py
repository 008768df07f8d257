"""Inputs for the six shipped policies, with their answers fixed by rules these modules own.

One module per policy; `GENERATORS[policy](rng)` draws one input (the policy's variables) and its
answers. common.py explains how the cue sentences, fillers and distractors are put together.
"""

from .agent_router import agent_router
from .code_review import code_review
from .content_moderation import content_moderation
from .contract_audit import contract_audit
from .security_incident import security_incident
from .support_triage import support_triage

GENERATORS = {
    "support_triage": support_triage,
    "code_review": code_review,
    "content_moderation": content_moderation,
    "contract_audit": contract_audit,
    "security_incident": security_incident,
    "agent_router": agent_router,
}
