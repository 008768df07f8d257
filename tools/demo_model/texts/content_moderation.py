"""content_moderation: violates, category, severity (none..severe), action.

Rules (following the policy's option descriptions):
- none: a harmless post (it may use words like "killed it", "shoot me a message", "spam folder"
  in a harmless sense) -> severity none, action allow.
- self_harm: the poster says they want to die / hurt themselves or shares how -> severe, escalate
  (someone may be in danger).
- harassment: insults aimed at one person -> serious, remove; a light, hedged jab -> mild, label;
  an intimidating threat to that person (knows where they live, watch your back) -> severe, escalate.
- hate: dehumanising attacks or exclusion of a group for who they are -> serious, remove; a jokey
  stereotype about a group -> mild, label.
- violence: threats of or calls for violence, or praise of an attack -> severe, escalate; a flippant
  "someone should smack that guy" -> mild, label.
- spam: scams, fake offers, repeated junk, link farming -> serious, remove; one harmless plug for
  one's own page -> mild, label.
"""

from .common import pick, maybe, typo

# ---------------------------------------------------------------- people, places, things
NAMES = ["maria_k", "tom88", "jonas", "lee.w", "sam_r", "priya.s", "kev_in", "anna_b", "mike1990",
         "dj_carlos", "zoe.m", "ahmed_k", "ginaaa", "the_real_pete", "lucas_v", "nina.rose",
         "bigdave", "sofia22", "marco_p", "jess.t", "oli_gamer", "yuki_n", "chris_w", "fatima.h"]
CM_PLATFORMS = ["a general social network", "a gaming forum", "a parenting community",
                "a local news comment section", "a photo sharing app", "a cooking forum",
                "a sports fan club", "a student discussion board", "a neighbourhood group",
                "a music streaming community", "a car enthusiasts forum", "a pet owners group"]
CM_LOCALES = ["en-US", "en-GB", "de-DE", "es-ES", "fr-FR", "en-IN", "en-AU", "it-IT", "pt-BR", "nl-NL"]


def user(rng):
    n = pick(rng, NAMES)
    return "@" + n if maybe(rng, 0.75) else n


# ---------------------------------------------------------------- harmless posts
NONE_SUBJ = ["my first marathon", "the new bakery on Main St", "my sister's wedding", "the season finale",
             "our trip to Lisbon", "the new update (v2.3)", "my garden", "the concert last night",
             "this recipe", "my kid's science project", "the match on Sunday", "my new job",
             "the farmers market", "the library book sale", "my grandma's 90th birthday", "the hiking trail",
             "my sourdough starter", "the school play", "the new bike lane", "our team's playoff run"]
NONE_OPINION = ["was amazing", "was so much fun", "went better than expected", "made my day",
                "was honestly a bit disappointing", "was worth every minute", "was a total success",
                "was chaotic but great", "was ok, nothing special", "exceeded expectations",
                "was lovely", "was a bit too long tbh", "turned out great", "was really well organised"]
NONE_QUESTION = ["Does anyone know a good recipe for lentil soup?", "Looking for recommendations for a budget laptop under $600.",
                 "Any tips for a first time dog owner?", "What's the best way to get rid of aphids without chemicals?",
                 "Can anyone recommend a dentist near the station?", "Which running shoes do you guys use for long runs?",
                 "Is the pool open on public holidays?", "How long do you boil eggs for soft yolks?",
                 "anyone else's wifi down since 9am?", "Where can I recycle old batteries around here?",
                 "What time does the parade start on Saturday?", "Best podcast for learning Spanish? pls recommend",
                 "Does the 42 bus still stop at the hospital?", "how do u get the save file back after the patch??",
                 "Any book recommendations for a long flight?", "Has anyone tried the new ramen place? worth it?"]
