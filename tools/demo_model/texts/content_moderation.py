"""content_moderation: violates, category, severity (none..severe), action."""

from .common import pick, maybe, typo

CM_POSTS = {
    "none": ["Just finished my first marathon, so happy!", "Does anyone know a good recipe for lentil soup?",
             "The sunset at the lake tonight was amazing.", "Great game last night, what a comeback.",
             "Looking for recommendations for a budget laptop.", "My cat learned to open the door, send help lol.",
             "I disagree with the new policy, but I see the point.", "Happy birthday to my best friend!"],
    "harassment": ["@{user} you are a worthless idiot and everyone knows it.", "{user}, nobody wants you here, just leave, loser.",
                   "I know where you live, {user}, watch your back.", "{user} is so ugly and stupid, lol what a clown."],
    "hate": ["People from that country are all criminals and should be banned.", "Those immigrants are vermin.",
             "That religion is a disease and its followers are subhuman.", "Women are too stupid to vote."],
    "self_harm": ["I don't want to be alive anymore, I have the pills ready tonight.", "Cutting is the only thing that helps me, here is how I do it.",
                  "I am going to end it all this weekend, goodbye everyone.", "Nobody would miss me if I jumped."],
    "violence": ["Someone should shoot the mayor, I'd do it myself.", "Let's burn down their office on Friday.",
                 "I'll beat up the next guy who parks there.", "That attack was glorious, we need more of them."],
    "spam": ["BUY CHEAP FOLLOWERS NOW!!! visit cheap-followers.example", "Earn $5000 a week from home, click here: bit.ly/xx",
             "Crypto giveaway!!! send 1 BTC get 2 back", "Best replica watches, DM me, best price, DM me, best price."],
}
CM_MILD = {"harassment": ["@{user} you're kind of an idiot tbh.", "{user} always talks nonsense, what a clown."],
           "spam": ["Check out my new shop, link in bio!", "Follow my page for more deals :)"],
           "hate": ["Ugh, typical boomers, they ruin everything."],
           "violence": ["I could strangle my printer right now lol, but seriously I'd punch that guy."]}
CM_USERS = ["@maria_k", "@tom88", "@jonas", "@lee.w", "@sam_r"]
CM_PLATFORMS = ["a general social network", "a gaming forum", "a parenting community", "a local news comment section", "a photo sharing app"]
CM_LOCALES = ["en-US", "en-GB", "de-DE", "es-ES", "fr-FR"]


def content_moderation(rng):
    category = pick(rng, ["none", "harassment", "hate", "self_harm", "violence", "spam"])
    if category == "none":
        severity, action, text = "none", "allow", pick(rng, CM_POSTS["none"])
        if maybe(rng, 0.4):
            text += " " + pick(rng, CM_POSTS["none"])
    else:
        mild = category in CM_MILD and maybe(rng, 0.3)
        text = pick(rng, CM_MILD[category] if mild else CM_POSTS[category])
        if category == "self_harm":
            severity, action = "severe", "escalate"
        elif mild:
            severity, action = "mild", "label"
        elif category == "spam":
            severity, action = "serious", "remove"
        elif category == "violence" or (category == "harassment" and "where you live" in text):
            severity, action = "severe", "escalate"
        else:
            severity, action = "serious", "remove"
    text = text.replace("{user}", pick(rng, CM_USERS))
    if maybe(rng, 0.2):
        text = pick(rng, ["lol ", "ok so ", "honestly ", ""]) + text
    if maybe(rng, 0.2):
        text += " " + pick(rng, ["#mood", "#weekend", "😂", "!!!", "#truth"])
    text = typo(rng, text, 0.05 if maybe(rng, 0.4) else 0.0)
    violates = "no" if category == "none" else "yes"
    return {"content": text, "platform": pick(rng, CM_PLATFORMS), "locale": pick(rng, CM_LOCALES)}, {
        "violates": violates, "category": category, "severity": severity, "action": action}
