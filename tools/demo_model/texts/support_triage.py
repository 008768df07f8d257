"""support_triage: urgent (noul), team (billing | support | engineering), sentiment (score).

The three answers are drawn independently. The issue sentence(s) carry the team and, with the
optional urgency add-ons, the urgency: urgent means service is down, money is at stake (a wrong or
unexpected charge, a missing refund), or the customer threatens to leave or needs it working today;
not urgent means a question, a request or a minor bug that can wait a working day. The mood
sentences carry the sentiment and never name urgency or a team. Greetings, sign-offs, narrative
fillers and distractors are neutral to all three questions.
"""

from .common import pick, maybe, shout, compose, typo, FOREIGN

SLOTS = {
    "amt": ["$49", "$120", "€89", "£15", "$9.99", "€240", "$1,200", "$29.00", "€19,90", "£340", "$75",
            "USD 560", "EUR 1.450", "$4,800", "£7.50", "$199", "CHF 96", "$12.49", "AUD 310", "€3.600"],
    "plan": ["Pro", "Team", "Business", "Starter", "Enterprise", "Premium", "Basic", "Plus", "Growth", "annual Pro"],
    "month": ["January", "February", "March", "April", "May", "June", "July", "August", "September",
              "October", "November", "December", "last month", "this month"],
    "date": ["3 March", "May 12", "the 1st", "the 15th", "28/02", "10.06.", "June 30th", "Oct 4", "2 Nov",
             "last Friday", "Monday", "yesterday"],
    "ver": ["4.2", "4.2.1", "3.9", "5.0", "5.0.3", "2.18", "7.1", "6.0 beta", "v12", "1.14.2"],
    "code": ["500", "502", "503", "504", "403", "429", "ERR_CONNECTION_RESET", "E1042", "0x80070005",
             "\"Something went wrong\"", "\"Unexpected token <\"", "\"Gateway Timeout\"", "SSL_ERROR", "408"],
    "browser": ["Firefox", "Chrome", "Safari", "Edge", "Brave", "Opera", "Firefox 128", "Chrome on Android",
                "Safari on iOS 17", "the desktop app"],
    "device": ["iPad", "Android phone", "Pixel 8", "iPhone 13", "Galaxy tablet", "MacBook", "Windows 11 laptop",
               "Chromebook", "Surface", "Linux desktop"],
    "feature": ["export", "search", "calendar view", "report builder", "file preview", "dashboard", "kanban board",
                "comments", "CSV import", "PDF export", "timeline", "Slack integration",
                "webhooks", "tags", "filters", "charts", "sharing dialog", "templates"],
    "n": ["2", "3", "5", "12", "40", "200", "15", "8", "60", "300"],
    "few": ["2", "3", "two", "three", "several", "four", "6"],
    "dur": ["an hour", "two hours", "45 minutes", "three hours", "20 min", "90 minutes", "half a day"],
    "since": ["9am", "this morning", "midnight", "the last deploy", "about 8:15", "yesterday evening", "6 am CET"],
    "dl": ["noon", "3pm", "end of day", "tonight", "5 pm", "our 2pm meeting"],
    "when": ["in an hour", "at 2pm", "in 30 minutes", "this afternoon", "today", "at noon", "in two hours",
             "tonight", "at 10:30"],
    "event": ["client demo", "product launch", "board meeting", "webinar", "sales pitch", "go-live",
              "investor call", "training session", "audit", "live event"],
    "size": ["10 MB", "25 MB", "50MB", "2 GB", "500 rows", "1000 rows", "10k rows", "100 pages"],
    "setting": ["email notifications", "the interface language", "my time zone", "the date format",
                "dark mode", "my profile photo", "the default project", "sound alerts", "the week start day",
                "my display name", "desktop notifications", "the currency shown in reports"],
}

