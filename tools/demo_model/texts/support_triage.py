"""support_triage: urgent (noul), team (billing | support | engineering), sentiment (score)."""

from .common import pick, maybe, shout, compose

ST_ISSUE = {
    ("billing", "yes"): [
        "I was charged twice for my subscription this month.", "You took {amt} from my card without asking.",
        "My account was billed {amt} for a plan I cancelled.", "There are three identical charges of {amt} on my statement.",
        "Your system keeps charging my card every day.", "I got charged {amt} after my trial even though I cancelled it.",
        "The refund of {amt} you promised never arrived and rent is due.", "We were invoiced {amt} instead of the agreed price and payment is due today.",
        "You charged my card THREE times for the same plan, {amt} gone.", "Money was taken from our account twice for one order.",
        "I see a charge of {amt} I never authorised.", "Your renewal billed us {amt} although we cancelled in time, I need that money back today.",
        "Duplicate payment of {amt} on my credit card, please refund it.", "My bank shows two debits of {amt} from you this week.",
    ],
    ("billing", "no"): [
        "Can I get a copy of last month's invoice?", "How do I switch from the monthly to the yearly plan?",
        "Please add our VAT number to future invoices.", "I want to change the credit card on file.",
        "Could you explain the line 'seat adjustment' on my invoice?", "Do you offer a discount for nonprofits on the team plan?",
        "When will my next payment be taken?", "Can invoices be sent to our accounting email instead?",
        "Could you send me the March invoice as a PDF for our accountant?", "What payment methods do you accept?",
        "Our billing address changed, how do I update it on the invoices?", "Do prices include VAT?",
        "Can we pay by bank transfer instead of card?", "I'd like a receipt for my last payment.",
        "I would like to downgrade to the basic plan next month.", "Is there a refund for the unused part of a yearly plan?",
    ],
    ("support", "yes"): [
        "I am locked out of my account and our client demo starts in an hour.", "Nobody on my team can log in since the password reset and we have a launch today.",
        "My two-factor phone was stolen and I cannot get into the account we run our shop from.",
        "The admin left the company and we cannot access any of our settings, customers are waiting.",
    ],
    ("support", "no"): [
        "How do I reset my password?", "Where do I change the email address on my account?",
        "How can I export my projects to CSV?", "Is there a way to invite a teammate as a viewer only?",
        "How do I turn on dark mode?", "Where can I find the setting for email notifications?",
        "Can I rename my workspace?", "How do I set up two-factor authentication?",
        "What is the keyboard shortcut for search?", "How do I transfer ownership of a project to a colleague?",
        "how do i change the language of the interface? cant find it in settings", "Where do I add a teammate to our workspace?",
        "Is it possible to change my username?", "How can I delete my account?", "Where do I find my API key?",
        "The help article mentions a menu I cannot find, where is it?", "How do I connect my Google calendar?",
        "Can I restore a project I archived last week?", "How do I change the time zone of my account?",
    ],
    ("engineering", "yes"): [
        "The whole app is down, every page shows error 500.", "Since the last update nobody in our company can save anything.",
        "Your API has returned 503 for an hour and our checkout is broken.", "All our data disappeared from the dashboard after the sync.",
        "The service is completely unreachable from all our offices.", "Every upload fails and our production line is stopped.",
    ],
    ("engineering", "no"): [
        "The app crashes when I rotate my tablet.", "The export button does nothing in Firefox.",
        "There is a small bug: the date picker shows the wrong week.", "I get an error message when I attach a file larger than 10 MB.",
        "The search results load slowly since yesterday.", "The chart labels overlap on small screens.",
        "Sometimes the page freezes after I click save, then it works on the second try.",
        "Dark mode shows white text on a white button in settings.",
        "The CSV export puts the dates in the wrong column when a report has more than 1000 rows.", "Notifications arrive twice since the update.",
        "The app crashes when I open a very large file, I can work around it.", "The preview shows a broken image icon for PNG files.",
        "Sorting by name puts lowercase names last, looks like a bug.", "The progress bar gets stuck at 99% but the upload finishes.",
    ],
}
ST_LEAVE = ["Fix this today or I am cancelling.", "If this is not solved today we will move to a competitor.",
            "Refund it today or I am disputing it with my bank.", "We have a product launch today and need this working now.",
            "This is costing us money every hour.", "Otherwise we cancel our contract.",
            "I will cancel my subscription if nobody helps me today.", "We are ready to switch providers over this."]
ST_MOOD = {
    "calm": ["Thanks in advance for your help.", "No rush, just wanted to ask.", "Hope you are having a good day.",
             "Thank you!", "I appreciate your help.", "Kind regards.", "Cheers."],
    "frustrated": ["This is the second time I am writing about this.", "Honestly this is getting frustrating.",
                   "I have been waiting for days and it is annoying.", "I am quite disappointed, this should not happen.",
                   "Why is this so complicated?", "I expected better from a paid product."],
    "furious": ["This is absolutely unacceptable!!!", "WORST SERVICE I HAVE EVER USED.", "I am furious, this is a scam!",
                "Are you kidding me?! This is ridiculous!", "I am beyond angry right now.", "Disgraceful. Completely disgraceful!"],
}
ST_FILL = ["I use the app on my phone and laptop.", "We are a team of twelve.", "My account email is the one I am writing from.",
           "I have been a customer for two years.", "Our company is based in Lisbon.", "I tried again this morning.",
           "Ticket from the contact form.", "Sent from my iPhone."]
ST_DISTRACT = ["My colleague says the new logo looks nice.", "Last year everything worked fine.",
               "I read your blog post about the roadmap.", "We also use your calendar integration."]
AMOUNTS = ["$49", "$120", "€89", "£15", "$9.99", "€240", "$1,200"]


def support_triage(rng):
    team = pick(rng, ["billing", "support", "engineering"])
    urgent = "yes" if maybe(rng, 0.45) else "no"
    sentiment = pick(rng, ["calm", "frustrated", "furious"])
    cues = [pick(rng, ST_ISSUE[(team, urgent)]).replace("{amt}", pick(rng, AMOUNTS))]
    if urgent == "yes" and maybe(rng, 0.3):
        cues.append(pick(rng, ST_LEAVE))
    elif urgent == "no" and maybe(rng, 0.3):
        cues.append(pick(rng, ["It can wait until next week.", "Whenever you have time.", "Not urgent."]))
    cues.append(pick(rng, ST_MOOD[sentiment]))
    if sentiment == "furious" and maybe(rng, 0.5):
        cues.append(pick(rng, ST_MOOD["furious"]))
    text = compose(rng, cues, ST_FILL, distractors=ST_DISTRACT)
    if sentiment == "furious":
        text = shout(rng, text)
    return {"ticket": text}, {"urgent": urgent, "team": team, "sentiment": sentiment}