NONE_STATE = ["Just finished my first marathon, so happy!", "The sunset at the lake tonight was amazing.",
              "Great game last night, what a comeback.", "My cat learned to open the door, send help lol.",
              "I disagree with the new policy, but I see the point.", "Happy birthday to my best friend!",
              "Finally fixed the leaking tap myself, feeling like a pro.", "Thank you all for the kind messages after my surgery.",
              "Rainy Sunday, tea and a good book. Perfect.", "Our team won the quiz night, 3rd year in a row!",
              "Respectfully, I think the referee got that call wrong.", "I don't agree with you on this, but thanks for explaining.",
              "Proud of my daughter, she passed her driving test today.", "New personal best at the gym: 100kg deadlift.",
              "Congrats to everyone who graduated this week!", "The council should fix the potholes on Elm Road, they're awful.",
              "Welcome to the group, new members! Please read the pinned post.", "Lost a blue scarf near the park yesterday, let me know if you find it.",
              "Reminder: the cleanup meetup is at 10am Saturday, bring gloves.", "This thread is so wholesome, thanks everyone."]
# harmless uses of words that sound like other categories
NONE_DISTRACT = ["You absolutely killed it on stage tonight!", "I'm dead 😂 this meme is too good.",
                 "Shoot me a message if you want the pattern.", "That workout destroyed me, legs are gone.",
                 "Ugh, my inbox is full of spam again, anyone know a good filter?", "This new album is fire.",
                 "Our team got crushed 5-0, brutal game.", "I'd kill for a coffee right now.",
                 "The movie's fight scenes were really well choreographed.", "Thoughts are with the families affected by the storm.",
                 "The news about the attack downtown is so sad, stay safe everyone.", "I'm so tired I could sleep for a week.",
                 "Free tickets for the school fair are at the front desk.", "Click the link in the pinned post for the official rules.",
                 "The band at the Red Lion on Friday was incredible.", "That exam murdered me lol.",
                 "Saw a documentary on the history of the war, really moving.", "Please report spam posts to the mods, thanks."]
ITEMS = ["a second-hand stroller", "a good e-bike", "gluten-free bread", "a reliable plumber", "a Spanish tutor",
         "cheap printer ink", "a vet open on Sundays", "winter tyres", "a quiet cafe to work from", "a used PS5",
         "a yoga class for beginners", "organic eggs", "a mechanic who does old Volvos", "a babysitter for Friday",
         "a 3D printer", "decent sushi", "a tennis partner", "size 38 football boots"]
CITIES = ["around here", "in Leeds", "near the station", "in Austin", "downtown", "in Munich", "in the east end",
          "near campus", "in Lyon", "within 10 km", "in Toronto", "on the north side"]
EVENTS = ["the book club", "the charity run", "the bake sale", "the community cleanup", "the LAN party",
          "the parents' meeting", "the open mic night", "the car meet", "the puppy training class", "the chess tournament"]
DAYS = ["Saturday", "Sunday", "Tuesday", "Friday", "next week", "the 14th", "May 3"]
TIMES = ["10am", "7pm", "2:30pm", "noon", "6 pm", "9:15"]
NONE_TEMPLATES = [
    "Anyone know where to get {item} {city}?", "Does anyone have experience with {item}? Looking for advice.",
    "Looking for {item} {city}, any recs? pls and thx", "Reminder: {event} is on {day} at {time}, see you there!",
    "Thanks to everyone who came to {event} on {day}, it was great!", "Quick q: is {event} still happening {day}?",
    "FYI {event} moved to {time} on {day}. Spread the word.", "Found {item} {city} finally, so happy!!",
    "Can someone recommend {item} {city}? Budget about ${n}.", "hi all, new to the area, where do ppl find {item}?",
    "Had a great time at {event}. Same time {day}?", "ETA for the photos from {event}? Can't wait to see them.",
]
NONE_RANT = ["So angry at the airline right now. 6 hour delay, no info, no food vouchers. Never flying with them again.",
             "The new parking rules in town are ridiculous. Who decided this? Write to the council, people.",
             "My internet provider is useless. Third outage this week and support just hangs up.",
             "WHY does every app need a subscription now?? I'm so done.",
             "This update broke everything. Devs, please test before you ship!!!",
             "The referee was awful today, worst officiating I've seen all season.",
             "i really dont like the new design of this app, buttons too small, please change back",
             "Hello, i am new here from Brazil, my english is not so good but i love this group!",
             "Somebody please explain why the bus is always late on Mondays. 20 min in the rain again.",
             "Not a fan of the new coach's tactics, we keep losing the midfield. Time for a change.",
             "Went to the vet this morning. Good news, the lump was nothing serious! So relieved.",
             "We moved here last month, kids started school, everyone has been so kind. Thank you neighbours.",
             "Yesterday my car broke down on the highway. A stranger stopped and helped me. Faith in humanity restored.",
             "Feeling a bit down this week but my friends took me out for pizza and it helped. Grateful for them.",
             "Sorry if wrong place to ask, but where i can find the rules for posting photos here?"]