# Issue sentences keyed by (team, urgent). Urgent ones carry the outage, the money at stake or the
# deadline themselves; non-urgent ones are questions, requests and minor bugs.
ST_ISSUE = {
    ("billing", "yes"): [
        "I was charged twice for my subscription this month.", "You took {amt} from my card without asking.",
        "My account was billed {amt} for a plan I cancelled.", "There are three identical charges of {amt} on my statement.",
        "Your system keeps charging my card every day.", "I got charged {amt} after my trial even though I cancelled it.",
        "The refund of {amt} you promised never arrived and rent is due.", "We were invoiced {amt} instead of the agreed price and payment is due today.",
        "You charged my card THREE times for the same plan, {amt} gone.", "Money was taken from our account twice for one order.",
        "I see a charge of {amt} I never authorised.", "Your renewal billed us {amt} although we cancelled in time, I need that money back today.",
        "Duplicate payment of {amt} on my credit card, please refund it.", "My bank shows two debits of {amt} from you this week.",
        "We got billed for 10 seats on the {plan} plan but we only have 4 users, that is {amt} too much.",
        "I downgraded on {date} but you still charged the {plan} price of {amt}.",
        "There is an unknown charge from your company on my card, {amt} on {date}. I did not buy anything.",
        "You double charged us for the {month} invoice, {amt} each time.",
        "our card got charged {amt} twice today?? need the duplicate reversed",
        "Hey, my card was hit with {amt} for the {plan} plan which I never signed up for. Please reverse it asap.",
        "The invoice for {month} says {amt}, our contract says a third of that. Finance pays it today, please correct it now.",
        "I cancelled my account on {date} and today I was charged {amt} again.",
        "Your payment page charged me but the order failed, now I paid {amt} for nothing.",
        "Refund of {amt} was approved {few} weeks ago and is still not on my card. I really need this money.",
        "We are being charged in USD instead of EUR and lose money on every invoice, {amt} this month alone.",
        "Please stop charging my card immediately, the subscription was cancelled and you took {amt} again.",
        "i was charged {amt} for an annual renewal i never agreed to. i want it refunded today",
        "My card statement shows {amt} from you on {date} and again on {date}. Only one should be there.",
        "The auto renewal took {amt} from our company account without any notice, this was not approved.",
        "Dear team, I am billed every month since I closed the account in {month}. Total now {amt}.",
        "Our payment failed and now your system says the account will be suspended tonight, but the card is fine. Please fix the billing before we lose access.",
        "Hello, please I was charge two time for same subscription, {amt} each. I need the money return.",
        "you billed us for {plan} AND {plan} at the same time, {amt} extra",
        "A chargeback is the next step if the {amt} you took by mistake is not back today.",
        "Why did my bill jump from $29 to $89?? Nobody told us about a price change. Reverse the difference please.",
        "I was promised a refund of {amt} on the phone, nothing came, and now you charged me again.",
        "Invoice #{n}-{ver} was paid already and you charged the card on file again, {amt}.",
        "The trial was supposed to be free but {amt} was taken from my account this morning.",
        "Sorry for my english. Your company take from my bank {amt} but I not have account anymore.",
        "The price in the checkout was {amt} but my card was charged almost double.",
        "We paid the {month} invoice by bank transfer and you also charged the card, so we paid {amt} twice.",
        "Our overdraft got hit because you charged {amt} twice. Please refund the duplicate right away.",
    ],
    ("billing", "no"): [
        "Can I get a copy of last month's invoice?", "How do I switch from the monthly to the yearly plan?",
        "Please add our VAT number to future invoices.", "I want to change the credit card on file.",
        "Could you explain the line 'seat adjustment' on my invoice?", "Do you offer a discount for nonprofits on the team plan?",
        "When will my next payment be taken?", "Can invoices be sent to our accounting email instead?",
        "Could you send me the {month} invoice as a PDF for our accountant?", "What payment methods do you accept?",
        "Our billing address changed, how do I update it on the invoices?", "Do prices include VAT?",
        "Can we pay by bank transfer instead of card?", "I'd like a receipt for my last payment.",
        "I would like to downgrade to the {plan} plan next month.", "Is there a refund for the unused part of a yearly plan?",
        "What is the price difference between {plan} and {plan} for a team of {n}?",
        "Could you put our PO number on the next invoice please?", "Do you have student pricing?",
        "Is it possible to pay in EUR instead of USD from next year?", "How does proration work if we add seats mid month?",
        "We'd like to move to annual billing at renewal, what do I need to do?",
        "Can the invoice show our company name instead of my own name?",
        "pls resend invoice for {month}, accountant lost it", "quick q: do you accept PayPal?",
        "Our finance team asks for a W-9 / tax form, where can we get it?",
        "Could you tell me when our {plan} plan renews? I want to plan the budget.",
        "Is there a way to get all invoices for {month} to {month} in one download?",
        "We are a school, do you have an education discount?",
        "Hello, I want to ask how I can change the payment from card to invoice. Thank you.",
        "Could you change the billing contact to our office manager from next month?",
        "What happens to my data if I go from {plan} to the free plan?",
        "Will the price of the {plan} plan change next year?", "Do you charge for guest users?",
        "How do I add a second card as a backup payment method?",
        "Our company is tax exempt, how do we send you the certificate?",
        "I'd like to pause the subscription over the summer, is that possible?",
        "Can you send a quote for {n} extra seats on the {plan} plan for our procurement?",
        "Where in the account can I see my billing history?",
        "The invoice for {month} is correct, I just need it in German for our records.",
        "Is there a cheaper plan for just one user?",
        "What is the cancellation notice period for the annual contract?",
    ],
    ("support", "yes"): [
        "I am locked out of my account and our {event} starts {when}.",
        "Nobody on my team can log in since the password reset and we have a {event} today.",
        "My two-factor phone was stolen and I cannot get into the account we run our shop from.",
        "The admin left the company and we cannot access any of our settings, customers are waiting.",
        "The password reset email never arrives and I need to present from my account {when}.",
        "I lost my 2FA device and our whole sales team depends on my admin account, we cannot work today.",
        "Our only admin account is locked after too many attempts and {few} new staff cannot be added for the shift starting {when}.",
        "Someone changed the email on my account and I am locked out, I think it was hacked. Please lock it now.",
        "my account got hacked, password and email changed, customers are getting messages from it right now",
        "I cannot log in and I have a {event} {when} with everything in there. Please help me get access today.",
        "We need to give a new employee admin rights before the {event} {when}, but I can't find how and the owner is on holiday.",
        "Locked out of the account that holds all our client files, {event} {when}, pls call me.",
        "The verification code never comes to my phone and I must send the report from my account {when}.",
        "Our SSO login stopped accepting my user after I changed my name, and I run the {event} {when}.",
        "Hello, I can not enter in my account since morning and today is deadline for our customers. Please urgent help.",
        "Our owner account was suspended by mistake this morning and our {few} shops cannot take orders today.",
        "I reset my password and now the login says my account does not exist. Payroll has to go out from it {when}.",
        "we changed our domain and now none of our {n} users can sign in, the invite emails bounce. team is idle today",
        "Please remove access for an employee we just fired, he still has admin rights and can see all customer data.",
        "The magic link to log in expires before I can click it, and I need to approve invoices in the account {when}.",
        "My account was merged with my colleague's by mistake, I cannot reach my projects and the {event} is {when}.",
        "Our admin accidentally removed everyone's access. {n} people cannot work until someone restores the roles today.",
        "Guys I need help now, the account is locked and I have the {event} {when}, how do I get back in??",
        "I can't get past the security question on login and our customers are waiting for their reports today.",
        "Dear support, kindly please unlock my account today, I have {event} {when} and I am blocked after wrong password.",
        "A former employee still owns the workspace and we can't change anything. We go live {when}.",
    ],
    ("support", "no"): [
        "How do I reset my password?", "Where do I change the email address on my account?",
        "How can I export my projects to CSV?", "Is there a way to invite a teammate as a viewer only?",
        "How do I turn on dark mode?", "Where can I find the setting for {setting}?",
        "Can I rename my workspace?", "How do I set up two-factor authentication?",
        "What is the keyboard shortcut for search?", "How do I transfer ownership of a project to a colleague?",
        "how do i change the language of the interface? cant find it in settings", "Where do I add a teammate to our workspace?",
        "Is it possible to change my username?", "How can I delete my account?", "Where do I find my API key?",
        "The help article mentions a menu I cannot find, where is it?", "How do I connect my Google calendar?",
        "Can I restore a project I archived last week?", "How do I change the time zone of my account?",
        "How do I change {setting}?", "where is the option for {setting}? looked everywhere",
        "Is there a way to use the {feature} on my {device}?", "Can I give a client read-only access to one project?",
        "How do I merge two accounts that I created by mistake?", "What are the password requirements?",
        "Can I set up SSO with Okta for our team?", "How can I change who gets notified when a task is done?",
        "Is there a guide for the {feature} for new users?", "How do I remove a former employee from the workspace?",
        "Could you explain how user roles work? Admin vs member is not clear to me.",
        "Is it possible to log in with my Google account instead of a password?",
        "Hi, pls how to make a copy of template for other team? Thank you.",
        "How many people can I invite on the free plan, and how do I invite them?",
        "Where do I change the email address that notifications go to?",
        "Can I recover a deleted comment?", "Do you have a tutorial for setting up the {feature}?",
        "How do I switch between two workspaces without logging out?",
        "I would like to change my account email from my personal address to my work one. How?",
        "Is there an option to hide completed tasks from the {feature}?",
        "Can two people edit the same report at the same time?",
        "Where can I download the desktop app for my {device}?",
        "I forgot which email I signed up with, can you help me find my account? No hurry.",
        "How do I turn off the weekly summary emails?",
        "Could you tell me how to set a default view for the {feature}?",
    ],
    ("engineering", "yes"): [
        "The whole app is down, every page shows error {code}.", "Since the last update nobody in our company can save anything.",
        "Your API has returned 503 for {dur} and our checkout is broken.", "All our data disappeared from the dashboard after the sync.",
        "The service is completely unreachable from all our offices.", "Every upload fails and our production line is stopped.",
        "Nothing loads, we get {code} on every request since {since}. Our {n} users are stuck.",
        "After updating to {ver} the app crashes on start for everyone in the company.",
        "Production is down: the API times out on every call, our orders are not going through.",
        "our whole team gets {code} when logging in, nobody can work",
        "The sync deleted {n} projects from our workspace this morning, they are gone for everybody.",
        "Your webhooks stopped firing {dur} ago and our payments are not being recorded.",
        "Site is down. Status page says all green but we get {code} from {n} locations.",
        "Since {since} the {feature} shows an empty page for all users and we cannot do our work.",
        "The database migration in {ver} corrupted our records, the numbers in every report are wrong.",
        "Customers cannot pay in our shop because your checkout widget throws {code} on every order.",
        "Hello, the system is not working since morning for all our company, nothing can be saved. Please fix fast.",
        "Every file we upload comes back empty since version {ver}. We lost a day of work already.",
        "The app is down for us in Europe and the US, error {code} everywhere.",
        "Login page is broken for all our staff, the button spins forever since {since}.",
        "Data loss! Edits from {date} are gone for the whole team after the outage.",
        "The mobile app crashes immediately on launch for all our drivers since {ver}, they cannot see their routes today.",
        "Your service has been down for {dur} and our support desk can't answer a single customer.",
        "The API is returning other customers' data to our account. Please shut it down now.",
        "Outage again: {code} on every page, our {event} starts {when}.",
        "Payments in the app fail with {code} since {since}, {n} customers could not pay so far.",
        "Every report we open shows zero since the release, our month-end closing is today.",
        "The integration stopped syncing orders {dur} ago, our warehouse is shipping nothing.",
        "Nobody can open any document, the editor just shows a blank white page since {since}.",
        "The app has been crashing for all of us since {since}, we are a clinic and cannot see appointments.",
        "hey your servers are down?? getting {code} on web and mobile, our whole office is stuck",
        "Emails from the app stopped going out {dur} ago, none of our customers get their order confirmations.",
        "After your maintenance last night the database is empty for our workspace. Everything is gone!",
        "Our automations all failed overnight and {n} invoices were sent to the wrong customers, please stop the job.",
        "Critical bug: saving a task overwrites other people's tasks. The whole team is affected right now.",
        "The desktop app cannot connect to the server since {ver} for anyone, it says 'offline'. We cannot work.",
        "API requests time out for {dur} now and our website is down because of it.",
    ],
    ("engineering", "no"): [
        "The app crashes when I rotate my {device}.", "The {feature} button does nothing in {browser}.",
        "There is a small bug: the date picker shows the wrong week.", "I get an error message when I attach a file larger than {size}.",
        "The search results load slowly since yesterday.", "The chart labels overlap on small screens.",
        "Sometimes the page freezes after I click save, then it works on the second try.",
        "Dark mode shows white text on a white button in settings.",
        "The CSV export puts the dates in the wrong column when a report has more than {size}.", "Notifications arrive twice since the update.",
        "The app crashes when I open a very large file, I can work around it.", "The preview shows a broken image icon for PNG files.",
        "Sorting by name puts lowercase names last, looks like a bug.", "The progress bar gets stuck at 99% but the upload finishes.",
        "In {browser} the {feature} is cut off on the right side.", "Typo in the settings page: 'Notifcations'.",
        "Since {ver} the {feature} is a bit slower to open than before.",
        "the {feature} shows yesterday's date for me, probably a time zone bug",
        "Emoji in task titles show as question marks in the {feature}.",
        "The desktop app uses a lot of memory after a few hours, restarting helps.",
        "When I paste a table into comments the formatting is lost.",
        "The {feature} on my {device} shows error {code} once in a while, reloading fixes it.",
        "The tooltip on the {feature} stays on screen after the mouse leaves.",
        "Small thing: the page title still says the old project name after renaming.",
        "Drag and drop in the {feature} doesn't work in {browser}, the arrow buttons do.",
        "The PDF export cuts the last line of each page.", "Keyboard shortcut Ctrl+K opens the wrong menu in {browser}.",
        "I think there is a bug, the counter in the sidebar shows {n} unread but there are none.",
        "The {feature} ignores my time zone setting when I import from CSV.",
        "Scrolling in the {feature} is jumpy on my {device}.",
        "Hello, when I make export with special characters like ü or é they become strange signs.",
        "Since version {ver} the app forgets my zoom level every time.",
        "Error {code} appears when I save a very long description, shorter ones work.",
        "Images in the {feature} take a few seconds to show on slow wifi.",
        "The API docs show a parameter that returns {code} when I use it, is the doc out of date?",
        "The app crashes once a week or so when I close the lid of my laptop.",
    ],
}

