"""Shared pieces of the input generators: picking, typos, shouting, composing cue sentences.

Inputs for the six shipped policies, with their answers fixed by rules this file owns.

Every generator draws the answers first and then writes an input that carries them: the cue
sentences of each answer come from banks keyed by that answer, around them go fillers, greetings,
distractors (details that name no answer's cue), words of other languages, typos and varied
lengths. The rules follow each policy's own criteria and option descriptions, so that a careful
reader of the policy would give the same answers.
"""



def pick(rng, items):
    return items[int(rng.integers(len(items)))]


def maybe(rng, p):
    return rng.random() < p


def typo(rng, text, rate):
    """Swaps, drops or doubles letters in a few words, as hurried typing does."""
    words = text.split(" ")
    for i, w in enumerate(words):
        if len(w) > 3 and w.isalpha() and rng.random() < rate:
            j = int(rng.integers(1, len(w) - 1))
            kind = int(rng.integers(3))
            if kind == 0:
                w = w[:j - 1] + w[j] + w[j - 1] + w[j + 1:]
            elif kind == 1:
                w = w[:j] + w[j + 1:]
            else:
                w = w[:j] + w[j] + w[j:]
            words[i] = w
    return " ".join(words)


def shout(rng, text):
    return text.upper() if maybe(rng, 0.3) else text


FOREIGN = [
    "Danke im Voraus.", "Vielen Dank.", "Gracias de antemano.", "Merci beaucoup.", "Bonjour,",
    "Hola equipo,", "Grüße aus Berlin.", "Saludos.", "Cordialement,", "Un saludo.", "Hallo zusammen,",
    "Entschuldigung für mein Englisch.", "Perdón por mi inglés.", "Désolé pour mon anglais.",
]


def compose(rng, cues, fillers, foreign=0.25, typos=0.04, distractors=()):
    """Cue sentences in a random order, with fillers, a distractor and a foreign word or two."""
    parts = list(cues)
    rng.shuffle(parts)
    for _ in range(int(rng.integers(0, 3))):
        parts.insert(int(rng.integers(len(parts) + 1)), pick(rng, fillers))
    if distractors and maybe(rng, 0.35):
        parts.insert(int(rng.integers(len(parts) + 1)), pick(rng, distractors))
    if maybe(rng, foreign):
        parts.insert(0 if maybe(rng, 0.5) else len(parts), pick(rng, FOREIGN))
    text = " ".join(parts)
    return typo(rng, text, typos if maybe(rng, 0.5) else 0.0)