NONE_FILLER = ["Have a good weekend all.", "Thanks in advance!", "Cheers.", "Just wanted to share.",
               "Anyway, back to work.", "lol", "10/10 would recommend.", "Hope everyone is well.", "Stay safe out there."]


def none_post(rng):
    r = rng.random()
    if r < 0.3:
        s = pick(rng, NONE_SUBJ)
        t = pick(rng, ["", "Honestly ", "ok so ", "Update: "]) + s + " " + pick(rng, NONE_OPINION) + pick(rng, [".", "!", "!!", " :)", "."])
        t = t[0].upper() + t[1:] if maybe(rng, 0.6) else t.lower()
    elif r < 0.42:
        t = pick(rng, NONE_QUESTION)
    elif r < 0.55:
        t = pick(rng, NONE_TEMPLATES)
        for k, bank in (("{item}", ITEMS), ("{city}", CITIES), ("{event}", EVENTS), ("{day}", DAYS), ("{time}", TIMES)):
            t = t.replace(k, pick(rng, bank))
        t = t.replace("{n}", str(pick(rng, [50, 100, 200, 350, 800])))
    elif r < 0.68:
        t = pick(rng, NONE_STATE)
    elif r < 0.82:
        t = pick(rng, NONE_RANT)
    else:
        t = pick(rng, NONE_DISTRACT)
    if maybe(rng, 0.35):
        extra = pick(rng, NONE_FILLER + NONE_STATE + NONE_DISTRACT)
        if extra != t:
            t = t + " " + extra
    if maybe(rng, 0.15):
        t = "Replying to " + user(rng) + ": " + t
    if maybe(rng, 0.08):
        t = t + " " + pick(rng, ["Saludos.", "Merci!", "Danke!", "Grazie mille.", "Obrigado!", "Gracias."])
    return t


# ---------------------------------------------------------------- harassment
INSULT_ADJ = ["worthless", "pathetic", "disgusting", "brainless", "useless", "stupid", "ugly", "braindead", "clueless",
              "fat", "dumb", "spineless", "miserable", "talentless", "delusional", "creepy", "lazy", "smelly"]
INSULT_NOUN = ["idiot", "loser", "moron", "clown", "waste of space", "failure", "joke", "creep", "freak", "piece of trash",
               "dumbass", "imbecile", "nobody", "parasite", "lowlife", "troll", "fraud", "embarrassment"]