# Add-ons that make a ticket urgent on their own terms (leave, money, today); only with urgent=yes.
ST_LEAVE = {
    "any": ["We have a {event} today and need this working now.", "This is costing us money every hour.",
            "We need this resolved today, please.", "Please have someone look at this today.",
            "Our customers are affected right now.", "This blocks our whole team today.",
            "Could someone get back to me today? It is time-critical.", "We are losing sales while this lasts.",
            "Please treat this as urgent.", "We need an answer before {dl}.",
            "I need an answer before end of day.", "Time sensitive, our {event} is {when}."],
    "angry": ["Fix this today or I am cancelling.", "If this is not solved today we will move to a competitor.",
              "Otherwise we cancel our contract.",
              "I will cancel my subscription if nobody helps me today.", "We are ready to switch providers over this.",
              "One more day like this and we are gone.", "Our lawyer will hear about this if it is not sorted today.",
              "Sort this out today or we walk.", "I am already looking at your competitors."],
    "money": ["Refund it today or I am disputing it with my bank.", "I want the money back today or I cancel.",
              "Reverse the charge today or we end the contract."],
}
ST_WAIT = ["It can wait until next week.", "Whenever you have time.", "Not urgent.", "No rush on this.",
           "Low priority, just curious.", "Any time this week is fine.", "No hurry at all.",
           "Not a blocker for us.", "Just for my records, when you get a chance.", "no urgency, fyi"]

ST_MOOD = {
    "calm": ["Thanks in advance for your help.", "Hope you are having a good day.", "Thank you!",
             "I appreciate your help.", "Kind regards.", "Cheers.", "Thanks so much, you are always helpful.",
             "Have a nice weekend!", "Many thanks.", "Thank you for your time.", "Love the product otherwise :)",
             "Thx!", "Much appreciated.", "Thanks a lot for looking into it.", "Best wishes.",
             "I hope this makes sense, thank you.", "Thanks, team!", "Great product, by the way.",
             "Grateful for any pointers.", "thanks :)", "Appreciate it, have a good one.", "Thanks and have a lovely day.",
             "Thanks for the great work!", "Best regards and thanks again.",
             "Cheers, and thanks for building this.", "Thank you kindly.", "Hope all is well with you!"],
    "frustrated": ["This is the second time I am writing about this.", "Honestly this is getting frustrating.",
                   "I have been waiting for days and it is annoying.", "I am quite disappointed, this should not happen.",
                   "Why is this so complicated?", "I expected better from a paid product.",
                   "Third email about this. Still no real answer.", "I'm getting really tired of this.",
                   "Not happy about this at all.", "This is wasting a lot of my time.",
                   "Sigh. Again.", "Your chatbot was no help and I am losing patience.",
                   "Pretty annoyed, to be honest.", "I was told someone would get back to me last week, nobody did.",
                   "ugh, this is so annoying", "Kind of fed up with this.", "It's really irritating.",
                   "I am disappointed with how this has been handled.", "Frankly, this is a hassle.",
                   "I have explained this twice already.",
                   "Still waiting for an answer.", "This keeps happening and it's wearing me down.",
                   "Come on, this should be simple.", "Not the experience I expected, really.",
                   "I'm a bit annoyed that nobody replied to my last email.", "Seriously, again?",
                   "This is the third ticket I open for this.", "Mildly infuriating, to be honest."],
    "furious": ["This is absolutely unacceptable!!!", "WORST SERVICE I HAVE EVER USED.", "I am furious!!",
                "Are you kidding me?! This is ridiculous!", "I am beyond angry right now.", "Disgraceful. Completely disgraceful!",
                "What a joke of a company!!", "I am livid.", "You people are incompetent!",
                "THIS IS OUTRAGEOUS.", "Absolutely pathetic service!!", "I am so angry I can barely type.",
                "Shame on you!", "Unbelievable. Just unbelievable!!!",
                "wtf is going on with you guys?!", "Horrible, horrible experience!", "Nobody there gives a damn!!",
                "I have never been treated this badly by a company!", "This is a disaster and nobody cares!!", "ARE YOU EVEN LISTENING???",
                "I am DONE with your excuses!!", "This is the most infuriating company I have ever dealt with!",
                "How dare you treat paying customers like this?!", "Absolutely disgusting service!!!",
                "I am fuming!!!", "Every single time, the same garbage!!"],
}
ST_FURIOUS_MONEY = ["I am furious, this is a scam!", "This is theft, plain and simple!", "Total rip-off!!!",
                    "You are stealing from your customers!", "Give me my money back NOW!!!"]