HARASS_SERIOUS = [
    "{u} you are a {adj} {noun} and everyone knows it.",
    "{u}, nobody wants you here, just leave, {noun}.",
    "{u} is so {adj} and {adj2}, lol what a {noun}.",
    "hey {u} do everyone a favour and delete your account, you {adj} {noun}",
    "Everyone go look at {u}'s profile and tell this {noun} what you think of them.",
    "{u} you're a {adj} {noun}. Stop posting. Nobody cares.",
    "lmao {u} imagine being this {adj}. absolute {noun}",
    "Can't believe {u} shows their face here again. {adj} {noun}, seriously.",
    "{u} ur mum must be so ashamed of u, {adj} {noun}",
    "Not surprised {u} got dumped, who'd date such a {adj} {noun}.",
    "{u} you are the most {adj} person on this forum and I'll keep saying it in every thread you post in.",
    "Reminder that {u} is a {adj} {noun}. Block and ignore.",
    "{u} shut up. Seriously. You are {adj} and your opinions are garbage.",
    "Dear {u}, you are a {noun}. That's it, that's the post.",
    "i will comment on every single photo {u} posts until they quit, {adj} {noun}",
]
HARASS_MILD = [
    "{u} you're kind of an idiot tbh.", "{u} always talks nonsense, what a clown.",
    "{u} bit of a clueless take there mate.", "lol {u} that was a pretty dumb comment ngl.",
    "{u} are you always this annoying or just today?", "{u} honestly you sound a bit dim here.",
    "ok {u}, calm down, drama queen.", "{u} nobody asked, genius.",
    "{u} you're being a bit of a muppet about this.", "Classic {u}, clueless as usual 🙄",
    "{u} wow, brain cells not working today huh", "imagine being {u} and thinking this is a good take lol",
    "{u} stick to posting cat pics, you clearly don't get this topic", "{u} you're a bit of a know-it-all, just saying.",
    "{u} are you dense or just pretending? lol", "sure {u}, whatever you say, smart guy 🙄",
    "{u} you talk a lot for someone who knows nothing about it.", "{u} pls stop, you're embarrassing yourself a bit",
    "{u} you are little bit stupid in this topic i think", "{u} such a snowflake, can't take a joke",
]
HARASS_THREAT = [
    "I know where you live, {u}, watch your back.",
    "{u} I found your address and your workplace. See you soon.",
    "{u} keep talking. I know which school your kids go to.",
    "{u} you'll regret this. I know where you work and when you leave.",
    "Posting {u}'s home address here so everyone can pay them a visit: [address].",
    "{u} I'm outside your building right now. Bet you're scared.",
    "{u} better sleep with one eye open. I know your street.",
    "{u} you won't feel safe leaving your house after this, I promise.",
    "Everyone, {u}'s real name and phone number are below, make their life hell.",
    "{u} I've been following you home. Thought you should know.",
    "{u} say that again and I'll show up at your door. I have your address.",
    "Nice house you have on Oak Street, {u}. Would be a shame if something happened to it.",
    "{u} I know what car you drive. Be careful tonight.",
    "{u} you better not come to the meetup on Saturday. I'll be waiting for you.",
    "{u} I saved all your photos and I know your daughter's name. Think about it.",
    "{u} you should be scared. I'm coming for you and nobody will stop me.",
    "{u} i know ur address, i will come there, u will see what happens",
    "Hey {u}, your mom works at the pharmacy on 3rd right? Tell her I said hi. Watch yourself.",
]
HARASS_LEAD = ["", "", "{u} downvoted every post I made this week. ", "Saw {u}'s comment in the other thread. ",
               "{u} reported my post again. ", "Story time: {u} beat me in ranked and then trash talked me. ",
               "Blocked {u} on the other app, so now they're here. ", "{u} keeps replying to me. "]

# ---------------------------------------------------------------- hate
GROUP = ["immigrants", "refugees", "people from that country", "followers of that religion", "women",
         "gay people", "trans people", "disabled people", "[group]", "that ethnic group", "foreigners",
         "those people from [country]"]
HATE_SERIOUS = [
    "{g} are all criminals and should be banned.", "{g} are vermin.",
    "{g} are subhuman and don't deserve rights.", "{g} are a disease on this country.",
    "{g} are too stupid to vote.", "Get {g} out of our town, they're parasites.",
    "No {g} should be allowed to work here, they're all animals.",
    "Honestly {g} are a plague, we need to get rid of them.",
    "{g} are genetically inferior, that's just science.", "I'd never hire {g}, they're filth.",
    "[slur] like them should go back where they came from.", "This neighbourhood was fine before the {g} moved in. Dirty [slur].",
    "{g} don't count as real people imo.", "{g}? Every single one of them is a liar and a thief.",
    "{g} are ruining everything, they're a cancer.", "Ban {g} from this platform, they're less than human.",
    "{g} should not be allowed near our children. Ever.", "Hiring {g} is like letting rats into the kitchen.",
    "{g} are not welcome in this group. Go away, all of you.", "{g} are a sickness and this country needs a cure.",
    "{g} is the reason our city is dirty, they live like animals.", "We need to keep {g} out of our schools, they're inferior.",
    "The only good thing about {g} is when they leave.", "{g} breed like rats and steal our jobs.",
    "{g} have no place in a civilised society.", "{g} are all terrorists, every single one.",
    "{g} are mentally ill freaks and should be locked away.",
]
HATE_LEAD = ["", "", "", "Went to the shops today and it was full of them again. ", "I'm not racist but ",
             "Watched the news tonight. ", "Everyone's too scared to say it, so I will. ",
             "My new neighbours are {g}. "]