GREET = ["Hi,", "Hello,", "Hi team,", "Hello support,", "Dear Sir or Madam,", "Hey,", "Good morning,",
         "Dear support team,", "Hi there,", "To whom it may concern,", "Hi {name},", "Hey folks,", "Greetings,"]
SIGN = ["Best, {name}", "Regards, {name}", "{name}", "-- {name}, {company}", "Best regards, {name} ({company})",
        "Sent from my iPhone.", "{name} | Office manager | {company}", "BR, {name}"]
NAMES = ["Anna", "Tom", "Priya", "Jonas", "Maria Lopez", "K. Tanaka", "Olu", "Sven", "Fatima", "Dave", "Lena",
         "Mr. Novak", "Chen Wei", "Rosa", "Ahmed", "Jill from accounting"]
COMPANIES = ["Acme GmbH", "Bluebird Bakery", "Northwind Ltd", "Pixel & Co", "Riverside Dental", "Studio Lumen",
             "Kaya Logistics", "GreenLeaf NGO", "Orbit Labs", "Casa Verde"]

ST_FILL = ["I use the app on my phone and laptop.", "We are a team of twelve.", "My account email is the one I am writing from.",
           "I have been a customer for two years.", "Our company is based in Lisbon.", "I tried again this morning.",
           "Ticket from the contact form.", "Sent from my iPhone.", "Account ID: {n}-{ver}.",
           "I'm on the {plan} plan.", "We use it on {browser} mostly.", "Screenshot attached.",
           "I already searched the help center.", "Our workspace is called {company}.",
           "We have about {n} users.", "I am writing on behalf of my manager.", "Using the {device}.",
           "Tried logging out and in again.", "Reference number {n}{ver}."]
ST_DISTRACT = ["My colleague says the new logo looks nice.", "Last year everything worked fine.",
               "I read your blog post about the roadmap.", "We also use your calendar integration.",
               "Our previous invoice question was answered quickly, thanks for that.",
               "The outage last month was handled well by your team.",
               "Unrelated, but I like the new {feature}.",
               "We renewed in {month} without any issue.", "We are happy with the product in general."]
NARRATIVE = ["This morning I opened the app as usual.", "Yesterday I came back from holiday.",
             "Last week we onboarded {n} new colleagues.", "We moved to a new office on {date}.",
             "I was preparing the monthly report for my boss.", "Our team started using the app in {month}.",
             "I have been using the {feature} for a while.", "After lunch I sat down to finish some work."]
QUOTED = ["> Thanks for contacting us. We have received your request.",
          "> Hi, thanks for reaching out! Could you tell us more details?",
          "> Your ticket has been created and will be answered by our team.",
          "Support wrote on {date}:\n> We are looking into it."]


def _fill(rng, text):
    for key, vals in SLOTS.items():
        tag = "{" + key + "}"
        while tag in text:
            text = text.replace(tag, pick(rng, vals), 1)
    text = text.replace("{name}", pick(rng, NAMES)).replace("{company}", pick(rng, COMPANIES))
    return text