MILD_GROUP = ["boomers", "millennials", "Gen Z", "old people", "teenagers", "Americans", "Brits", "tourists"]
HATE_MILD = [
    "Ugh, typical {g}, they ruin everything.", "{g} can't do anything right lol.",
    "Of course it's {g} again, always the same with them.", "{g} are all so lazy and entitled, lol.",
    "Never trust {g}, they're all the same 🙄",
    "{g} and their stupid trends, honestly 🙄", "Classic {g} behaviour, can't take any criticism lol.",
    "{g} are the worst drivers, every time.", "Why are {g} always so annoying? Genuine question lol",
    "{g} just don't get it and never will 🤷", "Ok {g}, whatever. You're all clueless.",
    "Typical {g}, whining about everything again.",
]

# ---------------------------------------------------------------- self harm
SELF_HARM = [
    "I don't want to be alive anymore, I have the pills ready tonight.",
    "Cutting is the only thing that helps me, here is how I do it.",
    "I am going to end it all this weekend, goodbye everyone.",
    "Nobody would miss me if I jumped.",
    "This is my last post. I've given my stuff away. Thank you for everything.",
    "what's the most painless way to die? asking for real",
    "I keep hurting myself again and I don't want to stop this time.",
    "I wrote my goodbye letters today. Tomorrow it's over.",
    "i just want to disappear forever. i'm going to the bridge tonight",
    "Been planning how to kill myself for weeks. I think I'm finally ready.",
    "Starved myself for 5 days now, going for 10. Tips to hide it from my parents?",
    "Everyone would be better off without me. I won't be here next week.",
    "burned myself again last night, it's the only way i feel anything",
    "Can't do this anymore. Took a bunch of my meds, let's see what happens.",
    "If I don't wake up tomorrow, that's fine by me. Actually I'll make sure of it.",
    "Tips for hiding cuts from teachers? They're getting deeper.",
    "Sorry everyone. I'm done. Love you all. Don't look for me.",
    "I've decided. Saturday is the day. I've got the rope.",
    "I can't see a reason to keep going. I've saved up enough pills.",
    "Going to take a long walk into the sea tonight. Bye.",
    "Does anyone know how many of these tablets it takes? I want it to be enough.",
    "i hate myself so much. hurting myself is the only thing that helps. doing it again tonight",
    "Planning to drive my car off the road on the way home. Nobody would care.",
    "Please don't try to change my mind. I'm ending my life tonight.",
    "i not want to live anymore. tonight i take all the pills, sorry",
    "Day 3 of not eating at all. Want to keep going until I collapse. Tips?",
    "Headed to the roof now. Tell my mom I'm sorry.",
    "Every night I think about ending it. Last night I almost did. Tonight I will.",
    "Selling all my stuff, won't need it where I'm going. For real this time.",
    "I've started cutting again. Deeper this time. I don't care anymore.",
    "Honestly what's the point. I'm going to kill myself after my exams, it's decided.",
]
SH_LEAD = ["", "", "I don't even know why I'm posting this. ", "Rough week. ", "idk who else to tell. ",
           "Been a long time lurker. ", "My parents don't get it. ", "Lost my job and my girlfriend left. ",
           "Everything went wrong this year. ", "Sorry for the sad post. ", "3am and can't sleep. ",
           "Failed my exams again. ", "Nobody answers my texts anymore. ", "Hi, first post. "]

# ---------------------------------------------------------------- violence
VTARGET = ["the mayor", "the senator", "my boss", "the referee", "that judge", "the CEO", "the landlord",
           "the council leader", "that journalist", "the police chief", "the guy next door"]
VPLACE = ["their office", "the town hall", "the warehouse on 5th", "the clinic", "the school", "the stadium",
          "the mall", "the bank on Main St", "the factory", "the newsroom", "the police station", "the power plant"]
VDAY = ["on Friday", "tonight", "this weekend", "during the rally", "at 6pm", "next Monday", "tomorrow"]
VIOLENCE_SEVERE = [
    "Someone should shoot {t}, I'd do it myself.", "Let's burn down {p} {d}.",
    "I'll beat up the next guy who parks there.", "That attack was glorious, we need more of them.",
    "Bring weapons {d}, we're going to {p} to make them pay.", "{T} deserves a bullet. Just saying.",
    "I'm going to stab {t} if he says that one more time. Not joking.",
    "Who's in? We meet {d} and smash up {p}, anyone inside too.",
    "The guy who bombed {p} is a hero, more people should follow his example.",
    "I have a gun and I know where {t} parks. {D} it ends.",
    "If {t} shows up {d} we'll break every bone in his body.",
    "Honestly the shooting last month was well deserved, they had it coming. Do it again.",
    "Time to put {t} in the ground. I'm dead serious.",
    "Let's go hunting {d}. Target: {p}. You know what to bring.",
    "I'm going to blow up {p}. You've been warned.",
    "Anyone who goes to {p} {d} should get hurt. Let's make it happen.",
    "We should storm {p} {d} and drag {t} out. Bring bats.",
    "I'm bringing my rifle to {p} {d}. Stay away if you want to live.",
    "{T} needs to be taken out. Permanently. Who's with me?",
    "Next time {t} shows his face I'll smash his skull in.",
    "Those rioters who torched {p} did nothing wrong, burn the rest too.",
    "Let's find out where {t} lives and teach him a lesson he won't survive.",
    "Whoever attacked {t} last week deserves a medal. Finish the job.",
    "tomorrow we go {p} with knifes, they will pay for this",
    "Gonna set {p} on fire {d}, it's all planned.",
    "Violence is the only answer now. Hit {p} {d}, hit it hard.",
    "Hope someone runs {t} over with a truck. I'd happily do it.",
]
VIOLENCE_MILD = [
    "Someone should slap {t} honestly lol.", "{T} deserves a punch in the face tbh.",
    "I'd love to smack {t} right now, so annoying 😤", "ngl i'd throw hands with {t} after that call",
    "somebody kick {t} in the shins please lol",
    "I swear if {t} says that again I'm gonna smack him lol", "{T} needs a good slap, honestly.",
    "ugh I want to shake {t} until he makes sense",     "I'd happily push {t} into the pool after that speech haha", "{T} deserves a kick up the backside for that.",
    "if {t} does that again i'm throwing my shoe at him lol", "someone smack {t} with a newspaper please 🙄",
]

# ---------------------------------------------------------------- spam
PRODUCTS = ["followers", "likes", "replica watches", "designer bags", "weight loss pills", "crypto signals",
            "cheap loans", "phone cases", "gift cards", "concert tickets", "essay writing", "VPN accounts"]
LINKS = ["cheap-followers.example", "bit.ly/xx", "win-big.example/claim", "tinyurl.com/fr33", "best-deals.example",
         "crypto-x100.example", "t.me/getrichfast", "promo-now.example/?ref=88"]