def _chat(text):
    """Lower case chat register: no capitals, fewer full stops, a few abbreviations."""
    t = text.lower()
    for a, b in [("please", "pls"), ("you ", "u "), ("thanks", "thx"), ("because", "bc"),
                 ("as soon as possible", "asap"), ("i am ", "im "), ("don't", "dont"), ("can't", "cant")]:
        t = t.replace(a, b)
    return t.replace(". ", " ").rstrip(".")


def support_triage(rng):
    team = pick(rng, ["billing", "support", "engineering"])
    urgent = "yes" if maybe(rng, 0.45) else "no"
    sentiment = pick(rng, ["calm", "frustrated", "furious"])
    cues = [pick(rng, ST_ISSUE[(team, urgent)])]
    if maybe(rng, 0.1):
        second = pick(rng, ST_ISSUE[(team, urgent)])
        if second != cues[0]:
            cues.append(second)
    if urgent == "yes" and maybe(rng, 0.35):
        bank = ST_LEAVE["any"] + (ST_LEAVE["angry"] if sentiment != "calm" else [])
        if team == "billing" and sentiment != "calm":
            bank = bank + ST_LEAVE["money"]
        cues.append(pick(rng, bank))
    elif urgent == "no" and maybe(rng, 0.3):
        cues.append(pick(rng, ST_WAIT))
    moods = ST_MOOD[sentiment]
    if sentiment == "furious" and team == "billing" and urgent == "yes":
        moods = moods + ST_FURIOUS_MONEY
    mood = [pick(rng, moods)]
    if sentiment != "calm" and maybe(rng, 0.4):
        extra = pick(rng, moods)
        if extra != mood[0]:
            mood.append(extra)
    issue = [_fill(rng, c) for c in cues]
    mood = [_fill(rng, m) for m in mood]
    cues = issue + mood
    fill = [_fill(rng, f) for f in ST_FILL]
    distract = [_fill(rng, d) for d in ST_DISTRACT]

    style = int(rng.integers(6))
    if style == 0 or style == 1:                      # plain, shuffled (as before)
        text = compose(rng, cues, fill, distractors=distract)
    elif style == 2:                                  # email: greeting, story, issue, mood, sign-off
        parts = [] if issue[0].startswith(("Hello,", "Dear team,", "Hey,")) else [_fill(rng, pick(rng, GREET))]
        if maybe(rng, 0.6):
            parts.append(_fill(rng, pick(rng, NARRATIVE)))
        parts += cues
        if maybe(rng, 0.4):
            parts.insert(len(parts) - 1, pick(rng, fill))
        if maybe(rng, 0.3):
            parts.insert(len(parts) - 1, pick(rng, distract))
        sign = _fill(rng, pick(rng, SIGN))
        text = " ".join(parts) + ("\n" if maybe(rng, 0.5) else " ") + sign
        if maybe(rng, 0.2):
            text = pick(rng, FOREIGN) + " " + text
        text = typo(rng, text, 0.03 if maybe(rng, 0.4) else 0.0)
    elif style == 3:                                  # chat, lower case
        parts = list(cues)
        if maybe(rng, 0.4):
            parts.insert(0, pick(rng, ["hey", "hi", "hello?", "yo", "hi support", "hey there"]))
        if maybe(rng, 0.3):
            parts.insert(int(rng.integers(1, len(parts) + 1)), pick(rng, fill))
        text = _chat(" ".join(parts))
        text = typo(rng, text, 0.05 if maybe(rng, 0.5) else 0.0)
    elif style == 4:                                  # bullet list
        head = pick(rng, ["Issue summary:", "Details:", "Hi, quick summary:", "Problem report", "Summary"])
        items = list(issue)
        if maybe(rng, 0.6):
            items.append(pick(rng, fill))
        rng.shuffle(items)
        bullet = pick(rng, ["- ", "* ", "• "])
        text = head + "\n" + "\n".join(bullet + it for it in items) + "\n" + " ".join(mood)
    else:                                             # reply to an auto-acknowledgement, quoted below
        text = compose(rng, cues, fill, distractors=distract, foreign=0.1)
        text += "\n\n" + _fill(rng, pick(rng, QUOTED))
    if sentiment == "furious":
        text = shout(rng, text)
    return {"ticket": text}, {"urgent": urgent, "team": team, "sentiment": sentiment}