SPAM_SERIOUS = [
    "BUY CHEAP {P} NOW!!! visit {L}", "Earn ${n} a week from home, click here: {L}",
    "Crypto giveaway!!! send 1 BTC get 2 back", "Best {p}, DM me, best price, DM me, best price.",
    "🔥🔥 {P} 90% OFF 🔥🔥 only today >>> {L} <<<", "Congratulations! You won a ${n} gift card. Claim at {L}",
    "I made ${n} in 3 days with this trick, message me on WhatsApp +1 555 0{n}",
    "Your account will be suspended. Verify your password here: {L}",
    "cheap {p} cheap {p} cheap {p} {L}", "Hot singles in your area 😍 {L}",
    "Invest $250 get ${n} guaranteed!! limited spots. DM for details",
    "FREE {P}!!! no survey no verification {L}", "Work from home, no experience, ${n}/month, apply {L}",
    "Get {n} {p} for $9.99. Fast delivery. {L} {L}", "DM me 'INFO' to learn how I retired at 25 💰💰 {L}",
    "Lose 20 kg in 2 weeks with our miracle pills!!! order at {L}",
    "Dear user, you have been selected for a ${n} reward. Enter your card details at {L}",
    "Make money fast!!! Make money fast!!! Make money fast!!! {L}",
    "Cheap {p} here: {L} | Cheap {p} here: {L} | Cheap {p} here: {L}",
    "Hello dear, I am investment manager, I can double your money in 7 days, contact me {L}",
    "NEED CASH? Instant loans, no credit check, approval in 5 minutes!!! {L}",
    "Bitcoin doubler 100% legit, send BTC to wallet 1A2b3C... and receive double in 24h",
    "Hey nice post! Btw I sell {p} at half price, check {L} 😉",
    "Official {P} sale, 95% off, offer ends in 10 minutes!!! {L}",
    "Get paid ${n} daily just by liking posts!!! sign up {L}",
    "Your package could not be delivered. Pay the $1.99 fee at {L} to reschedule.",
    "Want {n} {p}? Cheapest on the market. Telegram: {L}",
    "Click here to claim your free iPhone 🎁🎁 {L}",
    "WIN WIN WIN!!! Spin the wheel and get ${n} {L}",
    "Admin here: your account has been flagged, log in at {L} within 24h or it will be deleted.",
]
SPAM_MILD = [
    "Check out my new shop, link in bio!", "Follow my page for more deals :)",
    "I just started a YouTube channel about {topic}, would love it if you subscribed!",
    "Shameless plug: I made a little podcast about {topic}, link in my profile.",
    "If anyone's interested I sell handmade {craft} on my Etsy, link in bio 🙂",
    "New blog post about {topic} is up, check it out on my page!",
    "Sub to my twitch pls, streaming {topic} tonight",
    "Btw I wrote a short ebook on {topic}, it's on my profile if anyone wants it.",
    "I'm a photographer, if anyone needs one for a wedding check my page :)",
    "Small business owner here, we just opened a shop for handmade {craft}, follow us on insta!",
    "Hey all, my friend and I started a newsletter about {topic}, link in bio if you're curious",
    "Support my {craft} stall at the market or follow my page, every like helps 🙏",
    "My first video about {topic} is up, go watch it on my channel!",
    "Not to self-promote but my {topic} blog just hit 100 posts, link on my profile",
]
TOPICS = ["gardening", "retro games", "budget cooking", "running", "woodworking", "bird watching", "chess"]
CRAFTS = ["candles", "earrings", "mugs", "scarves", "bookmarks"]


def fill(rng, t):
    t = t.replace("{u}", user(rng))
    t = t.replace("{adj2}", pick(rng, INSULT_ADJ)).replace("{adj}", pick(rng, INSULT_ADJ))
    t = t.replace("{noun}", pick(rng, INSULT_NOUN))
    tg = pick(rng, VTARGET)
    t = t.replace("{t}", tg).replace("{T}", tg[0].upper() + tg[1:])
    t = t.replace("{p}", pick(rng, VPLACE))
    d = pick(rng, VDAY)
    t = t.replace("{d}", d).replace("{D}", d[0].upper() + d[1:])
    t = t.replace("{n}", str(pick(rng, [500, 1000, 2500, 5000, 10000, 750, 300])))
    t = t.replace("{topic}", pick(rng, TOPICS)).replace("{craft}", pick(rng, CRAFTS))
    while "{L}" in t:
        t = t.replace("{L}", pick(rng, LINKS), 1)
    return t


URGENCY = ["LIMITED OFFER!!!", "Only today:", "LAST CHANCE", "Hurry, only 3 left:", "Act now!", "EXCLUSIVE DEAL:",
           "100% legit,", "No scam!!", "Don't miss out:", "ATTENTION:"]
SPAM_COMPOSED = ["{U} {p} at {k}% off, order via {L}", "{U} free {p} for the first 100 people, claim at {L}",
                 "{U} get {p} and earn ${n}/week, DM me or visit {L}", "{U} wholesale {p}, cheapest prices, WhatsApp +44 7700 9{n}"]


def spam_fill(rng, t):
    t = t.replace("{U}", pick(rng, URGENCY)).replace("{k}", str(pick(rng, [50, 70, 80, 90, 95])))
    p = pick(rng, PRODUCTS)
    return fill(rng, t.replace("{P}", p.upper()).replace("{p}", p))


def hate_fill(rng, t, groups):
    g = pick(rng, groups)
    t = t.replace("{g}", g)
    return t[0].upper() + t[1:]


# ---------------------------------------------------------------- framing
LEAD_IN = ["Long day at work.", "Saw this thread and had to say it.", "Unpopular opinion but whatever.",
           "ok so", "honestly", "Not sorry.", "Been thinking about this all week.", "Listen up.", "Saying it again:"]
TAILS = ["#mood", "#weekend", "😂", "!!!", "#truth", "💯", "🙄", "#facts", "...", "👀"]


def frame(rng, text, category):
    if category not in ("none", "self_harm") and maybe(rng, 0.2):
        lead = pick(rng, LEAD_IN)
        if lead[-1].isalpha() and not text.startswith("@"):
            text = text[0].lower() + text[1:]
        text = lead + " " + text
    if category == "self_harm":
        pass
    elif maybe(rng, 0.1) and not text.startswith("Replying"):
        text = "RT " + user(rng) + ": " + text
    elif maybe(rng, 0.08) and category not in ("none", "spam"):
        text = "> " + text + "\n" + pick(rng, ["this.", "^ exactly", "agreed 100%", "someone had to say it"])
    if maybe(rng, 0.2):
        text += " " + pick(rng, TAILS)
    r = rng.random()
    if r < 0.15:
        text = text.lower()
    elif r < 0.2 and category in ("harassment", "hate", "violence", "spam"):
        text = text.upper()
    return typo(rng, text, 0.05 if maybe(rng, 0.4) else 0.0)


def content_moderation(rng):
    category = pick(rng, ["none", "none", "harassment", "hate", "self_harm", "violence", "spam"])
    if category == "none":
        severity, action, text = "none", "allow", none_post(rng)
    elif category == "self_harm":
        severity, action = "severe", "escalate"
        text = pick(rng, SH_LEAD) + pick(rng, SELF_HARM)
    elif category == "harassment":
        r = rng.random()
        if r < 0.3:
            severity, action, text = "mild", "label", fill(rng, pick(rng, HARASS_MILD))
        elif r < 0.65:
            severity, action, text = "serious", "remove", fill(rng, pick(rng, HARASS_LEAD) + pick(rng, HARASS_SERIOUS))
        else:
            severity, action, text = "severe", "escalate", fill(rng, pick(rng, HARASS_LEAD) + pick(rng, HARASS_THREAT))
    elif category == "hate":
        if maybe(rng, 0.3):
            severity, action, text = "mild", "label", hate_fill(rng, pick(rng, HATE_MILD), MILD_GROUP)
        else:
            lead, body = pick(rng, HATE_LEAD), pick(rng, HATE_SERIOUS)
            if lead.endswith("but ") and body[0] != "{":
                body = body[0].lower() + body[1:]
            severity, action, text = "serious", "remove", hate_fill(rng, lead + body, GROUP)
    elif category == "violence":
        if maybe(rng, 0.3):
            severity, action, text = "mild", "label", fill(rng, pick(rng, VIOLENCE_MILD))
        else:
            severity, action, text = "severe", "escalate", fill(rng, pick(rng, VIOLENCE_SEVERE))
    else:
        if maybe(rng, 0.3):
            severity, action, text = "mild", "label", spam_fill(rng, pick(rng, SPAM_MILD))
        else:
            severity, action, text = "serious", "remove", spam_fill(rng, pick(rng, SPAM_SERIOUS + SPAM_COMPOSED * 3))
    text = frame(rng, text, category)
    violates = "no" if category == "none" else "yes"
    return {"content": text, "platform": pick(rng, CM_PLATFORMS), "locale": pick(rng, CM_LOCALES)}, {
        "violates": violates, "category": category, "severity": severity, "action": action}
